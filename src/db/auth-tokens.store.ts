import { LessThan } from 'typeorm';
import type { Database } from './database';
import { AccessToken, WebSession } from './entities';

/** Stores an access token by its hash. */
export async function insertAccessToken(
  db: Database,
  fields: Pick<AccessToken, 'tokenHash' | 'userId' | 'apiKeyId' | 'expiresAt'>,
): Promise<void> {
  await db.write.getRepository(AccessToken).insert(fields);
}

/** Deletes the tokens expired before `now`; returns how many. */
export async function deleteTokensExpiredBefore(db: Database, now: Date): Promise<number> {
  const result = await db.write.getRepository(AccessToken).delete({ expiresAt: LessThan(now) });
  return result.affected ?? 0;
}

/** Stores a key-manager session by its hash and returns it as stored. */
export function insertWebSession(
  db: Database,
  fields: Pick<WebSession, 'tokenHash' | 'userId' | 'expiresAt'>,
): Promise<WebSession> {
  const sessions = db.write.getRepository(WebSession);
  return sessions.save(sessions.create(fields));
}

/** The key-manager session of a cookie's hash, expired or not, or null. */
export function webSessionByHash(db: Database, tokenHash: string): Promise<WebSession | null> {
  return db.write.getRepository(WebSession).findOneBy({ tokenHash });
}

/** Ends the key-manager session of a cookie's hash, if any. */
export async function deleteWebSession(db: Database, tokenHash: string): Promise<void> {
  await db.write.getRepository(WebSession).delete({ tokenHash });
}

import type { Database } from './database';
import { ApiKey } from './entities';
import { retryingConflicts } from './conflict-retry';
import { credentialChangeStatement } from './rate-limit-lease.store';

/** The columns a new key is written with; the others take their defaults. */
export type NewApiKey = Pick<
  ApiKey,
  'keyHash' | 'keyPrefix' | 'host' | 'label' | 'ownerId' | 'revokedAt' | 'lastUsedAt'
>;

/** Writes a new key and returns it as stored, id and creation date included. */
export function insertApiKey(db: Database, fields: NewApiKey): Promise<ApiKey> {
  const keys = db.write.getRepository(ApiKey);
  return keys.save(keys.create(fields));
}

/** The keys of an owner, or every key when `ownerId` is undefined, newest first. */
export function apiKeysOf(db: Database, ownerId: number | undefined): Promise<ApiKey[]> {
  return db.write.getRepository(ApiKey).find({
    where: ownerId === undefined ? {} : { ownerId },
    order: { id: 'DESC' },
  });
}

/** The key of an id, or null. */
export function apiKeyById(db: Database, id: number): Promise<ApiKey | null> {
  return db.write.getRepository(ApiKey).findOneBy({ id });
}

/** The key whose secret hashes to `keyHash`, revoked or not, or null. */
export function apiKeyByHash(db: Database, keyHash: string): Promise<ApiKey | null> {
  return db.write.getRepository(ApiKey).findOneBy({ keyHash });
}

/**
 * Writes back the revocation of a key read with the functions above, and counts a change of
 * credentials in the same transaction: every instance drops what it keeps in memory within a
 * second (credential-changes.watch.ts).
 */
export async function saveRevokedApiKey(db: Database, apiKey: ApiKey): Promise<void> {
  const change = credentialChangeStatement(db.dialect);
  // Two revocations through two Galera nodes at once both count a change: one loses
  // certification and is sent again whole, which is harmless.
  await retryingConflicts(() =>
    db.exclusive(() =>
      db.write.transaction(async (manager) => {
        await manager.getRepository(ApiKey).save(apiKey);
        await manager.query(change.sql, change.params);
      }),
    ),
  );
}

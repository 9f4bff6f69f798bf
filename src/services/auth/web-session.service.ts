import { expiryIn } from '../../db/column-types';
import type { AppDeps } from '../../context/request-context';
import { WebSession } from '../../db/entities';
import { hashSecret, newSecret } from '../../security/secrets';

export const WEB_SESSION_PREFIX = 'qs_';

export type WebSessionContext = Pick<AppDeps, 'config' | 'db'>;

export interface CreatedWebSession {
  session: WebSession;
  /** The cookie value: given to the browser once, stored only as its hash. */
  secret: string;
}

/** Opens a key-manager session for a user who just logged in. */
export async function createWebSession(
  ctx: WebSessionContext,
  userId: number,
): Promise<CreatedWebSession> {
  const secret = newSecret(WEB_SESSION_PREFIX);
  const sessions = ctx.db.write.getRepository(WebSession);
  const session = await sessions.save(
    sessions.create({
      tokenHash: hashSecret(secret),
      userId,
      expiresAt: expiryIn(ctx.config.webSessionTtlSeconds),
    }),
  );
  return { session, secret };
}

/** The live session a cookie value names; undefined when unknown or expired. */
export async function resolveWebSession(
  ctx: WebSessionContext,
  secret: string | undefined,
): Promise<WebSession | undefined> {
  if (!secret) return undefined;
  const session = await ctx.db.write
    .getRepository(WebSession)
    .findOneBy({ tokenHash: hashSecret(secret) });
  if (!session || session.expiresAt.getTime() <= Date.now()) return undefined;
  return session;
}

/** Ends a session (log out); unknown values are ignored. */
export async function destroyWebSession(
  ctx: WebSessionContext,
  secret: string | undefined,
): Promise<void> {
  if (!secret) return;
  await ctx.db.write.getRepository(WebSession).delete({ tokenHash: hashSecret(secret) });
}

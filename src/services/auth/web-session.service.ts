import { expiryIn } from '../../db/entities/column-types';
import type { AppDeps } from '../../context/request-context';
import { deleteWebSession, insertWebSession, webSessionByHash } from '../../db/auth-tokens.store';
import type { User, WebSession } from '../../db/entities';
import { userById } from '../../db/users.store';
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
  const session = await insertWebSession(ctx.db, {
    tokenHash: hashSecret(secret),
    userId,
    expiresAt: expiryIn(ctx.config.webSessionTtlSeconds),
  });
  return { session, secret };
}

/** The live session a cookie value names; undefined when unknown or expired. */
export async function resolveWebSession(
  ctx: WebSessionContext,
  secret: string | undefined,
): Promise<WebSession | undefined> {
  if (!secret) return undefined;
  const session = await webSessionByHash(ctx.db, hashSecret(secret));
  if (!session || session.expiresAt.getTime() <= Date.now()) return undefined;
  return session;
}

/** A live session and the user it logs in: what the key manager knows of a cookie. */
export interface WebLogin {
  session: WebSession;
  user: User;
}

/** The live session a cookie value names, with its user; undefined when either is gone. */
export async function resolveWebLogin(
  ctx: WebSessionContext,
  secret: string | undefined,
): Promise<WebLogin | undefined> {
  const session = await resolveWebSession(ctx, secret);
  const user = session ? await userById(ctx.db, session.userId, 'read') : null;
  return session && user ? { session, user } : undefined;
}

/** Ends a session (log out); unknown values are ignored. */
export async function destroyWebSession(
  ctx: WebSessionContext,
  secret: string | undefined,
): Promise<void> {
  if (!secret) return;
  await deleteWebSession(ctx.db, hashSecret(secret));
}

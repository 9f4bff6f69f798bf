import { expiryIn } from '../../db/entities/column-types';
import type { RequestContext } from '../../context/request-context';
import { deleteTokensExpiredBefore, insertAccessToken } from '../../db/auth-tokens.store';
import { hashSecret, newSecret } from '../../security/secrets';

export const ACCESS_TOKEN_PREFIX = 'qt_';

/** The access token object of spec §2.2. */
export interface IssuedToken {
  token: string;
  expiresIn: number;
}

/** Issues a token for a user, bound to the API key it is issued for; only its hash is stored. */
export async function issueAccessToken(
  ctx: RequestContext,
  userId: number,
  apiKeyId: number,
): Promise<IssuedToken> {
  const token = newSecret(ACCESS_TOKEN_PREFIX);
  const expiresIn = ctx.config.tokenTtlSeconds;
  await insertAccessToken(ctx.db, {
    tokenHash: hashSecret(token),
    userId,
    apiKeyId,
    expiresAt: expiryIn(expiresIn),
  });
  return { token, expiresIn };
}

/**
 * The token a client sent. Clients that pass on the whole login redirect value send the JSON
 * object `{"token": …, "expiresIn": …}`; the token inside it is taken.
 */
export function tokenFromParameter(value: string): string {
  const trimmed = value.trim();
  if (!trimmed.startsWith('{')) return trimmed;
  try {
    const parsed = JSON.parse(trimmed) as { token?: unknown };
    return typeof parsed.token === 'string' ? parsed.token : trimmed;
  } catch {
    return trimmed;
  }
}

export async function purgeExpiredTokens(ctx: Pick<RequestContext, 'db'>): Promise<number> {
  return deleteTokensExpiredBefore(ctx.db, new Date());
}

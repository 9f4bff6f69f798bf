import type { AppDeps, Requester } from '../../context/request-context';
import type { ApiKey } from '../../db/entities';
import { Errors } from '../../errors';
import { hashSecret } from '../../security/secrets';
import { tokenFromParameter } from './access-token.service';
import { requestMatchesKey, type RequestOrigin } from './host-binding';

export interface PresentedCredentials extends RequestOrigin {
  operation: string;
  apiKey?: string;
  accessToken?: string;
}

/** What acceptApiKey reads of a stored key. */
type StoredKey = Pick<ApiKey, 'id' | 'host' | 'revokedAt'>;

/** The key of a lookup: it exists, is not revoked and was sent from its host; else the contract's error. */
function acceptApiKey<K extends StoredKey>(apiKey: K | null, credentials: PresentedCredentials): K {
  const { operation } = credentials;
  if (!apiKey || apiKey.revokedAt)
    throw Errors.unauthenticated(operation, 'the API key is unknown or revoked');
  if (!requestMatchesKey(apiKey.host, credentials)) {
    throw Errors.unauthenticated(
      operation,
      'the API key is not valid for the host of this request',
    );
  }
  return apiKey;
}

/** A token as authenticateRequest reads it; expiresAt in milliseconds since the epoch. */
interface StoredToken {
  userId: number;
  apiKeyId: number;
  expiresAt: number;
}

/** A datetime column read by a raw query: a Date from mysql2, UTC text from SQLite. */
function epochMillis(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  return Date.parse(`${String(value).replace(' ', 'T')}Z`);
}

/**
 * The key and the token a request presents, in one statement: every request makes this lookup.
 * The token is read whichever key it was issued for; the caller decides what to believe.
 */
async function findCredentials(
  deps: AppDeps,
  apiKey: string,
  accessToken: string | undefined,
): Promise<{ key: StoredKey | null; token: StoredToken | null }> {
  const rows = (await deps.db.write.query(
    `SELECT k.id AS key_id, k.host AS key_host, k.revoked_at AS key_revoked_at,
            t.user_id AS token_user_id, t.api_key_id AS token_api_key_id,
            t.expires_at AS token_expires_at
       FROM api_keys k
       LEFT JOIN access_tokens t ON t.token_hash = ?
      WHERE k.key_hash = ?`,
    [accessToken === undefined ? null : hashSecret(accessToken), hashSecret(apiKey)],
  )) as Record<string, unknown>[];
  const [row] = rows;
  if (!row) return { key: null, token: null };
  const key = {
    id: Number(row.key_id),
    host: String(row.key_host),
    revokedAt: row.key_revoked_at === null ? null : new Date(epochMillis(row.key_revoked_at)),
  };
  const token =
    row.token_user_id === null
      ? null
      : {
          userId: Number(row.token_user_id),
          apiKeyId: Number(row.token_api_key_id),
          expiresAt: epochMillis(row.token_expires_at),
        };
  return { key, token };
}

/**
 * Who is asking: anonymous with a valid key, or the token's user. A token that is unknown,
 * expired or was issued for another key is refused (401), never silently ignored.
 */
export async function authenticateRequest(
  deps: AppDeps,
  credentials: PresentedCredentials,
): Promise<Requester> {
  const { operation } = credentials;
  if (!credentials.apiKey) throw Errors.missingParameter(operation, 'apiKey');
  const presentedToken =
    credentials.accessToken === undefined || credentials.accessToken === ''
      ? undefined
      : tokenFromParameter(credentials.accessToken);
  const { key: storedKey, token } = await findCredentials(deps, credentials.apiKey, presentedToken);
  const apiKey = acceptApiKey(storedKey, credentials);
  deps.keyUsage.touch(apiKey.id);
  if (presentedToken === undefined) return { kind: 'anonymous', apiKeyId: apiKey.id };
  if (!token) throw Errors.unauthenticated(operation, 'the access token is invalid');
  // Written so that an unreadable expiry (NaN) counts as expired.
  if (!(token.expiresAt > Date.now()))
    throw Errors.unauthenticated(operation, 'the access token has expired');
  if (token.apiKeyId !== apiKey.id) {
    throw Errors.unauthenticated(operation, 'the access token was issued for another API key');
  }
  return { kind: 'user', apiKeyId: apiKey.id, userId: token.userId };
}

import type { ApiKey } from '../entities';
import type { RowReader } from './row-reads';

/** What the credentials check reads of a stored key. */
export type StoredKey = Pick<ApiKey, 'id' | 'host' | 'revokedAt'>;

/** A token as authenticateRequest reads it; expiresAt in milliseconds since the epoch. */
export interface StoredToken {
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
 * The key and the token a request presents, by their hashes, in one statement: every request
 * makes this lookup. The token is read whichever key it was issued for; the caller decides what
 * to believe.
 */
export async function findCredentials(
  handle: RowReader,
  keyHash: string,
  tokenHash: string | null,
): Promise<{ key: StoredKey | null; token: StoredToken | null }> {
  const rows = await handle.rows<Record<string, unknown>>(
    `SELECT k.id AS key_id, k.host AS key_host, k.revoked_at AS key_revoked_at,
            t.user_id AS token_user_id, t.api_key_id AS token_api_key_id,
            t.expires_at AS token_expires_at
       FROM api_keys k
       LEFT JOIN access_tokens t ON t.token_hash = ?
      WHERE k.key_hash = ?`,
    [tokenHash, keyHash],
  );
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

/** Whether the key `apiKeyId` exists and is not revoked. */
export async function isKeyInForce(handle: RowReader, apiKeyId: number): Promise<boolean> {
  const rows = await handle.rows<{ revoked_at: unknown }>(
    'SELECT revoked_at FROM api_keys WHERE id = ?',
    [apiKeyId],
  );
  return rows.length === 1 && rows[0]?.revoked_at === null;
}

/**
 * Whether the key is in force and, for a user's request, the user not erased: what a live
 * subscription asks before each message (one statement).
 */
export async function isRequesterInForce(
  handle: RowReader,
  apiKeyId: number,
  userId: number | null,
): Promise<boolean> {
  if (userId === null) return isKeyInForce(handle, apiKeyId);
  const rows = await handle.rows<{ revoked_at: unknown; erased_at: unknown }>(
    `SELECT k.revoked_at, u.erased_at FROM api_keys k
     JOIN users u ON u.id = ? WHERE k.id = ?`,
    [userId, apiKeyId],
  );
  return rows.length === 1 && rows[0]?.revoked_at === null && rows[0]?.erased_at === null;
}

import type { DataSource } from 'typeorm';
import { toNumber, type Dialect } from './dialect';
import type { SqlStatement } from './statement-batches';

/**
 * The statements of session join codes (contract.md §9): the code is looked up by its unique
 * index, and a new one is written only where the session holds none still valid, so two owners'
 * reads renewing it at once agree on one code (the second UPDATE finds the first one's valid).
 */

/** The session a join code opens at `now`, or null when no session holds it valid. */
export async function sessionIdByJoinCode(
  handle: DataSource,
  dialect: Dialect,
  code: string,
  now: Date,
): Promise<number | null> {
  const rows = (await handle.query(
    'SELECT id FROM sessions WHERE join_code = ? AND join_code_expires_at > ?',
    [code, dialect.date(now)],
  )) as { id: unknown }[];
  const [row] = rows;
  return row ? toNumber(row.id) : null;
}

/** Gives the session `code` until `expiresAt`, unless it holds a code still valid at `now`. */
export function renewJoinCodeSql(
  dialect: Dialect,
  sessionId: number,
  code: string,
  expiresAt: Date,
  now: Date,
): SqlStatement {
  return {
    sql: `UPDATE sessions SET join_code = ?, join_code_expires_at = ?
           WHERE id = ? AND (join_code IS NULL OR join_code_expires_at IS NULL OR join_code_expires_at <= ?)`,
    params: [code, dialect.date(expiresAt), sessionId, dialect.date(now)],
  };
}

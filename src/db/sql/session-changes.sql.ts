import type { DataSource } from 'typeorm';
import { toNumber, type Dialect } from './dialect';
import type { SqlStatement } from './statement-batches';

/**
 * The change markers of sessions (table session_changes, contract.md §10): the writer of answers
 * bumps a session's version in the transaction that stores them, so the version a reader sees is
 * never ahead of the answers it can read; instances watching sessions read the versions of all
 * of them in one statement.
 */

/** Bumps the version of `sessionId` (creating its marker at 1), stamped `now`. */
export function bumpSessionVersion(dialect: Dialect, sessionId: number, now: Date): SqlStatement {
  const params = [sessionId, dialect.date(now)];
  return dialect.name === 'mysql'
    ? {
        sql: `INSERT INTO session_changes (session_id, version, changed_at) VALUES (?, 1, ?)
              ON DUPLICATE KEY UPDATE version = version + 1, changed_at = VALUES(changed_at)`,
        params,
      }
    : {
        sql: `INSERT INTO session_changes (session_id, version, changed_at) VALUES (?, 1, ?)
              ON CONFLICT (session_id) DO UPDATE SET version = version + 1,
              changed_at = excluded.changed_at`,
        params,
      };
}

/**
 * MySQL/MariaDB, right after the upsert of a batch in the same exchange: bumps the version only
 * when the upsert changed a row (its ROW_COUNT(); the batch connections count a row left as it
 * was as 0), so a batch sent again wakes no subscriber.
 */
export function bumpSessionVersionIfChanged(sessionId: number, now: Date): SqlStatement[] {
  return [
    { sql: 'SET @answers_changed = ROW_COUNT()', params: [] },
    {
      sql: `INSERT INTO session_changes (session_id, version, changed_at)
            SELECT ?, 1, ? FROM DUAL WHERE @answers_changed > 0
            ON DUPLICATE KEY UPDATE version = version + 1, changed_at = VALUES(changed_at)`,
      params: [sessionId, now],
    },
  ];
}

/**
 * The current version of each of `sessionIds` that has a marker (a session without one has had
 * no answers written through addAnswers: version 0).
 */
export async function readSessionVersions(
  handle: DataSource,
  dialect: Dialect,
  sessionIds: readonly number[],
): Promise<Map<number, number>> {
  const versions = new Map<number, number>();
  if (sessionIds.length === 0) return versions;
  const rows = (await handle.query(
    `SELECT session_id, version FROM session_changes WHERE session_id IN (${dialect.placeholders(sessionIds.length)})`,
    [...sessionIds],
  )) as { session_id: unknown; version: unknown }[];
  for (const row of rows) versions.set(toNumber(row.session_id), toNumber(row.version));
  return versions;
}

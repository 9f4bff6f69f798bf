import type { Dialect, SqlDate } from './dialect';
import type { SqlFragment } from './sql-fragment';

/**
 * The retention purge (contract.md §14.5): answers of sessions started before a cutoff, then the
 * attendance of those sessions once no answer is left. Each round reads a bounded batch of keys
 * and deletes them by key in one autocommitted statement, so no lock on `answers` outlives it.
 */

/**
 * Up to `limit` answers (id and session) of sessions started before `cutoff`. Sessions are read
 * first (there are far fewer), then their answers through the (session_id, …) unique index.
 */
export function expiredAnswers(dialect: Dialect, cutoff: SqlDate, limit: number): SqlFragment {
  return {
    sql: `SELECT a.id, a.session_id FROM sessions s ${dialect.straightJoin} answers a
          ON a.session_id = s.id
          WHERE s.start_date < ? LIMIT ?`,
    params: [cutoff, limit],
  };
}

/** Deletes answers by primary key. */
export function deleteAnswers(dialect: Dialect, ids: readonly number[]): SqlFragment {
  return {
    sql: `DELETE FROM answers WHERE id IN (${dialect.placeholders(ids.length)})`,
    params: [...ids],
  };
}

/** Up to `limit` sessions started before `cutoff` that have attendance but no answer left. */
export function emptiedSessionsWithAttendance(cutoff: SqlDate, limit: number): SqlFragment {
  return {
    sql: `SELECT s.id FROM sessions s
          WHERE s.start_date < ?
            AND EXISTS (SELECT 1 FROM session_attendees sa WHERE sa.session_id = s.id)
            AND NOT EXISTS (SELECT 1 FROM answers a WHERE a.session_id = s.id)
          LIMIT ?`,
    params: [cutoff, limit],
  };
}

/**
 * Deletes the attendance of `sessionIds`, checking again that each has no answer: one written
 * since the sessions were read keeps its attendee list until the answer itself is purged.
 */
export function deleteAttendanceOfEmptiedSessions(
  dialect: Dialect,
  sessionIds: readonly number[],
): SqlFragment {
  return {
    sql: `DELETE FROM session_attendees
          WHERE session_id IN (${dialect.placeholders(sessionIds.length)})
            AND NOT EXISTS (SELECT 1 FROM answers a WHERE a.session_id = session_attendees.session_id)`,
    params: [...sessionIds],
  };
}

/** Up to `limit` ids of access-log rows written before `cutoff`, by the accessed_at index. */
export function expiredAccessLogEntries(cutoff: SqlDate, limit: number): SqlFragment {
  return {
    sql: `SELECT id FROM access_log WHERE accessed_at < ? LIMIT ?`,
    params: [cutoff, limit],
  };
}

/** Deletes access-log rows by primary key. */
export function deleteAccessLogEntries(dialect: Dialect, ids: readonly number[]): SqlFragment {
  return {
    sql: `DELETE FROM access_log WHERE id IN (${dialect.placeholders(ids.length)})`,
    params: [...ids],
  };
}

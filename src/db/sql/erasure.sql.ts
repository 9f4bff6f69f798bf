import type { Dialect, SqlDate } from './dialect';
import type { SqlFragment, SqlParam } from './sql-fragment';

/**
 * The statements of an erasure (contract.md §14.4). Table and column names come from the
 * registry of personal data, never from a request.
 */

/** The person's row, locked for the erasure where the database locks rows. */
export function personRow(dialect: Dialect, userId: number): SqlFragment {
  return {
    sql: `SELECT id, email, erased_at FROM users WHERE id = ?${dialect.name === 'mysql' ? ' FOR UPDATE' : ''}`,
    params: [userId],
  };
}

/** A user's id by email (the command line names people either way). */
export function userIdByEmail(email: string): SqlFragment {
  return { sql: 'SELECT id FROM users WHERE email = ?', params: [email] };
}

function matching(column: string, values: readonly SqlParam[], dialect: Dialect): string {
  return values.length === 1
    ? `${column} = ?`
    : `${column} IN (${dialect.placeholders(values.length)})`;
}

export function countRows(
  dialect: Dialect,
  table: string,
  column: string,
  values: readonly SqlParam[],
): SqlFragment {
  return {
    sql: `SELECT COUNT(*) AS n FROM ${table} WHERE ${matching(column, values, dialect)}`,
    params: [...values],
  };
}

export function deleteRows(
  dialect: Dialect,
  table: string,
  column: string,
  values: readonly SqlParam[],
): SqlFragment {
  return {
    sql: `DELETE FROM ${table} WHERE ${matching(column, values, dialect)}`,
    params: [...values],
  };
}

/**
 * Sessions whose live subscribers must hear of the erasure: those whose results the person's
 * answers or attendance change (they recompute), and those the person owns (their own
 * subscriptions end at their next message).
 */
export function sessionsOfPerson(userId: number): SqlFragment {
  return {
    sql: `SELECT session_id FROM answers WHERE user_id = ?
          UNION SELECT session_id FROM session_attendees WHERE user_id = ?
          UNION SELECT id AS session_id FROM sessions WHERE owner_id = ?`,
    params: [userId, userId, userId],
  };
}

/**
 * Every set that holds the person or may have been computed from their answers, expired or not:
 * the sets they made; user sets listing them; quiz sets holding a quiz they answered (a set of
 * the quizzes a player played names the player); result sets with a row of theirs, or
 * aggregated over users (a row without a user); every item analysis. The last two cannot tell
 * whom they counted, so any of them may have counted the person.
 */
export function setsOfPerson(userId: number): SqlFragment {
  return {
    sql: `SELECT id, item_type, total_number_of_items AS total FROM data_sets d
          WHERE d.owner_user_id = ?
             OR d.item_type IN ('questionStatistic', 'quizStatistic')
             OR (d.item_type = 'user' AND EXISTS (
                  SELECT 1 FROM data_set_items i WHERE i.data_set_id = d.id AND i.item_id = ?))
             OR (d.item_type = 'quiz' AND EXISTS (
                  SELECT 1 FROM data_set_items i JOIN answers a ON a.quiz_id = i.item_id
                  WHERE i.data_set_id = d.id AND a.user_id = ?))
             OR (d.item_type = 'computedResult' AND EXISTS (
                  SELECT 1 FROM computed_results c WHERE c.data_set_id = d.id
                    AND (c.user_id = ? OR c.user_id IS NULL)))`,
    params: [userId, userId, userId, userId],
  };
}

/**
 * Other people's sign-ins through API keys the person owns: erasing the person deletes their
 * keys, and the database deletes those sign-ins with them (access_tokens.api_key_id cascades).
 */
export function tokensThroughKeysOf(userId: number): SqlFragment {
  return {
    sql: `SELECT COUNT(*) AS n FROM access_tokens t JOIN api_keys k ON k.id = t.api_key_id
          WHERE k.owner_id = ? AND t.user_id <> ?`,
    params: [userId, userId],
  };
}

/** The join codes of the person's sessions: no one joins a session of an erased owner. */
export function joinCodesOfOwnerCleared(userId: number): SqlFragment {
  return {
    sql: `UPDATE sessions SET join_code = NULL, join_code_expires_at = NULL
          WHERE owner_id = ? AND join_code IS NOT NULL`,
    params: [userId],
  };
}

/** The tombstone: every personal column of the row emptied, the id kept (never reused). */
export function tombstoneUpdate(userId: number, erasedAt: SqlDate): SqlFragment {
  return {
    sql: `UPDATE users SET email = NULL, password_hash = NULL, first_name = NULL,
          last_name = NULL, picture_url = NULL, public_profile = ?, erased_at = ? WHERE id = ?`,
    params: [0, erasedAt, userId],
  };
}

export function erasureRecordInsert(
  subjectHash: string,
  erasedAt: SqlDate,
  erasedBy: string,
): SqlFragment {
  return {
    sql: 'INSERT INTO erasures (subject_hash, erased_at, erased_by) VALUES (?, ?, ?)',
    params: [subjectHash, erasedAt, erasedBy],
  };
}

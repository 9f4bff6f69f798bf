import type { Dialect, SqlDate } from './dialect';
import type { SqlFragment } from './sql-fragment';

/**
 * The reads of a person's export (contract.md §14.3): one statement per table of the registry
 * that names them. Every list is read in keyset pages (`after` the last key read, `limit` rows,
 * ordered by the key), so an export holds one page in memory whatever the person's history. The
 * key is aliased `k` in every page. Never the password hash, key hashes or token hashes.
 */

/** A page of one list: rows whose key is above `after`, at most `limit`, by key. */
export type PersonalPage = (userId: number, after: number, limit: number) => SqlFragment;

/** The profile: the users row without its password hash. */
export function personalProfile(userId: number): SqlFragment {
  return {
    sql: `SELECT id, email, first_name, last_name, picture_url, public_profile,
                 can_create_private_quizzes, created_at
          FROM users WHERE id = ? AND erased_at IS NULL`,
    params: [userId],
  };
}

/** The live account an operator names by id or email, if any. */
export function personalUserLookup(by: { id: number } | { email: string }): SqlFragment {
  return 'id' in by
    ? { sql: 'SELECT id FROM users WHERE id = ? AND erased_at IS NULL', params: [by.id] }
    : { sql: 'SELECT id FROM users WHERE email = ? AND erased_at IS NULL', params: [by.email] };
}

/** How many answers the person gave (the export's size, charged by the thousand on REST). */
export function personalAnswerCount(userId: number): SqlFragment {
  return { sql: 'SELECT COUNT(*) AS n FROM answers WHERE user_id = ?', params: [userId] };
}

export const ownedGroupsPage: PersonalPage = (userId, after, limit) => ({
  sql: `SELECT g.id AS k, g.name, g.created_at,
               (SELECT COUNT(*) FROM user_group_members m WHERE m.group_id = g.id) AS nb_members
        FROM user_groups g WHERE g.owner_id = ? AND g.id > ? ORDER BY g.id LIMIT ?`,
  params: [userId, after, limit],
});

export const memberGroupsPage: PersonalPage = (userId, after, limit) => ({
  sql: `SELECT m.group_id AS k, g.name, g.owner_id
        FROM user_group_members m JOIN user_groups g ON g.id = m.group_id
        WHERE m.user_id = ? AND m.group_id > ? ORDER BY m.group_id LIMIT ?`,
  params: [userId, after, limit],
});

export const attendancesPage: PersonalPage = (userId, after, limit) => ({
  sql: `SELECT a.session_id AS k, s.title, s.start_date, a.raised_hand
        FROM session_attendees a JOIN sessions s ON s.id = a.session_id
        WHERE a.user_id = ? AND a.session_id > ? ORDER BY a.session_id LIMIT ?`,
  params: [userId, after, limit],
});

/**
 * The answers side is read first: joined from the questions, MariaDB read every answer to the
 * questions and sorted them on each page (100 ms a page of 1,000 out of 100,000).
 */
export function answersPage(dialect: Dialect): PersonalPage {
  return (userId, after, limit) => ({
    sql: `SELECT a.id AS k, a.session_id, a.quiz_id, q.position AS question_index, a.value, a.good,
                 a.answered_at
          FROM answers a ${dialect.straightJoin} questions q ON q.id = a.question_id
          WHERE a.user_id = ? AND a.id > ? ORDER BY a.id LIMIT ?`,
    params: [userId, after, limit],
  });
}

export const quizFlagsPage: PersonalPage = (userId, after, limit) => ({
  sql: `SELECT quiz_id AS k, favorite, imported FROM user_quiz_flags
        WHERE user_id = ? AND quiz_id > ? ORDER BY quiz_id LIMIT ?`,
  params: [userId, after, limit],
});

export const authoredQuizzesPage: PersonalPage = (userId, after, limit) => ({
  sql: `SELECT id AS k, title, visibility, survey, nb_questions, creation_date, last_change_date
        FROM quizzes WHERE author_id = ? AND id > ? ORDER BY id LIMIT ?`,
  params: [userId, after, limit],
});

export const ownedSessionsPage: PersonalPage = (userId, after, limit) => ({
  sql: `SELECT s.id AS k, s.title, s.start_date, s.client_ref,
               (SELECT COUNT(*) FROM session_attendees a WHERE a.session_id = s.id) AS nb_attendees
        FROM sessions s WHERE s.owner_id = ? AND s.id > ? ORDER BY s.id LIMIT ?`,
  params: [userId, after, limit],
});

/** The person's keys: no key hash (the key itself is never stored). */
export const apiKeysPage: PersonalPage = (userId, after, limit) => ({
  sql: `SELECT id AS k, key_prefix, host, label, created_at, revoked_at, last_used_at
        FROM api_keys WHERE owner_id = ? AND id > ? ORDER BY id LIMIT ?`,
  params: [userId, after, limit],
});

/** The sets the person made that have not expired at `now`. */
export function dataSetsPage(now: SqlDate): PersonalPage {
  return (userId, after, limit) => ({
    sql: `SELECT id AS k, item_type, total_number_of_items, parameters, created_at, expires_at
          FROM data_sets WHERE owner_user_id = ? AND expires_at > ? AND id > ?
          ORDER BY id LIMIT ?`,
    params: [userId, now, after, limit],
  });
}

/** The access-log entries about the person (§14.6), in the order they were written. */
export const accessLogPage: PersonalPage = (userId, after, limit) => ({
  sql: `SELECT id AS k, accessed_at, operation, requester_user_id, requester_api_key_id, request_id
        FROM access_log WHERE subject_user_id = ? AND id > ? ORDER BY id LIMIT ?`,
  params: [userId, after, limit],
});

/** A datetime as the drivers give it: a Date (mysql2, timezone Z) or SQLite's UTC text. */
export function rowDate(value: unknown): Date {
  if (value instanceof Date) return value;
  const text = String(value);
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text.replace(' ', 'T')}Z`);
}

export function rowDateOrNull(value: unknown): Date | null {
  return value === null || value === undefined ? null : rowDate(value);
}

/** A boolean column: 0/1 from both drivers (a Buffer for BIT columns, should one appear). */
export function rowBool(value: unknown): boolean {
  if (Buffer.isBuffer(value)) return value[0] === 1;
  return value === true || Number(value) === 1;
}

export function rowBoolOrNull(value: unknown): boolean | null {
  return value === null || value === undefined ? null : rowBool(value);
}

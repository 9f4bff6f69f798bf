import type { DataSource, EntityManager } from 'typeorm';
import type { QuestionRow } from '../../domain/questions/question-row.codec';
import type { QuestionType } from '../../domain/questions/question-types';
import { toNumber, type Dialect } from './dialect';
import type { SqlStatement } from './statement-batches';
import { knownUsersSql } from './access-policy.sql';

/**
 * The statements of addAnswers (contract.md §9): an answer is stored once per (session, user,
 * question), the unique key of the answers table. Whether a repeated answer replaces the stored
 * one is decided by the database in the upsert itself, row by row, so two writers sending
 * overlapping batches at once never read a value and write back a stale decision.
 */

/** One answer ready to store: scored, its value normalised to JSON text. */
export interface AnswerRow {
  userId: number;
  quizId: number;
  questionId: number;
  value: string;
  good: boolean | null;
  answeredAt: Date;
}

/** What a session is to a writer of its answers. */
export interface SessionWriteFacts {
  ownerId: number;
  quizIds: number[];
  /** Whether the requesting user attends it (false without a user). */
  requesterAttends: boolean;
}

/** The columns of an answer row, in the order the import and addAnswers write them. */
export const ANSWER_COLUMNS = [
  'session_id',
  'user_id',
  'quiz_id',
  'question_id',
  'value',
  'good',
  'answered_at',
] as const;

/**
 * SQLite accepts at most 32,766 parameters per statement: 7 per answer, so a batch of 5,000 goes
 * in statements of at most 1,000 rows. MySQL takes a batch in one statement.
 */
const SQLITE_ROWS_PER_STATEMENT = 1000;

/**
 * A different value replaces the stored one when it was given at the same time or later; the
 * same value changes nothing. Values compare as bytes: the column's collation ignores case and
 * trailing spaces, which a case-sensitive text answer does not.
 */
const MYSQL_REPLACES =
  '(VALUES(answered_at) >= answered_at AND CAST(VALUES(value) AS BINARY) <> CAST(value AS BINARY))';
const SQLITE_REPLACES =
  '(excluded.answered_at >= answers.answered_at AND excluded.value <> answers.value)';

function rowParams(dialect: Dialect, sessionId: number, rows: readonly AnswerRow[]): unknown[] {
  const params: unknown[] = [];
  for (const row of rows) {
    params.push(
      sessionId,
      row.userId,
      row.quizId,
      row.questionId,
      row.value,
      dialect.bool(row.good),
      dialect.date(row.answeredAt),
    );
  }
  return params;
}

/**
 * The upserts of a batch, rows in key order (every writer then locks the rows it shares with
 * another in the same order, so overlapping batches wait for each other instead of deadlocking).
 */
export function upsertAnswers(
  dialect: Dialect,
  sessionId: number,
  rows: readonly AnswerRow[],
): SqlStatement[] {
  const sorted = [...rows].sort((a, b) => a.userId - b.userId || a.questionId - b.questionId);
  if (dialect.name === 'mysql') {
    // MySQL assigns left to right and later assignments see earlier ones: `good` and
    // `answered_at` are decided first, while the stored value is still the one to compare with;
    // after them the condition still gives the same answer (answered_at is then the incoming one).
    const condition = MYSQL_REPLACES;
    return [
      {
        sql: `${dialect.insertRows('answers', ANSWER_COLUMNS, sorted.length)}
          ON DUPLICATE KEY UPDATE
            good = IF(${condition}, VALUES(good), good),
            answered_at = IF(${condition}, VALUES(answered_at), answered_at),
            value = IF(${condition}, VALUES(value), value)`,
        params: rowParams(dialect, sessionId, sorted),
      },
    ];
  }
  const statements: SqlStatement[] = [];
  for (let start = 0; start < sorted.length; start += SQLITE_ROWS_PER_STATEMENT) {
    const chunk = sorted.slice(start, start + SQLITE_ROWS_PER_STATEMENT);
    statements.push({
      sql: `${dialect.insertRows('answers', ANSWER_COLUMNS, chunk.length)}
        ON CONFLICT (session_id, user_id, question_id) DO UPDATE SET
          value = excluded.value, good = excluded.good, answered_at = excluded.answered_at
        WHERE ${SQLITE_REPLACES}`,
      params: rowParams(dialect, sessionId, chunk),
    });
  }
  return statements;
}

/** Makes users attendees of a session; those already attending are left as they are. */
export function addAttendees(
  dialect: Dialect,
  sessionId: number,
  userIds: readonly number[],
): SqlStatement {
  const insert = dialect.insertRows('session_attendees', ['session_id', 'user_id'], userIds.length);
  const params = [...userIds].sort((a, b) => a - b).flatMap((userId) => [sessionId, userId]);
  return dialect.name === 'mysql'
    ? { sql: insert.replace(/^INSERT/, 'INSERT IGNORE'), params }
    : { sql: `${insert} ON CONFLICT DO NOTHING`, params };
}

/** Inserted, updated and left unchanged among the rows of an upsert. */
export interface UpsertCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

/**
 * The counts of a MySQL upsert of `rows` rows, from what the server reports. On the batch
 * connections (no FOUND_ROWS client flag) affected rows count 1 per insert, 2 per update and 0
 * per row left as it was, and a multi-row statement reports its updates as `Duplicates`; for a
 * single row the affected count alone tells which it was.
 */
export function mysqlUpsertCounts(result: unknown, rows: number): UpsertCounts {
  const header = result as { affectedRows?: unknown; info?: unknown };
  const affected = toNumber(header.affectedRows);
  const match = /Duplicates:\s*(\d+)/.exec(String(header.info ?? ''));
  const updated = match ? Number(match[1]) : rows === 1 && affected === 2 ? 1 : 0;
  const inserted = affected - 2 * updated;
  const unchanged = rows - inserted - updated;
  if (inserted < 0 || unchanged < 0 || (!match && rows > 1)) {
    throw new Error(
      `the upsert reported ${affected} affected rows for ${rows} rows (${String(header.info)})`,
    );
  }
  return { inserted, updated, unchanged };
}

/** How many answers a session holds (SQLite counts inserts as the difference). */
export async function countSessionAnswers(
  manager: EntityManager,
  sessionId: number,
): Promise<number> {
  const [row] = (await manager.query('SELECT COUNT(*) AS n FROM answers WHERE session_id = ?', [
    sessionId,
  ])) as { n: unknown }[];
  return toNumber(row?.n);
}

/** The rows the last statement of this SQLite connection changed. */
export async function sqliteChanges(manager: EntityManager): Promise<number> {
  const [row] = (await manager.query('SELECT changes() AS n')) as { n: unknown }[];
  return toNumber(row?.n);
}

/** The session's owner, its quizzes and whether `userId` attends it; null when it does not exist. */
export async function readSessionWriteFacts(
  handle: DataSource,
  sessionId: number,
  userId: number | null,
): Promise<SessionWriteFacts | null> {
  const rows = (await handle.query(
    `SELECT s.owner_id, q.quiz_id,
            (SELECT COUNT(*) FROM session_attendees a WHERE a.session_id = s.id AND a.user_id = ?) AS attends
       FROM sessions s LEFT JOIN session_quizzes q ON q.session_id = s.id
      WHERE s.id = ?`,
    [userId ?? 0, sessionId],
  )) as { owner_id: unknown; quiz_id: unknown; attends: unknown }[];
  const [first] = rows;
  if (!first) return null;
  return {
    ownerId: toNumber(first.owner_id),
    quizIds: rows.filter((row) => row.quiz_id !== null).map((row) => toNumber(row.quiz_id)),
    requesterAttends: toNumber(first.attends) > 0,
  };
}

/** Which of `userIds` attend the session: one read by its primary key. */
export async function sessionAttendeeIds(
  handle: DataSource,
  dialect: Dialect,
  sessionId: number,
  userIds: readonly number[],
): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = (await handle.query(
    `SELECT user_id AS id FROM session_attendees
      WHERE session_id = ? AND user_id IN (${dialect.placeholders(userIds.length)})`,
    [sessionId, ...userIds],
  )) as { id: unknown }[];
  return new Set(rows.map((row) => toNumber(row.id)));
}

/**
 * Which of `userIds` are known to `requesterId` (contract.md §4): attendees of a session they
 * own or members of a group they own. One indexed read whatever the batch's size; an id that
 * names no user is simply not among them, so unknown and unnamed ids read alike.
 */
export async function knownUserIds(
  handle: DataSource,
  dialect: Dialect,
  requesterId: number,
  userIds: readonly number[],
): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const query = knownUsersSql(dialect, requesterId, userIds);
  const rows = (await handle.query(query.sql, query.params)) as { id: unknown }[];
  return new Set(rows.map((row) => toNumber(row.id)));
}

/** A question a batch of answers may answer: its id, its quiz and its stored form. */
export interface SessionQuestion extends QuestionRow {
  id: number;
  quizId: number;
}

const text = (value: unknown): string | null => (value === null ? null : String(value));

/**
 * The questions of those of `quizIds` that the session plays, by quiz and position. It needs
 * nothing the session's own facts give, so it runs beside that read; the join keeps it to the
 * session's quizzes, so a batch naming other quizzes reads nothing of theirs.
 */
export async function readSessionQuestions(
  handle: DataSource,
  dialect: Dialect,
  sessionId: number,
  quizIds: readonly number[],
): Promise<SessionQuestion[]> {
  if (quizIds.length === 0) return [];
  const rows = (await handle.query(
    `SELECT q.id, q.quiz_id, q.position, q.type, q.title, q.media_type, q.media_url,
            q.propositions, q.good_answer, q.tolerance, q.case_sensitive
       FROM questions q
       JOIN session_quizzes sq ON sq.quiz_id = q.quiz_id AND sq.session_id = ?
      WHERE q.quiz_id IN (${dialect.placeholders(quizIds.length)})
      ORDER BY q.quiz_id, q.position`,
    [sessionId, ...quizIds],
  )) as Record<string, unknown>[];
  return rows.map((row) => ({
    id: toNumber(row.id),
    quizId: toNumber(row.quiz_id),
    position: toNumber(row.position),
    type: String(row.type) as QuestionType,
    title: String(row.title),
    mediaType: text(row.media_type) as QuestionRow['mediaType'],
    mediaUrl: text(row.media_url),
    propositions: text(row.propositions),
    goodAnswer: text(row.good_answer),
    tolerance: row.tolerance === null ? null : toNumber(row.tolerance),
    caseSensitive: row.case_sensitive === null ? null : toNumber(row.case_sensitive) !== 0,
  }));
}

import type { AttemptScope, GroupScope, QuizScope } from '../../domain/policy/access.policy';
import { attemptScopeSql, groupScopeSql, quizScopeSql } from './access-policy.sql';
import type { Dialect } from './dialect';
import type { SqlFragment } from './sql-fragment';

/**
 * The SELECTs of `id` that getQuizSet, getUserSet and getUserGroupSet store (contract.md §6),
 * from filters the services have checked: each filter given is one condition, all ANDed, in the
 * order of the fields below.
 */

/** A datetime interval: its end excluded (a day given alone) or not. */
export interface DateIntervalFilter {
  from: Date;
  to: Date;
  toExclusive: boolean;
}

/** getQuizSet's checked filters; absent fields are not given. */
export interface QuizSetFilterValues {
  /** Each word must occur somewhere in the quiz (keywordCondition). */
  keywords?: readonly string[];
  quizId?: number;
  /** One tag, matched whole (case-insensitive). */
  tag?: string;
  author?: number;
  /** A pupil who attended a session that played the quiz, read within `seen`. */
  player?: { userId: number; seen: AttemptScope };
  sessionId?: number;
  creationDate?: DateIntervalFilter;
  modificationDate?: DateIntervalFilter;
}

/** getUserSet's checked filters; absent fields are not given. */
export interface UserSetFilterValues {
  userId?: number;
  /** The attendees of a session; `raisedHand` null: all of them. */
  session?: { sessionId: number; raisedHand: boolean | null };
  /** Users who attended a session that played the quiz, read within `seen`. */
  quiz?: { quizId: number; seen: AttemptScope };
  /** The members of the groups of that userGroup set. */
  userGroupSetId?: number;
}

/** Each word must be somewhere in the quiz: title, a tag, author's first or last name, a question title or its propositions (JSON text). */
function keywordCondition(dialect: Dialect, word: string): SqlFragment {
  const pattern = dialect.likeContains(word);
  return {
    sql: `(q.title LIKE ? ${dialect.likeEscape}
       OR EXISTS (SELECT 1 FROM quiz_tags kt
                   WHERE kt.quiz_id = q.id AND kt.tag LIKE ? ${dialect.likeEscape})
       OR EXISTS (SELECT 1 FROM users ku
                   WHERE ku.id = q.author_id
                     AND (ku.first_name LIKE ? ${dialect.likeEscape} OR ku.last_name LIKE ? ${dialect.likeEscape}))
       OR EXISTS (SELECT 1 FROM questions kq
                   WHERE kq.quiz_id = q.id
                     AND (kq.title LIKE ? ${dialect.likeEscape} OR kq.propositions LIKE ? ${dialect.likeEscape})))`,
    params: [pattern, pattern, pattern, pattern, pattern, pattern],
  };
}

function intervalCondition(
  dialect: Dialect,
  column: string,
  interval: DateIntervalFilter,
): SqlFragment {
  return {
    sql: `(${column} >= ? AND ${column} ${interval.toExclusive ? '<' : '<='} ?)`,
    params: [dialect.date(interval.from), dialect.date(interval.to)],
  };
}

/** The conditions of the quiz filters given, in field order. */
function quizConditions(dialect: Dialect, filters: QuizSetFilterValues): SqlFragment[] {
  const conditions: SqlFragment[] = [];
  if (filters.keywords) {
    conditions.push(...filters.keywords.map((word) => keywordCondition(dialect, word)));
  }
  if (filters.quizId !== undefined) conditions.push({ sql: 'q.id = ?', params: [filters.quizId] });
  if (filters.tag !== undefined) {
    // LIKE without wildcards: equality that is case-insensitive on every dialect.
    conditions.push({
      sql: `q.id IN (SELECT t.quiz_id FROM quiz_tags t WHERE t.tag LIKE ? ${dialect.likeEscape})`,
      params: [dialect.likeLiteral(filters.tag)],
    });
  }
  if (filters.author !== undefined) {
    conditions.push({ sql: 'q.author_id = ?', params: [filters.author] });
  }
  if (filters.player) {
    const seen = attemptScopeSql(filters.player.seen, 'pa');
    conditions.push({
      sql: `q.id IN (SELECT pq.quiz_id FROM session_quizzes pq
                       JOIN session_attendees pa ON pa.session_id = pq.session_id
                      WHERE pa.user_id = ?${seen ? ` AND ${seen.sql}` : ''})`,
      params: [filters.player.userId, ...(seen?.params ?? [])],
    });
  }
  if (filters.sessionId !== undefined) {
    conditions.push({
      sql: 'q.id IN (SELECT sq.quiz_id FROM session_quizzes sq WHERE sq.session_id = ?)',
      params: [filters.sessionId],
    });
  }
  if (filters.creationDate) {
    conditions.push(intervalCondition(dialect, 'q.creation_date', filters.creationDate));
  }
  if (filters.modificationDate) {
    conditions.push(intervalCondition(dialect, 'q.last_change_date', filters.modificationDate));
  }
  return conditions;
}

/** The quizzes within `scope` matching ALL the filters given (the service requires one), as a SELECT of `id`. */
export function quizSetSelectSql(
  dialect: Dialect,
  scope: QuizScope,
  filters: QuizSetFilterValues,
): SqlFragment {
  const where = [quizScopeSql(scope, 'q'), ...quizConditions(dialect, filters)];
  return {
    sql: `SELECT q.id AS id FROM quizzes q WHERE ${where.map((c) => c.sql).join(' AND ')}`,
    params: where.flatMap((c) => c.params),
  };
}

/** The conditions of the user filters given, in field order. */
function userConditions(filters: UserSetFilterValues): SqlFragment[] {
  const conditions: SqlFragment[] = [];
  if (filters.userId !== undefined) conditions.push({ sql: 'u.id = ?', params: [filters.userId] });
  if (filters.session) {
    const { sessionId, raisedHand } = filters.session;
    conditions.push(
      raisedHand !== null
        ? {
            sql: `u.id IN (SELECT a.user_id FROM session_attendees a
                            WHERE a.session_id = ? AND a.raised_hand = ?)`,
            params: [sessionId, raisedHand ? 1 : 0],
          }
        : {
            sql: 'u.id IN (SELECT a.user_id FROM session_attendees a WHERE a.session_id = ?)',
            params: [sessionId],
          },
    );
  }
  if (filters.quiz) {
    const seen = attemptScopeSql(filters.quiz.seen, 'pa');
    conditions.push({
      sql: `u.id IN (SELECT pa.user_id FROM session_attendees pa
                       JOIN session_quizzes pq ON pq.session_id = pa.session_id
                      WHERE pq.quiz_id = ?${seen ? ` AND ${seen.sql}` : ''})`,
      params: [filters.quiz.quizId, ...(seen?.params ?? [])],
    });
  }
  if (filters.userGroupSetId !== undefined) {
    conditions.push({
      sql: `u.id IN (SELECT gm.user_id FROM data_set_items gd
                       JOIN user_group_members gm ON gm.group_id = gd.item_id
                      WHERE gd.data_set_id = ?)`,
      params: [filters.userGroupSetId],
    });
  }
  return conditions;
}

/**
 * The users matching ALL the filters given (the service requires one), as a SELECT of `id`. An
 * erased person's tombstone is no one: no set lists it (contract.md §14.4).
 */
export function userSetSelectSql(filters: UserSetFilterValues): SqlFragment {
  const conditions = userConditions(filters);
  return {
    sql: `SELECT u.id AS id FROM users u WHERE ${conditions.map((c) => c.sql).join(' AND ')} AND u.erased_at IS NULL`,
    params: conditions.flatMap((c) => c.params),
  };
}

/**
 * The groups within `scope`, those whose name starts with `search` (case-insensitive) when
 * given, as a SELECT of `id`.
 */
export function userGroupSetSelectSql(
  dialect: Dialect,
  scope: GroupScope,
  search: string | undefined,
): SqlFragment {
  const conditions: SqlFragment[] = [groupScopeSql(scope, 'g')];
  if (search !== undefined) {
    conditions.push({
      sql: `g.name LIKE ? ${dialect.likeEscape}`,
      params: [dialect.likePrefix(search)],
    });
  }
  return {
    sql: `SELECT g.id AS id FROM user_groups g WHERE ${conditions.map((c) => c.sql).join(' AND ')}`,
    params: conditions.flatMap((c) => c.params),
  };
}

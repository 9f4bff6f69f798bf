import type { AttemptScope, GroupScope, QuizScope } from '../../domain/policy/access.policy';
import type { Dialect } from './dialect';

/**
 * The access policy's scopes and facts as SQL: the one place where `access.policy.ts` is
 * rewritten for the database. Each form is held to the pure policy on random data by
 * test/integration/access-policy-sql.contract.test.ts.
 */

/** A WHERE fragment and its `?` parameters, in placeholder order. */
export interface PolicyCondition {
  sql: string;
  params: (string | number)[];
}

/** The quizzes (alias `quiz`) a requester may list: quizScope as a condition. */
export function quizScopeSql(scope: QuizScope, quiz: string): PolicyCondition {
  if (scope.kind === 'all') return { sql: '1 = 1', params: [] };
  if (scope.kind === 'public') return { sql: `${quiz}.visibility = ?`, params: ['public'] };
  return {
    sql: `(${quiz}.visibility = ? OR ${quiz}.author_id = ?
           OR (${quiz}.visibility = ? AND ${quiz}.id IN (
                 SELECT vq.quiz_id FROM session_quizzes vq
                   JOIN session_attendees va ON va.session_id = vq.session_id
                  WHERE va.user_id = ?)))`,
    params: ['public', scope.userId, 'private', scope.userId],
  };
}

/** The groups (alias `group`) a requester may list: groupScope as a condition. */
export function groupScopeSql(scope: GroupScope, group: string): PolicyCondition {
  if (scope.kind === 'all') return { sql: '1 = 1', params: [] };
  return {
    sql: `(${group}.owner_id = ?
           OR ${group}.id IN (SELECT m.group_id FROM user_group_members m WHERE m.user_id = ?))`,
    params: [scope.userId, scope.userId],
  };
}

/**
 * The attempts (rows of alias `row` with session_id and user_id) detailed results may show:
 * detailedAttemptScope as a condition; undefined when every attempt may be shown.
 */
export function attemptScopeSql(scope: AttemptScope, row: string): PolicyCondition | undefined {
  if (scope.kind === 'all') return undefined;
  if (scope.kind === 'none') return { sql: '1 = 0', params: [] };
  // A probe of the row's own session by primary key: `IN (SELECT … WHERE owner_id = ?)` copied
  // every session of the owner into a temporary table on each statement.
  return {
    sql: `(${row}.user_id = ?
           OR EXISTS (SELECT 1 FROM sessions s WHERE s.id = ${row}.session_id AND s.owner_id = ?))`,
    params: [scope.userId, scope.userId],
  };
}

/** A statement selecting the column `id` of the listed ids that have a fact. */
export interface FactQuery {
  sql: string;
  params: number[];
}

/** UserFacts.authorOfPublicQuiz: which of the users author a public quiz. */
export function publicAuthorsSql(dialect: Dialect, userIds: readonly number[]): FactQuery {
  return {
    sql: `SELECT DISTINCT author_id AS id FROM quizzes
           WHERE visibility = 'public' AND author_id IN (${dialect.placeholders(userIds.length)})`,
    params: [...userIds],
  };
}

/**
 * UserFacts.knownToRequester: which of the users attended a session the requester owns or are
 * members of a group the requester owns.
 */
export function knownUsersSql(
  dialect: Dialect,
  requesterId: number,
  userIds: readonly number[],
): FactQuery {
  const marks = dialect.placeholders(userIds.length);
  return {
    sql: `SELECT a.user_id AS id FROM session_attendees a JOIN sessions s ON s.id = a.session_id
           WHERE s.owner_id = ? AND a.user_id IN (${marks})
          UNION
          SELECT m.user_id AS id FROM user_group_members m JOIN user_groups g ON g.id = m.group_id
           WHERE g.owner_id = ? AND m.user_id IN (${marks})`,
    params: [requesterId, ...userIds, requesterId, ...userIds],
  };
}

/** QuizFacts.playedInAttendedSession: which of the quizzes were played in a session the requester attended. */
export function attendedQuizzesSql(
  dialect: Dialect,
  requesterId: number,
  quizIds: readonly number[],
): FactQuery {
  return {
    sql: `SELECT DISTINCT q.quiz_id AS id FROM session_quizzes q
            JOIN session_attendees a ON a.session_id = q.session_id
           WHERE a.user_id = ? AND q.quiz_id IN (${dialect.placeholders(quizIds.length)})`,
    params: [requesterId, ...quizIds],
  };
}

/** The requesterAttended fact of seesSessionDetails: which of the sessions the requester attended. */
export function attendedSessionsSql(
  dialect: Dialect,
  requesterId: number,
  sessionIds: readonly number[],
): FactQuery {
  return {
    sql: `SELECT session_id AS id FROM session_attendees
           WHERE user_id = ? AND session_id IN (${dialect.placeholders(sessionIds.length)})`,
    params: [requesterId, ...sessionIds],
  };
}

import type { AttemptScope } from '../../domain/policy/access.policy';
import {
  ATTEMPT_MEASURES,
  readsQuiz,
  resultTypeDefinition,
  valueSql,
  type AttemptMeasure,
  type AttemptMeasureName,
} from '../../domain/results/result-types.registry';
import type { ResultsOptions, ResultsRequest } from '../../domain/results/results-request';
import { attemptScopeSql } from './access-policy.sql';
import type { Dialect } from './dialect';
import { storedMembers, type MemberSource } from './member-sources.sql';
import type { SqlFragment, SqlParam } from './sql-fragment';

/**
 * The stages every results query starts with (CTEs), built from the result type registry:
 * - `attempts`: answers of the user set's users on the quiz set's quizzes (optionally in the
 *   given sessions), grouped by (user, quiz, session) — read from the covering answer indexes,
 *   the two sets as semi-joins; only the measures the result types read;
 * - `all_attempts`: plus, for includeQuizzes=all, a zero attempt (session NULL) for each
 *   (user, quiz) pair of the two sets without an attempt (in the given sessions) the requester
 *   may see (every attempt under the scope `all`);
 * - `valued`: one DOUBLE per result type, named as its computed_results column; percentiles by
 *   window functions over each quiz, so over every real attempt, seen or not, and the zeros;
 *   scores null on surveys (domain/results/result-types.registry.ts).
 * A requester who sees nothing (scope `none`: an anonymous requester's aggregates) gets no row
 * at all, real or zero, and no answer is read.
 * The two sets are stored sets (getResults) or SELECTs of ids (a session's attendees and quizzes,
 * for live results): see member-sources.sql.ts.
 */

/** The user set and the quiz set results are computed over. */
export interface ResultsSets {
  users: MemberSource;
  quizzes: MemberSource;
}

/** The two stored sets a getResults request names. */
export function storedSets(request: Pick<ResultsRequest, 'userSetId' | 'quizSetId'>): ResultsSets {
  return { users: storedMembers(request.userSetId), quizzes: storedMembers(request.quizSetId) };
}

/** The answers' (alias `a`) sessions restricted to the request's, when it names some. */
export function sessionFilter(
  dialect: Dialect,
  request: Pick<ResultsOptions, 'sessionIds'>,
): SqlFragment {
  if (!request.sessionIds) return { sql: '', params: [] };
  return {
    sql: ` AND a.session_id IN (${dialect.placeholders(request.sessionIds.length)})`,
    params: [...request.sessionIds],
  };
}

/** The measures the request's result types read, in registry order. */
function measuresOf(request: ResultsOptions): AttemptMeasure[] {
  const needed = new Set<AttemptMeasureName>(
    request.resultTypes.flatMap((type) => resultTypeDefinition(type).measures),
  );
  return (Object.keys(ATTEMPT_MEASURES) as AttemptMeasureName[])
    .filter((name) => needed.has(name))
    .map((name) => ATTEMPT_MEASURES[name]);
}

/**
 * `WITH …` down to `valued`: one row per attempt (real, or zero for includeQuizzes=all) with the
 * columns user_id, quiz_id, session_id and one DOUBLE per requested result type. Every real
 * attempt of the request is there, seen or not (percentiles rank among them all); a zero is
 * added for each pair of the two sets without an attempt that `scope` lets the requester see.
 * Under the scope `none` there is no row.
 */
export function valuedStages(
  dialect: Dialect,
  request: ResultsOptions,
  sets: ResultsSets,
  scope: AttemptScope,
): SqlFragment {
  const sessions = sessionFilter(dialect, request);
  const users = sets.users.ids('us');
  const quizzes = sets.quizzes.ids('qs');
  const params: SqlParam[] = [...users.params, ...quizzes.params, ...sessions.params];
  // Only the measures the result types read: MIN and MAX of the answer times nearly double the
  // pass over the answers.
  const measures = measuresOf(request);
  const names = measures.map((measure) => measure.column).join(', ');
  // Real attempts: the answers are read by ranges of a covering index (ix_answers_user_quiz or
  // ix_answers_quiz_user, per user or per quiz of a set); the sets are semi-joins, which the
  // database materializes once and probes by hash, where a join probed the data_set_items index
  // once per answer (3.5x slower over 200,000 answers on MariaDB).
  let sql = `WITH attempts AS (
  SELECT a.user_id AS user_id, a.quiz_id AS quiz_id, a.session_id AS session_id,
         ${measures.map((measure) => `${measure.sql(dialect)} AS ${measure.column}`).join(',\n         ')}
    FROM answers a
   WHERE a.user_id IN (${users.sql})
     AND a.quiz_id IN (${quizzes.sql})${sessions.sql}${scope.kind === 'none' ? '\n     AND 1 = 0' : ''}
   GROUP BY a.user_id, a.quiz_id, a.session_id
), all_attempts AS (
  SELECT user_id, quiz_id, session_id, ${names} FROM attempts`;
  if (request.includeQuizzes === 'all' && scope.kind !== 'none') {
    // One probe of a covering answer index per pair, rather than a second pass over the attempts.
    // Detailed results (contract §7) add a zero where the requester sees no attempt, even if an
    // unseen one exists: the zeros then tell nothing of other owners' sessions.
    const seen = attemptScopeSql(scope, 'a');
    const seenSql = seen ? `\n                        AND ${seen.sql}` : '';
    const userRows = sets.users.rows('us');
    const quizRows = sets.quizzes.rows('qs');
    sql += `
  UNION ALL
  SELECT us.item_id, qs.item_id, NULL, ${measures.map((measure) => measure.zero).join(', ')}
    FROM ${userRows.table.sql}
    JOIN ${quizRows.table.sql} ON ${quizRows.where?.sql ?? '1 = 1'}
   WHERE ${userRows.where?.sql ?? '1 = 1'}
     AND NOT EXISTS (SELECT 1 FROM answers a
                      WHERE a.user_id = us.item_id AND a.quiz_id = qs.item_id${sessions.sql}${seenSql})`;
    params.push(
      ...userRows.table.params,
      ...quizRows.table.params,
      ...(quizRows.where?.params ?? []),
      ...(userRows.where?.params ?? []),
      ...sessions.params,
    );
    if (seen) params.push(...seen.params);
  }
  const types = request.resultTypes.map(resultTypeDefinition);
  const joinsQuiz = types.some(readsQuiz);
  sql += `
), valued AS (
  SELECT t.user_id AS user_id, t.quiz_id AS quiz_id, t.session_id AS session_id,
         ${types.map((type) => `${valueSql(type, dialect)} AS ${type.column}`).join(',\n         ')}
    FROM all_attempts t${joinsQuiz ? '\n    JOIN quizzes q ON q.id = t.quiz_id' : ''}
)`;
  return { sql, params };
}

import type { AttemptScope } from '../../domain/policy/access.policy';
import {
  AGGREGATIONS,
  aggregationDefinition,
  type AggregationDefinition,
  type AggregationFunction,
} from '../../domain/results/aggregation-functions.registry';
import {
  resultTypeDefinition,
  type ResultTypeDefinition,
} from '../../domain/results/result-types.registry';
import type { ResultsOptions, ResultsRequest } from '../../domain/results/results-request';
import { attemptScopeSql } from './access-policy.sql';
import type { Dialect } from './dialect';
import { storedSets, valuedStages, type ResultsSets } from './result-attempts.sql';
import { roundedSql } from './rounding.sql';
import { selectColumn, selectStatement, type QueryColumn, type RowsQuery } from './rows-query.sql';
import type { SqlFragment, SqlParam } from './sql-fragment';

/**
 * The query that computes results inside the database (contract.md §7), from the registries of
 * result types and aggregation functions (src/domain/results): one SELECT that runs on its own
 * (selectResults), or that the set store writes into a computedResult set (INSERT … SELECT, see
 * services/sets/data-set.store.ts).
 * Dialects differ only where their SQL does (ctx.db.dialect): whole-second datetime differences
 * and integer division.
 *
 * Its rows have the columns of computed_results: position (1..n, the set's order), user_id,
 * quiz_id, session_id, aggregation_function, and one value per requested result type. After the
 * stages of result-attempts.sql.ts:
 * - detailed: the attempts the requester may see and every zero;
 * - aggregated: one row per (group, function) over exactly those rows (the requester scope,
 *   contract.md §7), every member of the grouping set included, medians and deviations by
 *   window functions.
 * Every value is rounded once, by roundedSql, as it leaves the query.
 */

function idColumns(userId: string, quizId: string, sessionId: string, fn: string): QueryColumn[] {
  return [
    { name: 'user_id', sql: userId },
    { name: 'quiz_id', sql: quizId },
    { name: 'session_id', sql: sessionId },
    { name: 'aggregation_function', sql: fn },
  ];
}

/**
 * Detailed results: every attempt the scope lets the requester see, and every zero attempt
 * (session NULL): those stand for pairs without a visible attempt, so they are the requester's
 * to see. Percentiles were computed over all the attempts first: a visible attempt ranks among
 * all its quiz's attempts, seen or not, and the zeros.
 */
function detailedQuery(
  dialect: Dialect,
  request: ResultsOptions,
  sets: ResultsSets,
  scope: AttemptScope,
): RowsQuery {
  const seen = visibleRows(scope);
  return {
    with: valuedStages(dialect, request, sets, scope),
    columns: [
      { name: 'position', sql: 'ROW_NUMBER() OVER (ORDER BY v.user_id, v.quiz_id, v.session_id)' },
      ...idColumns('v.user_id', 'v.quiz_id', 'v.session_id', 'NULL'),
      ...request.resultTypes.map(resultTypeDefinition).map((type) => ({
        name: type.column,
        sql: roundedSql(dialect, `v.${type.column}`),
      })),
    ],
    from: seen
      ? { sql: `  FROM valued v\n WHERE ${seen.sql}`, params: seen.params }
      : { sql: '  FROM valued v', params: [] },
    orderBy: 'position',
  };
}

/**
 * The rows of `valued v` the scope lets the requester see, as a condition (undefined: all): its
 * attempts and every zero. A real attempt always has a session: NULL marks the zeros.
 */
function visibleRows(scope: AttemptScope): SqlFragment | undefined {
  const seen = attemptScopeSql(scope, 'v');
  return seen && { sql: `(v.session_id IS NULL OR ${seen.sql})`, params: seen.params };
}

/** The value of one function over a group's rows in `ranked`, for the type's column `index`. */
function aggregateSql(fn: AggregationDefinition, type: ResultTypeDefinition, index: number) {
  const special = type.aggregate?.[fn.name as AggregationFunction];
  return special ? special(`r.${type.column}`) : fn.sql(`r.${type.column}`, index);
}

/**
 * Aggregated results: one row per (member of the grouping set, function), members without any
 * attempt included (null values, or the function's empty value), ordered by member then by the
 * functions' order. They aggregate exactly the rows detailed results would show under `scope`
 * (contract.md §7): the attempts in scope, ranked among all, and the zeros of pairs without a
 * visible attempt; under `all` every attempt (zeros only for pairs without any), under `none`
 * nothing.
 */
function aggregatedQuery(
  dialect: Dialect,
  request: ResultsOptions,
  sets: ResultsSets,
  scope: AttemptScope,
): RowsQuery {
  const aggregation = request.aggregation;
  if (!aggregation) throw new Error('aggregatedQuery needs aggregation functions');
  const valued = valuedStages(dialect, request, sets, scope);
  const seen = visibleRows(scope);
  const key = aggregation.groupBy === 'user' ? 'user_id' : 'quiz_id';
  const group = (aggregation.groupBy === 'user' ? sets.users : sets.quizzes).rows('g');
  const types = request.resultTypes.map(resultTypeDefinition);
  const functions = aggregation.functions.map(aggregationDefinition);
  // The window columns the functions read, once each, in registry order.
  const windows = AGGREGATIONS.filter((fn) => functions.includes(fn)).flatMap((fn) =>
    types.flatMap((type, index) => fn.windows?.(key, type.column, index) ?? []),
  );
  const stats = functions.flatMap((fn) =>
    types.map((type, index) => `${aggregateSql(fn, type, index)} AS ${fn.name}_${index}`),
  );
  // A member without attempts has no `stats` row: null values, or the function's empty value.
  const value = (fn: AggregationDefinition, index: number) =>
    fn.empty === undefined
      ? `s.${fn.name}_${index}`
      : `COALESCE(s.${fn.name}_${index}, ${fn.empty})`;
  const userId = aggregation.groupBy === 'user' ? 'g.item_id' : 'NULL';
  const quizId = aggregation.groupBy === 'quiz' ? 'g.item_id' : 'NULL';
  // Rows come member by member in the grouping set's order (its positions number its ids in
  // order), then function by function: a position is computed, not sorted for.
  let position: string;
  let name: string;
  let valueOf: (index: number) => string;
  let crossJoin = '';
  if (functions.length === 1) {
    const [fn] = functions as [AggregationDefinition];
    position = 'g.position';
    name = `'${fn.name}'`;
    valueOf = (index) => value(fn, index);
  } else {
    // Function positions as a derived table of numbers only: no string literal fixes a column width.
    const order = functions.map((_fn, index) => `SELECT ${index + 1} AS ord`).join(' UNION ALL ');
    const byOrd = (each: (fn: AggregationDefinition) => string) =>
      `CASE f.ord ${functions.map((fn, index) => `WHEN ${index + 1} THEN ${each(fn)}`).join(' ')} END`;
    position = `(g.position - 1) * ${functions.length} + f.ord`;
    name = byOrd((fn) => `'${fn.name}'`);
    valueOf = (index) => byOrd((fn) => value(fn, index));
    crossJoin = `\n  CROSS JOIN (${order}) f`;
  }
  // `stats` is grouped, hence materialized before the outer join: MariaDB null-extends a merged
  // derived table's expressions wrongly (a CASE … ELSE 0 would read 0 for a missing member).
  const ranked = [...types.map((type) => `v.${type.column} AS ${type.column}`), ...windows];
  return {
    with: {
      sql: `${valued.sql}, ranked AS (
  SELECT v.${key} AS gk, ${ranked.join(',\n         ')}
    FROM valued v${seen ? `\n   WHERE ${seen.sql}` : ''}
), stats AS (
  SELECT r.gk AS gk, ${stats.join(',\n         ')}
    FROM ranked r
   GROUP BY r.gk
)`,
      params: [...valued.params, ...(seen?.params ?? [])],
    },
    columns: [
      { name: 'position', sql: position },
      ...idColumns(userId, quizId, 'NULL', name),
      ...types.map((type, index) => ({
        name: type.column,
        sql: roundedSql(dialect, valueOf(index)),
      })),
    ],
    from: {
      sql: `  FROM ${group.table.sql}
  LEFT JOIN stats s ON s.gk = g.item_id${crossJoin}${group.where ? `\n WHERE ${group.where.sql}` : ''}`,
      params: [...group.table.params, ...(group.where?.params ?? [])] as SqlParam[],
    },
    orderBy: 'position',
  };
}

/**
 * The results of `options` over the two sets as a query. `scope` is the attempts the requester
 * may see (resultsScope): those detailed results show, with their zeros, and aggregates count.
 */
export function resultsQueryOver(
  options: ResultsOptions,
  sets: ResultsSets,
  dialect: Dialect,
  scope: AttemptScope,
): RowsQuery {
  return options.aggregation
    ? aggregatedQuery(dialect, options, sets, scope)
    : detailedQuery(dialect, options, sets, scope);
}

/** The results of `request` over the two stored sets it names, as a query. */
export function resultsQuery(
  request: ResultsRequest,
  dialect: Dialect,
  scope: AttemptScope,
): RowsQuery {
  return resultsQueryOver(request, storedSets(request), dialect, scope);
}

/** The results of `request` as one SELECT that runs on its own, rows in position order. */
export function selectResults(
  request: ResultsRequest,
  dialect: Dialect,
  scope: AttemptScope,
): SqlFragment {
  return selectStatement(resultsQuery(request, dialect, scope));
}

/**
 * The results of `options` over two sets that need not be stored (member-sources.sql.ts), as one
 * SELECT that runs on its own: nothing is written.
 */
export function selectResultsOver(
  options: ResultsOptions,
  sets: ResultsSets,
  dialect: Dialect,
  scope: AttemptScope,
): SqlFragment {
  return selectStatement(resultsQueryOver(options, sets, dialect, scope));
}

/**
 * The users the rows of selectResultsOver name, as a SELECT of `subject_user_id`: the pupils a
 * read of those results concerns (its access-log subjects, contract.md §14.6).
 */
export function resultsSubjectsOver(
  options: ResultsOptions,
  sets: ResultsSets,
  dialect: Dialect,
  scope: AttemptScope,
): SqlFragment {
  return selectColumn(
    resultsQueryOver(options, sets, dialect, scope),
    'user_id',
    'subject_user_id',
  );
}

/** The floor (the same rows by a hand-written SELECT), the service's statement alone, and their comparison. */
import fs from 'node:fs';
import path from 'node:path';
import type mysql from 'mysql2/promise';
import { dialectNamed } from '../../src/db/sql/dialect';
import type { SqlFragment } from '../../src/db/sql/sql-fragment';
import { membersInsert } from '../../src/services/sets/data-set.store';
// membersInsert finds each kind's members table in the registry of set kinds.
import '../../src/services/set-kinds/set-kinds.registry';
import type { ResultsRequest } from '../../src/services/results/result-parameters';
import { resultsQuery } from '../../src/db/sql/results.sql';
import { RESULT_TYPES, timed, type Case } from './results-bench.config';
import { aggregationOf, type ServicePage } from './results-bench.requests';

/**
 * Attempts of the user set on the quiz set (user, quiz, session, good answers), each with its
 * percentile among the attempts on its quiz: 100 × (below + tied/2) / all. Surveys have no score
 * (contract.md §7): both null on a survey quiz, which the averages then ignore.
 */
export const FLOOR_VALUED = `
  SELECT t.user_id, t.quiz_id, t.session_id,
         CASE WHEN q.survey = 1 THEN NULL ELSE t.nb_good END AS nb_good,
         CASE WHEN q.survey = 1 THEN NULL
              ELSE 100 * (RANK() OVER (PARTITION BY t.quiz_id ORDER BY t.nb_good) - 1
                          + COUNT(*) OVER (PARTITION BY t.quiz_id, t.nb_good) / 2)
                       / COUNT(*) OVER (PARTITION BY t.quiz_id) END AS pct
    FROM (SELECT a.user_id, a.quiz_id, a.session_id, COALESCE(SUM(a.good), 0) AS nb_good
            FROM answers a
           WHERE a.user_id IN (SELECT item_id FROM data_set_items WHERE data_set_id = ?)
             AND a.quiz_id IN (SELECT item_id FROM data_set_items WHERE data_set_id = ?)
           GROUP BY a.user_id, a.quiz_id, a.session_id) t
    JOIN quizzes q ON q.id = t.quiz_id`;

export function floorStatement(c: Case, requesterId: number): { sql: string; params: number[] } {
  const sets = [c.userSetId, c.quizSetId];
  if (c.shape === 'detailed') {
    return {
      sql: `SELECT v.user_id, v.quiz_id, v.session_id,
                   ROUND(v.nb_good, 2) AS nbGoodAnswers, ROUND(v.pct, 2) AS percentile
              FROM (${FLOOR_VALUED}) v
             WHERE v.session_id IN (SELECT s.id FROM sessions s WHERE s.owner_id = ?)
                OR v.user_id = ?
             ORDER BY v.user_id, v.quiz_id, v.session_id`,
      params: [...sets, requesterId, requesterId],
    };
  }
  const key = c.shape === 'byUser' ? 'user_id' : 'quiz_id';
  return {
    sql: `SELECT g.item_id AS ${key}, 'average' AS aggregation_function,
                 ROUND(AVG(v.nb_good), 2) AS nbGoodAnswers, ROUND(AVG(v.pct), 2) AS percentile
            FROM data_set_items g
            LEFT JOIN (${FLOOR_VALUED}) v ON v.${key} = g.item_id
           WHERE g.data_set_id = ?
           GROUP BY g.item_id
           ORDER BY g.item_id`,
    params: [...sets, c.shape === 'byUser' ? c.userSetId : c.quizSetId],
  };
}

export async function floorRun(
  conn: mysql.Connection,
  c: Case,
  requesterId: number,
): Promise<mysql.RowDataPacket[]> {
  const { sql, params } = floorStatement(c, requesterId);
  const [rows] = await conn.query<mysql.RowDataPacket[]>(sql, params);
  return rows;
}

/** The service's own statement alone, rolled back (not timed): how much of a request is the SQL. */
export function serviceRequest(c: Case): ResultsRequest {
  const aggregation = aggregationOf(c.shape);
  return {
    userSetId: c.userSetId,
    quizSetId: c.quizSetId,
    resultTypes: [...RESULT_TYPES],
    aggregation: aggregation
      ? { functions: ['average'], groupBy: aggregation.groupBy as 'user' | 'quiz' }
      : null,
    includeQuizzes: 'answered',
    sessionIds: null,
  };
}

export const SCRATCH_SET_ID = 2_000_000_000;

/** The INSERT … SELECT the service runs for a case: its results query, as the set store writes it. */
export function resultsInsertStatement(c: Case, requesterId: number): SqlFragment {
  const query = resultsQuery(serviceRequest(c), dialectNamed('mysql'), {
    kind: 'ownedSessionsOrSelf',
    userId: requesterId,
  });
  return membersInsert('computedResult', SCRATCH_SET_ID, query);
}

export type StatementOf = (c: Case, requesterId: number) => SqlFragment;

/**
 * The same INSERT … SELECT as the compared build (BENCH_COMPARE_JS, `<build>/src/main.js`) writes
 * it, from its own compiled modules (they find their packages through a node_modules beside the
 * build): its statement alone against this build's, free of the noise of HTTP.
 */
export async function comparedInsertStatement(compareJs: string): Promise<StatementOf> {
  const src = path.dirname(compareJs);
  // The results query moved into db/sql; a build from before the move has it in services/results.
  const resultsJs = ['db/sql/results.sql.js', 'services/results/results.sql.js']
    .map((file) => path.join(src, file))
    .find((file) => fs.existsSync(file));
  const results = (await import(
    resultsJs ?? path.join(src, 'db/sql/results.sql.js')
  )) as typeof import('../../src/db/sql/results.sql');
  // The set engine moved into services/sets, its kinds registered by services/set-kinds; a build
  // from before the move has it in services/data-sets, kinds and all.
  const registryJs = path.join(src, 'services/set-kinds/set-kinds.registry.js');
  const moved = fs.existsSync(registryJs);
  if (moved) await import(registryJs);
  const store = (await import(
    path.join(
      src,
      moved ? 'services/sets/data-set.store.js' : 'services/data-sets/data-set.store.js',
    )
  )) as typeof import('../../src/services/sets/data-set.store');
  // The dialect moved into db/sql; a build from before the move has it in db/.
  const dialectJs = ['db/sql/dialect.js', 'db/dialect.js']
    .map((file) => path.join(src, file))
    .find((file) => fs.existsSync(file));
  const dialects = (await import(
    dialectJs ?? path.join(src, 'db/sql/dialect.js')
  )) as typeof import('../../src/db/sql/dialect');
  return (c, requesterId) =>
    store.membersInsert(
      'computedResult',
      SCRATCH_SET_ID,
      results.resultsQuery(serviceRequest(c), dialects.dialectNamed('mysql'), {
        kind: 'ownedSessionsOrSelf',
        userId: requesterId,
      }),
    );
}

export async function stmtRun(
  conn: mysql.Connection,
  c: Case,
  requesterId: number,
  statement: StatementOf = resultsInsertStatement,
): Promise<number> {
  const { sql, params } = statement(c, requesterId);
  // As the service runs it: READ COMMITTED, so that reading the answers takes no locks.
  await conn.query('SET TRANSACTION ISOLATION LEVEL READ COMMITTED');
  await conn.query('START TRANSACTION');
  try {
    const { ms } = await timed(() => conn.query(sql, params));
    return ms;
  } finally {
    await conn.query('ROLLBACK');
  }
}

/** The first page of the service against the floor's first rows: the same computation? */
export function compare(
  c: Case,
  page: ServicePage,
  floor: mysql.RowDataPacket[],
): string | undefined {
  if (page.totalNumberOfItems !== floor.length) {
    return `service ${page.totalNumberOfItems} items, floor ${floor.length} rows`;
  }
  const close = (a: unknown, b: unknown) =>
    a === null || b === null || a === undefined ? a == b : Math.abs(Number(a) - Number(b)) < 0.011;
  for (const [i, item] of page.items.entries()) {
    const row = floor[i] as mysql.RowDataPacket;
    const ids =
      c.shape === 'detailed'
        ? [
            [item.userId, row.user_id],
            [item.quizId, row.quiz_id],
            [item.sessionId, row.session_id],
          ]
        : c.shape === 'byUser'
          ? [[item.userId, row.user_id]]
          : [[item.quizId, row.quiz_id]];
    for (const [a, b] of ids) {
      if (String(a) !== String(b)) return `item ${i + 1}: id ${String(a)} vs ${String(b)}`;
    }
    if (!close(item.nbGoodAnswers, row.nbGoodAnswers) || !close(item.percentile, row.percentile)) {
      return `item ${i + 1}: values ${item.nbGoodAnswers}/${item.percentile} vs ${row.nbGoodAnswers}/${row.percentile}`;
    }
  }
  return undefined;
}

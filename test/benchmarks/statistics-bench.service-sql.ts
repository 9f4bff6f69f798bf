/**
 * The service's own item analysis statements, run alone through mysql2 (rolled back): how much
 * of a request is the SQL. And their EXPLAIN at the measured case.
 */
import type mysql from 'mysql2/promise';
import { dialectNamed } from '../../src/db/sql/dialect';
import type { SqlFragment } from '../../src/db/sql/sql-fragment';
import { membersInsert } from '../../src/services/sets/data-set.store';
// membersInsert finds each kind's members table in the registry of set kinds.
import '../../src/services/set-kinds/set-kinds.registry';
import { storedSets } from '../../src/db/sql/result-attempts.sql';
import {
  questionStatisticsQuery,
  quizStatisticsQuery,
  type StatisticsRequest,
} from '../../src/db/sql/statistics.sql';
import { timed } from './results-bench.config';
import { printExplain, type ExplainRow } from './results-bench.explain';
import { SCRATCH_SET_ID } from './results-bench.floor';
import { SURVEY_MIN_RESPONSES } from './statistics-bench.floor';
import { OPERATION_NAME } from './statistics-bench.requests';
import type { StatisticsCase, StatisticsOperation } from './statistics-bench.floor';

function serviceRequest(c: StatisticsCase, requesterId: number): StatisticsRequest {
  return {
    sets: storedSets(c),
    sessionIds: null,
    // What an authenticated user's request counts: its sessions' attempts and its own.
    scope: { kind: 'ownedSessionsOrSelf', userId: requesterId },
    // As the service process runs (it inherits the bench's environment).
    surveyMinResponses: SURVEY_MIN_RESPONSES,
  };
}

/** The INSERT … SELECT statement the service runs for an operation, as its set store writes it. */
export function statisticsInsertStatements(
  operation: StatisticsOperation,
  c: StatisticsCase,
  requesterId: number,
): SqlFragment[] {
  const dialect = dialectNamed('mysql');
  const request = serviceRequest(c, requesterId);
  return [
    operation === 'question'
      ? membersInsert(
          'questionStatistic',
          SCRATCH_SET_ID,
          questionStatisticsQuery(dialect, request),
        )
      : membersInsert('quizStatistic', SCRATCH_SET_ID, quizStatisticsQuery(dialect, request)),
  ];
}

/** The statements alone, timed together inside one transaction, rolled back. */
export async function statisticsStmtRun(
  conn: mysql.Connection,
  operation: StatisticsOperation,
  c: StatisticsCase,
  requesterId: number,
): Promise<number> {
  const statements = statisticsInsertStatements(operation, c, requesterId);
  // As the service runs them: READ COMMITTED, so that reading the answers takes no locks.
  await conn.query('SET TRANSACTION ISOLATION LEVEL READ COMMITTED');
  await conn.query('START TRANSACTION');
  try {
    const { ms } = await timed(async () => {
      for (const { sql, params } of statements) await conn.query(sql, params);
    });
    return ms;
  } finally {
    await conn.query('ROLLBACK');
  }
}

/** EXPLAIN of each statement of both operations; true when answers is read through an index. */
export async function explainStatistics(
  conn: mysql.Connection,
  c: StatisticsCase,
  requesterId: number,
  label: string,
): Promise<boolean> {
  let ok = true;
  const question = statisticsInsertStatements('question', c, requesterId)[0] as SqlFragment;
  const quiz = statisticsInsertStatements('quiz', c, requesterId)[0] as SqlFragment;
  const explained: [string, SqlFragment][] = [
    [`${OPERATION_NAME.question} (INSERT INTO question_statistics … SELECT)`, question],
    [`${OPERATION_NAME.quiz} (INSERT INTO quiz_statistics … SELECT)`, quiz],
  ];
  for (const [title, { sql, params }] of explained) {
    const [rows] = await conn.query<mysql.RowDataPacket[]>(`EXPLAIN ${sql}`, params);
    ok = printExplain(`EXPLAIN service ${title}, ${label}:`, rows as ExplainRow[]) && ok;
  }
  return ok;
}

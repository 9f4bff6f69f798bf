import type { DataSource } from 'typeorm';
import { generateData } from '../../src/data/generate/synthetic-data';
import { loadData } from '../../src/data/import/bulk-loader';
import { createDataSet, getPage } from '../../src/services/sets/data-set.service';
import type { ResultRow } from '../../src/services/sets/data-set.types';
import { computedResultItems } from '../../src/services/results/computed-result.views';
import { parseResultsRequest } from '../../src/services/results/result-parameters';
import { RESULT_TYPES } from '../../src/domain/results/result-types.registry';
import { getResults, resultsScope } from '../../src/services/results/results.service';
import { selectResults } from '../../src/db/sql/results.sql';
import { BACKENDS, openBackend } from '../helpers/database';
import { serviceContext } from '../helpers/service-context';

/**
 * Results computed apart from storing them: the SELECT built from the result type registry runs
 * on its own, writes nothing, and gives the rows a stored set of the same request pages through
 * (the same numbers, in the same order), on each database.
 */
describe.each(BACKENDS)('results as a SELECT of their own on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let teacherId: number;
  let sessionIds: number[];

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'results_select'));
    const generated = generateData({
      users: 30,
      quizzes: 6,
      questions: 7,
      sessions: 5,
      participation: 0.5,
      seed: 13,
    });
    await loadData(dataSource, generated.source);
    const sessions = (await dataSource.query('SELECT id, owner_id FROM sessions ORDER BY id')) as {
      id: unknown;
      owner_id: unknown;
    }[];
    teacherId = Number(sessions[0]?.owner_id);
    sessionIds = sessions.slice(0, 2).map((row) => Number(row.id));
  });

  afterAll(async () => {
    await close();
  });

  function context() {
    return serviceContext(dataSource, 'getResults', {
      kind: 'user',
      apiKeyId: 1,
      userId: teacherId,
    });
  }

  async function storedRows(raw: Record<string, string>): Promise<{
    rows: ResultRow[];
    parameters: string | null;
  }> {
    const ctx = context();
    const first = await getResults(ctx, { ...raw, numberOfItemsPerPage: '7' });
    const rows = [...first.resultRows];
    for (let index = 2; index <= first.numberOfPages; index += 1) {
      rows.push(...(await getPage(ctx, first.dataSetId, index)).resultRows);
    }
    expect(rows).toHaveLength(first.totalNumberOfItems);
    return { rows, parameters: first.parameters };
  }

  async function storedCount(): Promise<number> {
    const [row] = (await dataSource.query('SELECT COUNT(*) AS n FROM computed_results')) as {
      n: unknown;
    }[];
    return Number(row?.n);
  }

  const every = RESULT_TYPES.join(',');
  const cases: Record<string, string>[] = [
    ...RESULT_TYPES.map((resultTypes) => ({ resultTypes })),
    { resultTypes: every, includeQuizzes: 'all' },
    { resultTypes: 'percentile,duration', sessionIds: 'SESSIONS' },
    { resultTypes: every, aggregationFunctions: 'average', groupBy: 'user' },
    {
      resultTypes: every,
      aggregationFunctions: 'min,max,average,median,stddev,count',
      groupBy: 'quiz',
      includeQuizzes: 'all',
    },
    {
      resultTypes: 'goodAnswersPercent,nbAnswers',
      aggregationFunctions: 'median,count',
      groupBy: 'user',
      sessionIds: 'SESSIONS',
    },
  ];

  it.each(cases)('gives the rows of the stored set for %j', async (shape) => {
    const ctx = context();
    const users = await createDataSet(ctx, 'user', 'SELECT id FROM users', []);
    const quizzes = await createDataSet(ctx, 'quiz', 'SELECT id FROM quizzes', []);
    const raw = {
      ...shape,
      ...(shape.sessionIds ? { sessionIds: sessionIds.join(',') } : {}),
      userSetId: String(users.dataSetId),
      quizSetId: String(quizzes.dataSetId),
    };
    const stored = await storedRows(raw);
    expect(stored.rows.length).toBeGreaterThan(0);

    const request = parseResultsRequest(ctx.operation, raw);
    const statement = selectResults(request, ctx.db.dialect, resultsScope(ctx, request));
    expect(statement.sql).not.toMatch(/\b(INSERT|computed_results)\b/i);
    const before = await storedCount();
    const selected = (await dataSource.query(statement.sql, statement.params)) as ResultRow[];
    expect(await storedCount()).toBe(before);

    // Compared as the views show them: ids, the set's result types in order, the same numbers.
    const view = (rows: ResultRow[]) =>
      computedResultItems({ resultRows: rows, parameters: stored.parameters });
    expect(view(selected)).toEqual(view(stored.rows));
    expect(selected.map((row) => Number(row.position))).toEqual(
      stored.rows.map((_row, index) => index + 1),
    );
  });
});

import type { RequestContext } from '../../app/request-context';
import type { DataSet } from '../../db/entities/data-set.entity';
import {
  detailedAttemptScope,
  resultsDecision,
  type AttemptScope,
} from '../../domain/policy/access.policy';
import { Errors } from '../../errors';
import {
  createDataSetWith,
  pageOf,
  requireReadableDataSet,
  type DataSetPage,
} from '../data-sets/data-set.service';
import { parsePageSize } from '../data-sets/data-set.params';
import { toNumber } from '../data-sets/data-set.sql';
import {
  parseResultsRequest,
  resultsParametersJson,
  type RawResultsParams,
} from './result-parameters';
import { resultsInsertStatement, type SqlFamily } from './results.sql';

export type { RawResultsParams } from './result-parameters';

export function sqlFamily(ctx: Pick<RequestContext, 'dataSource'>): SqlFamily {
  const type = ctx.dataSource.options.type;
  return type === 'mysql' || type === 'mariadb' ? 'mysql' : 'sqlite';
}

/** One of the requester's sets, and of the item type the parameter names. */
async function requireSetOf(
  ctx: RequestContext,
  id: number,
  parameterName: 'userSetId' | 'quizSetId',
  itemType: 'user' | 'quiz',
): Promise<DataSet> {
  const set = await requireReadableDataSet(ctx, id, parameterName);
  if (set.itemType !== itemType) {
    throw Errors.badParameter(
      ctx.operation,
      parameterName,
      String(id),
      `is a set of ${set.itemType} items, not of ${itemType} items`,
    );
  }
  return set;
}

/**
 * getResults (contract.md §7): the results of a user set on a quiz set, computed by the database
 * into a new computedResult set owned by the requester; returns its first page.
 *
 * Parameters come raw from either transport and are all checked here (see parseResultsRequest).
 * Detailed results (no aggregationFunctions) need a token and show only the attempts in
 * sessions the requester owns and the requester's own attempts; a zero attempt of
 * includeQuizzes=all (sessionId null) belongs to no session, so only its user sees it.
 * Percentiles always rank an attempt among all the attempts of the user set on its quiz, seen or
 * not. Aggregated results are open to anonymous requesters and cover every attempt.
 */
export async function getResults(ctx: RequestContext, raw: RawResultsParams): Promise<DataSetPage> {
  const request = parseResultsRequest(ctx.operation, raw);
  // Checked before any read, so a refused request touches nothing.
  parsePageSize(ctx.operation, raw.numberOfItemsPerPage, ctx.config.pageSize);
  const detailed = request.aggregation === null;
  // Aggregated results cover every attempt; the scope only narrows detailed ones.
  let scope: AttemptScope = { kind: 'all' };
  if (detailed) {
    const allowed = detailedAttemptScope(ctx.requester);
    if (resultsDecision(ctx.requester, detailed) === 'needsToken' || !allowed) {
      throw Errors.unauthenticated(ctx.operation, 'detailed results need an access token');
    }
    scope = allowed;
  }
  await requireSetOf(ctx, request.userSetId, 'userSetId', 'user');
  await requireSetOf(ctx, request.quizSetId, 'quizSetId', 'quiz');
  const family = sqlFamily(ctx);
  const set = await createDataSetWith(
    ctx,
    'computedResult',
    async (runner, dataSetId) => {
      const { sql, params } = resultsInsertStatement(family, request, dataSetId, scope);
      const result = await runner.query(sql, params, true);
      if (typeof result.affected === 'number') return result.affected;
      const rows = (await runner.query(
        'SELECT MAX(position) AS n FROM data_set_items WHERE data_set_id = ?',
        [dataSetId],
      )) as { n: unknown }[];
      return toNumber(rows[0]?.n);
    },
    {
      numberOfItemsPerPage: raw.numberOfItemsPerPage,
      parameters: resultsParametersJson(request),
    },
  );
  return pageOf(ctx, set, 1);
}

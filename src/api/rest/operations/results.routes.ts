import type { RequestContext } from '../../../context/request-context';
import { dataSetPageView } from '../../../services/data-sets/data-set.views';
import { getResults, type RawResultsParams } from '../../../services/results/results.service';
import { optionalString } from '../params';
import type { QueryParams, RestOperation } from '../rest-operation';
import { serializeDataSetPage } from '../serializers/data-set.serializer';

/**
 * getResults over REST. The handler only picks the parameters, each given at most once, as
 * text: list parameters stay comma-separated and the service checks every value, so GraphQL
 * refuses the same inputs alike.
 */

const RESULTS_PARAMETERS = [
  'userSetId',
  'quizSetId',
  'resultTypes',
  'aggregationFunctions',
  'groupBy',
  'sessionIds',
  'sessionId',
  'includeQuizzes',
  'numberOfItemsPerPage',
] as const satisfies readonly (keyof RawResultsParams)[];

function pickResultsParams(ctx: RequestContext, params: QueryParams): RawResultsParams {
  const picked: RawResultsParams = {};
  for (const name of RESULTS_PARAMETERS) {
    const value = optionalString(ctx.operation, params, name);
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}

export const getResultsOperation: RestOperation = {
  name: 'getResults',
  methods: ['GET'],
  handler: async (ctx, params) =>
    serializeDataSetPage(
      await dataSetPageView(ctx, await getResults(ctx, pickResultsParams(ctx, params))),
    ),
};

/** The results operation: getResults. */
export const RESULT_OPERATIONS: readonly RestOperation[] = [getResultsOperation];

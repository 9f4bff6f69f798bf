import type { RequestContext } from '../../../context/request-context';
import {
  computeDataSet,
  getPage,
  type DataSetPage,
} from '../../../services/data-sets/data-set.service';
import { dataSetPageView } from '../../../services/data-sets/data-set.views';
import {
  getQuizSet,
  QUIZ_SET_FILTERS,
  type QuizSetFilters,
} from '../../../services/data-sets/quiz-set.service';
import {
  getUserGroupSet,
  getUserSet,
  type UserSetFilters,
} from '../../../services/data-sets/user-set.service';
import { optionalString } from '../params';
import type { QueryParams, RestOperation } from '../rest-operation';
import { serializeDataSetPage } from '../serializers/data-set.serializer';

/**
 * The operations that make and page data sets. Handlers only pick the parameters out of the
 * query string: the services check every value, so GraphQL refuses the same inputs alike.
 */

/** The named parameters, each given at most once (a repeated one is a BadParameterException). */
function pick<K extends string>(
  ctx: RequestContext,
  params: QueryParams,
  names: readonly K[],
): Partial<Record<K, string>> {
  const picked: Partial<Record<K, string>> = {};
  for (const name of names) {
    const value = optionalString(ctx.operation, params, name);
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}

function pageSize(ctx: RequestContext, params: QueryParams) {
  return { numberOfItemsPerPage: optionalString(ctx.operation, params, 'numberOfItemsPerPage') };
}

async function respond(ctx: RequestContext, page: DataSetPage) {
  return serializeDataSetPage(await dataSetPageView(ctx, page));
}

const USER_SET_PARAMETERS = [
  'userId',
  'userGroupSetId',
  'sessionId',
  'raisedHand',
  'quizId',
] as const satisfies readonly (keyof UserSetFilters)[];

export const getQuizSetOperation: RestOperation = {
  name: 'getQuizSet',
  methods: ['GET'],
  handler: async (ctx, params) => {
    const filters: QuizSetFilters = pick(ctx, params, QUIZ_SET_FILTERS);
    return respond(ctx, await getQuizSet(ctx, filters, pageSize(ctx, params)));
  },
};

export const getUserSetOperation: RestOperation = {
  name: 'getUserSet',
  methods: ['GET'],
  handler: async (ctx, params) => {
    const filters: UserSetFilters = pick(ctx, params, USER_SET_PARAMETERS);
    return respond(ctx, await getUserSet(ctx, filters, pageSize(ctx, params)));
  },
};

export const getUserGroupSetOperation: RestOperation = {
  name: 'getUserGroupSet',
  methods: ['GET'],
  handler: async (ctx, params) =>
    respond(ctx, await getUserGroupSet(ctx, pick(ctx, params, ['search']), pageSize(ctx, params))),
};

export const getDataSetPageOperation: RestOperation = {
  name: 'getDataSetPage',
  methods: ['GET'],
  handler: async (ctx, params) => {
    const { dataSetId, pageIndex } = pick(ctx, params, ['dataSetId', 'pageIndex']);
    return respond(ctx, await getPage(ctx, dataSetId, pageIndex));
  },
};

export const computeDataSetOperation: RestOperation = {
  name: 'computeDataSet',
  methods: ['GET'],
  handler: async (ctx, params) => {
    const { dataSetId1, dataSetId2, operator } = pick(ctx, params, [
      'dataSetId1',
      'dataSetId2',
      'operator',
    ]);
    return respond(
      ctx,
      await computeDataSet(ctx, dataSetId1, dataSetId2, operator, pageSize(ctx, params)),
    );
  },
};

/** Operations that make and page data sets: getQuizSet, getUserSet, getUserGroupSet, getDataSetPage, computeDataSet. */
export const DATA_SET_OPERATIONS: readonly RestOperation[] = [
  getQuizSetOperation,
  getUserSetOperation,
  getUserGroupSetOperation,
  getDataSetPageOperation,
  computeDataSetOperation,
];

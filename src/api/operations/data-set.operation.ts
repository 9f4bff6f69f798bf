import type { RequestContext } from '../../context/request-context';
import {
  computeDataSet,
  DATA_SET_OPERATORS,
  getPage,
  type DataSetPage,
} from '../../services/sets/data-set.service';
import { dataSetPageView, type DataSetPageView } from '../../services/set-kinds/data-set.views';
import { getQuizSet } from '../../services/data-sets/quiz-set.service';
import { getUserGroupSet, getUserSet } from '../../services/data-sets/user-set.service';
import type { DataSetItemType } from '../../domain/data-sets/item-types';
import { pageSchemaName } from './shapes/openapi.page-schemas';
import { getDataSetRange, type DataSetRange } from '../../services/sets/data-set-items.service';
import { MAX_ITEMS_PER_PAGE } from '../../services/sets/data-set.params';
import { serializeDataSetPage } from './shapes/data-set.serializer';
import { READ, SET } from './operation-costs';
import { defineOperation, type RestBinding } from './operation-definition';
import {
  booleanParameter,
  choiceParameter,
  idParameter,
  integerParameter,
  INTERVAL_SCHEMA,
  pageSizeParameter,
  textParameter,
} from './operation-parameters';

/** Every set operation answers with the page as the requester may see its items. */
export const DATA_SET_PAGE: RestBinding<DataSetPageView> = {
  methods: ['GET'],
  response: 'DataSetPage',
  serialize: serializeDataSetPage,
};

/** A set-making operation's page: the same JSON, its OpenAPI schema typing its items. */
export function pageOf(itemType: DataSetItemType): RestBinding<DataSetPageView> {
  return { ...DATA_SET_PAGE, response: pageSchemaName(itemType) };
}

/** The view of a page the service made or read. */
export async function pageView(
  ctx: RequestContext,
  page: Promise<DataSetPage>,
): Promise<DataSetPageView> {
  return dataSetPageView(ctx, await page);
}

export const getQuizSetOperation = defineOperation({
  name: 'getQuizSet',
  description:
    'Makes the set of quizzes matching all the given filters (at least one) and returns its first page.',
  graphQL: 'query',
  rest: pageOf('quiz'),
  token: 'optional',
  cost: SET,
  parameters: [
    textParameter(
      'keywords',
      'words matched in title, tags, author name, question titles and propositions',
    ),
    idParameter('quizId', 'one quiz', 'quiz id'),
    textParameter('tag', 'quizzes with this tag'),
    idParameter('author', 'quizzes by this user', 'user id'),
    idParameter('player', 'quizzes played in a session this user attended', 'user id'),
    idParameter('sessionId', 'quizzes played in this session', 'session id'),
    textParameter('creationDate', 'creation date interval', INTERVAL_SCHEMA),
    textParameter('modificationDate', 'last change date interval', INTERVAL_SCHEMA),
    pageSizeParameter,
  ],
  run: (ctx, { numberOfItemsPerPage, ...filters }) =>
    pageView(ctx, getQuizSet(ctx, filters, { numberOfItemsPerPage })),
});

export const getUserSetOperation = defineOperation({
  name: 'getUserSet',
  description:
    'Makes the set of users matching all the given filters (at least one) and returns its first page.',
  graphQL: 'query',
  rest: pageOf('user'),
  token: 'optional',
  cost: SET,
  parameters: [
    idParameter('userId', 'one user', 'user id'),
    idParameter('userGroupSetId', 'members of the groups of this data set', 'data set id'),
    idParameter('sessionId', 'attendees of this session', 'session id'),
    booleanParameter('raisedHand', 'with sessionId: attendees who raised their hand (or not)'),
    idParameter('quizId', 'users who attended a session that played this quiz', 'quiz id'),
    pageSizeParameter,
  ],
  run: (ctx, { numberOfItemsPerPage, ...filters }) =>
    pageView(ctx, getUserSet(ctx, filters, { numberOfItemsPerPage })),
});

export const getUserGroupSetOperation = defineOperation({
  name: 'getUserGroupSet',
  description:
    'Makes the set of the groups the requester owns or belongs to and returns its first page.',
  graphQL: 'query',
  rest: pageOf('userGroup'),
  token: 'required',
  cost: SET,
  parameters: [textParameter('search', 'name prefix'), pageSizeParameter],
  run: (ctx, { numberOfItemsPerPage, search }) =>
    pageView(ctx, getUserGroupSet(ctx, { search }, { numberOfItemsPerPage })),
});

export const getDataSetPageOperation = defineOperation({
  name: 'getDataSetPage',
  description: 'One page of a data set the requester made.',
  graphQL: 'query',
  rest: DATA_SET_PAGE,
  token: 'optional',
  cost: READ,
  parameters: [
    idParameter('dataSetId', 'the set', 'data set id', { required: true }),
    integerParameter('pageIndex', '1 to numberOfPages (default 1)', { minimum: 1 }),
  ],
  run: (ctx, { dataSetId, pageIndex }) => pageView(ctx, getPage(ctx, dataSetId, pageIndex)),
});

export const computeDataSetOperation = defineOperation({
  name: 'computeDataSet',
  description:
    'Combines two sets of the requester of the same item type into a new set; returns its first page.',
  graphQL: 'query',
  rest: DATA_SET_PAGE,
  token: 'optional',
  cost: SET,
  parameters: [
    idParameter('dataSetId1', 'first set', 'data set id', { required: true }),
    idParameter('dataSetId2', 'second set', 'data set id', { required: true }),
    choiceParameter(
      'operator',
      'union, intersection or difference',
      DATA_SET_OPERATORS,
      'SetOperator',
      { required: true },
    ),
    pageSizeParameter,
  ],
  run: (ctx, { dataSetId1, dataSetId2, operator, numberOfItemsPerPage }) =>
    pageView(ctx, computeDataSet(ctx, dataSetId1, dataSetId2, operator, { numberOfItemsPerPage })),
});

/** What getDataSetItems answers: a run of a set's items, each with its position. */
export interface DataSetItemsView {
  page: DataSetPageView;
  /** The position of each of page.items in the set. */
  positions: number[];
  /** Whether items come before the first one given (positions from 1). */
  hasPreviousPage: boolean;
  hasNextPage: boolean;
}

/** The positions of a range's items as the view shows them (some may be left out). */
function itemPositions(range: DataSetRange, page: DataSetPageView): number[] {
  if (range.page.itemIds.length === 0) {
    // Computed items: their id is their position.
    return page.items.map((item) => (item as { id: number }).id);
  }
  const byId = new Map(range.page.itemIds.map((id, index) => [id, range.positions[index]]));
  return page.items.map((item) => byId.get((item as { id: number }).id) as number);
}

export const getDataSetItemsOperation = defineOperation({
  name: 'getDataSetItems',
  description:
    'The items of a data set the requester made, as a Relay connection over its stored order: `first` items (0 to 1000, default 50) after the cursor `after`.',
  graphQL: 'query',
  token: 'optional',
  cost: READ,
  parameters: [
    idParameter('dataSetId', 'the set', 'data set id', { required: true }),
    integerParameter('first', 'how many items, 0 to 1000 (default 50)', {
      minimum: 0,
      maximum: MAX_ITEMS_PER_PAGE,
    }),
    textParameter('after', 'the cursor of the item to start after (endCursor of the last call)'),
  ],
  run: async (ctx, { dataSetId, first, after }): Promise<DataSetItemsView> => {
    const range = await getDataSetRange(ctx, dataSetId, first, after);
    const page = await dataSetPageView(ctx, range.page);
    return {
      page,
      positions: itemPositions(range, page),
      hasPreviousPage: range.firstPosition > 1,
      hasNextPage: range.hasNextPage,
    };
  },
});

/** The sets' operations: listing, paging, set algebra. */
export const DATA_SET_OPERATIONS = {
  getQuizSet: getQuizSetOperation,
  getUserSet: getUserSetOperation,
  getUserGroupSet: getUserGroupSetOperation,
  getDataSetPage: getDataSetPageOperation,
  getDataSetItems: getDataSetItemsOperation,
  computeDataSet: computeDataSetOperation,
} as const;

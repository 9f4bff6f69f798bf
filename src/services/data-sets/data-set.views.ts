import type { RequestContext } from '../../context/request-context';
import { readableQuizzes } from '../quizzes/quiz.service';
import { quizView, type QuizView } from '../quizzes/quiz.views';
import { userView, type UserView } from '../users/user.views';
import type { DataSetItemType } from '../../domain/data-sets/item-types';
import type { DataSetPage, ResultRow } from './data-set.types';
import { toNumber } from '../../db/sql/dialect';
import { storedResultsShape, type StoredResultsShape } from '../results/result-parameters';
import { resultTypeDefinition, type ResultType } from '../results/result-types.registry';
import {
  questionStatisticItems,
  quizStatisticItems,
  type QuestionStatisticView,
  type QuizStatisticView,
} from '../statistics/statistics.views';

export type { QuestionStatisticView, QuizStatisticView } from '../statistics/statistics.views';

/**
 * The items of a page as the requester may see them, for both transports: the view column of
 * the data set kinds (data-set.kinds.ts), one entry per item type. Every read is batched over
 * the whole page, so a page costs the same number of statements at any size.
 */

export interface UserGroupView {
  id: number;
  name: string;
  nbMembers: number;
}

export { RESULT_TYPES, type ResultType } from '../results/result-parameters';

/** One computed result; `shape` says which of userId / quizId / sessionId it carries. */
export interface ComputedResultView {
  /** Unique within its set: its position. */
  id: number;
  shape: 'detailed' | 'byUser' | 'byQuiz';
  userId: number | null;
  quizId: number | null;
  sessionId: number | null;
  aggregationFunction: string | null;
  /** One value per requested result type, in the requested order. */
  values: { type: ResultType; value: number | null }[];
}

type PageMeta = Omit<DataSetPage, 'itemType' | 'itemIds' | 'resultRows' | 'parameters'>;

export type DataSetPageView =
  | (PageMeta & { itemType: 'user'; items: UserView[] })
  | (PageMeta & { itemType: 'quiz'; items: QuizView[] })
  | (PageMeta & { itemType: 'userGroup'; items: UserGroupView[] })
  | (PageMeta & { itemType: 'computedResult'; items: ComputedResultView[] })
  | (PageMeta & { itemType: 'questionStatistic'; items: QuestionStatisticView[] })
  | (PageMeta & { itemType: 'quizStatistic'; items: QuizStatisticView[] });

/** Users: the id always, details where the policy allows (userView). */
export function userItems(ctx: RequestContext, ids: readonly number[]): Promise<UserView[]> {
  return Promise.all(ids.map((id) => userView(ctx, id)));
}

/**
 * Quizzes, loaded together. A quiz deleted since the set was made is left out, and so is one
 * the requester may no longer read (made private or draft since): access wins over stability.
 */
export async function quizItems(ctx: RequestContext, ids: readonly number[]): Promise<QuizView[]> {
  return Promise.all((await readableQuizzes(ctx, ids)).map((quiz) => quizView(ctx, quiz)));
}

/** Groups with their member counts, in one statement; a group deleted since is left out. */
export async function userGroupItems(
  ctx: RequestContext,
  ids: readonly number[],
): Promise<UserGroupView[]> {
  if (ids.length === 0) return [];
  const rows = await ctx.loaders.reader.rows<{ id: unknown; name: string; nb: unknown }>(
    `SELECT g.id AS id, g.name AS name,
            (SELECT COUNT(*) FROM user_group_members m WHERE m.group_id = g.id) AS nb
       FROM user_groups g WHERE g.id IN (${ctx.db.dialect.placeholders(ids.length)})`,
    [...ids],
  );
  const byId = new Map(
    rows.map((row) => [
      toNumber(row.id),
      { id: toNumber(row.id), name: row.name, nbMembers: toNumber(row.nb) },
    ]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * Computed results of the page (its rows were read with it), shaped by what the set was asked
 * for (data_sets.parameters, see resultsParametersJson): the requested result types in their
 * order, and detailed or grouped by user or quiz. Without readable parameters: nbGoodAnswers,
 * grouping read from the row.
 */
export function computedResultItems(
  page: Pick<DataSetPage, 'resultRows' | 'parameters'>,
): ComputedResultView[] {
  return resultRowItems(page.resultRows, storedResultsShape(page.parameters));
}

/**
 * Rows of the results query (stored, or selected on their own) as computed results of `stored`'s
 * shape; without one, nbGoodAnswers, grouping read from each row.
 */
export function resultRowItems(
  rows: readonly ResultRow[],
  stored: StoredResultsShape | undefined,
): ComputedResultView[] {
  const resultTypes: ResultType[] = stored?.resultTypes ?? ['nbGoodAnswers'];
  const numberOrNull = (value: unknown) =>
    value === null || value === undefined ? null : toNumber(value);
  return rows.map((row) => {
    const aggregationFunction =
      typeof row.aggregation_function === 'string' ? row.aggregation_function : null;
    const userId = numberOrNull(row.user_id);
    const groupBy = stored
      ? stored.groupBy
      : aggregationFunction === null
        ? null
        : userId !== null
          ? 'user'
          : 'quiz';
    const shape = groupBy === null ? 'detailed' : groupBy === 'user' ? 'byUser' : 'byQuiz';
    return {
      // Unique within the set: its position.
      id: toNumber(row.position),
      shape,
      userId,
      quizId: numberOrNull(row.quiz_id),
      sessionId: numberOrNull(row.session_id),
      aggregationFunction,
      values: resultTypes.map((type) => ({
        type,
        value: numberOrNull(row[resultTypeDefinition(type).column]),
      })),
    };
  });
}

type ItemsOf<K extends DataSetItemType> = Extract<DataSetPageView, { itemType: K }>['items'];

/** The items of a page, by item type. */
const ITEM_VIEWS: {
  [K in DataSetItemType]: (ctx: RequestContext, page: DataSetPage) => Promise<ItemsOf<K>>;
} = {
  user: (ctx, page) => userItems(ctx, page.itemIds),
  quiz: (ctx, page) => quizItems(ctx, page.itemIds),
  userGroup: (ctx, page) => userGroupItems(ctx, page.itemIds),
  computedResult: (_ctx, page) => Promise.resolve(computedResultItems(page)),
  questionStatistic: (_ctx, page) => Promise.resolve(questionStatisticItems(page.resultRows)),
  quizStatistic: (_ctx, page) =>
    Promise.resolve(quizStatisticItems(page.dataSetId, page.resultRows)),
};

/** A page with its items, by item type. */
export async function dataSetPageView(
  ctx: RequestContext,
  page: DataSetPage,
): Promise<DataSetPageView> {
  const meta: PageMeta = {
    dataSetId: page.dataSetId,
    numberOfPages: page.numberOfPages,
    numberOfItemsPerPage: page.numberOfItemsPerPage,
    totalNumberOfItems: page.totalNumberOfItems,
    currentPageIndex: page.currentPageIndex,
  };
  const items = await ITEM_VIEWS[page.itemType](ctx, page);
  // The table gives each item type its own items; TypeScript cannot pair them up by itself.
  return { ...meta, itemType: page.itemType, items } as DataSetPageView;
}

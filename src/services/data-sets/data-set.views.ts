import type { RequestContext } from '../../app/request-context';
import { readableQuizzes } from '../quizzes/quiz.service';
import { quizView, type QuizView } from '../quizzes/quiz.views';
import { userView, type UserView } from '../users/user.views';
import type { DataSetPage } from './data-set.service';
import { placeholders, toNumber } from './data-set.sql';

/**
 * The items of a page as the requester may see them, for both transports. Every read is
 * batched over the whole page, so a page costs the same number of statements at any size.
 */

export interface UserGroupView {
  id: number;
  name: string;
  nbMembers: number;
}

export const RESULT_TYPES = [
  'nbGoodAnswers',
  'goodAnswersPercent',
  'percentile',
  'nbAnswers',
  'duration',
] as const;
export type ResultType = (typeof RESULT_TYPES)[number];

/** One computed result; `shape` says which of userId / quizId / sessionId it carries. */
export interface ComputedResultView {
  /** Unique within its set: item_id when the maker set one, else the position. */
  id: number;
  shape: 'detailed' | 'byUser' | 'byQuiz';
  userId: number | null;
  quizId: number | null;
  sessionId: number | null;
  aggregationFunction: string | null;
  /** One value per requested result type, in the requested order. */
  values: { type: ResultType; value: number | null }[];
}

type PageMeta = Omit<
  DataSetPage,
  'itemType' | 'itemIds' | 'firstPosition' | 'lastPosition' | 'parameters'
>;

export type DataSetPageView =
  | (PageMeta & { itemType: 'user'; items: UserView[] })
  | (PageMeta & { itemType: 'quiz'; items: QuizView[] })
  | (PageMeta & { itemType: 'userGroup'; items: UserGroupView[] })
  | (PageMeta & { itemType: 'computedResult'; items: ComputedResultView[] });

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
  const rows = (await ctx.dataSource.query(
    `SELECT g.id AS id, g.name AS name,
            (SELECT COUNT(*) FROM user_group_members m WHERE m.group_id = g.id) AS nb
       FROM user_groups g WHERE g.id IN (${placeholders(ids.length)})`,
    [...ids],
  )) as { id: unknown; name: string; nb: unknown }[];
  const byId = new Map(
    rows.map((row) => [
      toNumber(row.id),
      { id: toNumber(row.id), name: row.name, nbMembers: toNumber(row.nb) },
    ]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

interface ResultParameters {
  resultTypes: ResultType[];
  groupBy?: 'user' | 'quiz';
}

/**
 * What a result set was asked for, from data_sets.parameters: a JSON object with `resultTypes`
 * (array, default nbGoodAnswers) and `groupBy` ('user' | 'quiz'; inferred from the row when
 * absent). Anything unreadable falls back to the defaults.
 */
function resultParameters(parameters: string | null): ResultParameters {
  let parsed: unknown;
  try {
    parsed = parameters ? JSON.parse(parameters) : undefined;
  } catch {
    parsed = undefined;
  }
  const object = typeof parsed === 'object' && parsed !== null ? parsed : {};
  const types = (object as { resultTypes?: unknown }).resultTypes;
  const groupBy = (object as { groupBy?: unknown }).groupBy;
  const resultTypes = Array.isArray(types)
    ? RESULT_TYPES.filter((type) => types.includes(type)).sort(
        (a, b) => types.indexOf(a) - types.indexOf(b),
      )
    : [];
  return {
    resultTypes: resultTypes.length ? resultTypes : ['nbGoodAnswers'],
    groupBy: groupBy === 'user' || groupBy === 'quiz' ? groupBy : undefined,
  };
}

const RESULT_COLUMNS: Record<ResultType, string> = {
  nbGoodAnswers: 'nb_good_answers',
  goodAnswersPercent: 'good_answers_percent',
  percentile: 'percentile',
  nbAnswers: 'nb_answers',
  duration: 'duration',
};

/** Computed results of the page, read by its position range. */
export async function computedResultItems(
  ctx: RequestContext,
  page: Pick<DataSetPage, 'dataSetId' | 'firstPosition' | 'lastPosition' | 'parameters'>,
): Promise<ComputedResultView[]> {
  if (page.lastPosition < page.firstPosition) return [];
  const { resultTypes, groupBy } = resultParameters(page.parameters);
  const rows = (await ctx.dataSource.query(
    `SELECT position, item_id, user_id, quiz_id, session_id, aggregation_function,
            nb_good_answers, good_answers_percent, percentile, nb_answers, duration
       FROM data_set_items
      WHERE data_set_id = ? AND position BETWEEN ? AND ? ORDER BY position`,
    [page.dataSetId, page.firstPosition, page.lastPosition],
  )) as Record<string, unknown>[];
  const numberOrNull = (value: unknown) =>
    value === null || value === undefined ? null : toNumber(value);
  return rows.map((row) => {
    const aggregationFunction =
      typeof row.aggregation_function === 'string' ? row.aggregation_function : null;
    const userId = numberOrNull(row.user_id);
    const shape = !aggregationFunction
      ? 'detailed'
      : (groupBy ?? (userId !== null ? 'user' : 'quiz')) === 'user'
        ? 'byUser'
        : 'byQuiz';
    return {
      id: numberOrNull(row.item_id) ?? toNumber(row.position),
      shape,
      userId,
      quizId: numberOrNull(row.quiz_id),
      sessionId: numberOrNull(row.session_id),
      aggregationFunction,
      values: resultTypes.map((type) => ({ type, value: numberOrNull(row[RESULT_COLUMNS[type]]) })),
    };
  });
}

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
  switch (page.itemType) {
    case 'user':
      return { ...meta, itemType: 'user', items: await userItems(ctx, page.itemIds) };
    case 'quiz':
      return { ...meta, itemType: 'quiz', items: await quizItems(ctx, page.itemIds) };
    case 'userGroup':
      return { ...meta, itemType: 'userGroup', items: await userGroupItems(ctx, page.itemIds) };
    case 'computedResult':
      return {
        ...meta,
        itemType: 'computedResult',
        items: await computedResultItems(ctx, page),
      };
  }
}

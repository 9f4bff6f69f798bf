import type { RequestContext } from '../../context/request-context';
import { aggregateAttemptScope, quizScope } from '../../domain/policy/access.policy';
import { Errors } from '../../errors';
import { createDataSet } from '../sets/data-set.store';
import type { DataSetOptions, DataSetPage } from '../sets/data-set.types';
import { isGiven, parseDateInterval, parseIdParam, type RawParam } from '../sets/data-set.params';
import { quizSetSelectSql, type QuizSetFilterValues } from '../../db/sql/set-filters.sql';
import type { SqlFragment } from '../../db/sql/sql-fragment';

/** getQuizSet filters (contract.md §6); each is optional, at least one is required. */
export interface QuizSetFilters {
  /** Whitespace-separated words; each must occur in the title, a tag, the author's name, a question title or a proposition. */
  keywords?: RawParam;
  quizId?: RawParam;
  /** One tag, matched whole (case-insensitive). */
  tag?: RawParam;
  /** The author's user id. */
  author?: RawParam;
  /** A user who attended a session that played the quiz. */
  player?: RawParam;
  /** Quizzes played in that session. */
  sessionId?: RawParam;
  /** `start,end` or one datetime (see parseDateInterval). */
  creationDate?: RawParam;
  modificationDate?: RawParam;
}

export const QUIZ_SET_FILTERS = [
  'keywords',
  'quizId',
  'tag',
  'author',
  'player',
  'sessionId',
  'creationDate',
  'modificationDate',
] as const satisfies readonly (keyof QuizSetFilters)[];

/**
 * When no filter is given, MissingParameterException names the alternatives joined by `|`
 * ("keywords|quizId|…"): the convention for "one of these is required" in every set operation.
 */
export const QUIZ_SET_FILTER_NAMES = QUIZ_SET_FILTERS.join('|');

/** More words than this is a BadParameterException: each word is one more condition per quiz. */
export const MAX_KEYWORDS = 20;

/** The filters given, each checked before any SQL is built. */
function checkedFilters(ctx: RequestContext, filters: QuizSetFilters): QuizSetFilterValues {
  const op = ctx.operation;
  const values: QuizSetFilterValues = {};
  const given = <K extends keyof QuizSetFilters>(name: K) => {
    const value = filters[name];
    return isGiven(value) ? value : undefined;
  };

  const keywords = given('keywords');
  if (keywords !== undefined) {
    const words = String(keywords).trim().split(/\s+/);
    if (words.length > MAX_KEYWORDS) {
      throw Errors.badParameter(op, 'keywords', keywords, `at most ${MAX_KEYWORDS} words`);
    }
    values.keywords = words;
  }
  const quizId = given('quizId');
  if (quizId !== undefined) values.quizId = parseIdParam(op, 'quizId', quizId);
  const tag = given('tag');
  if (tag !== undefined) values.tag = String(tag).trim();
  const author = given('author');
  if (author !== undefined) values.author = parseIdParam(op, 'author', author);
  const player = given('player');
  if (player !== undefined) {
    // What a pupil played is read within the requester scope (contract.md §6).
    values.player = {
      userId: parseIdParam(op, 'player', player),
      seen: aggregateAttemptScope(ctx.requester, ctx.config.privacy.legacyOpenReads),
    };
  }
  const sessionId = given('sessionId');
  if (sessionId !== undefined) values.sessionId = parseIdParam(op, 'sessionId', sessionId);
  const creationDate = given('creationDate');
  if (creationDate !== undefined) {
    values.creationDate = parseDateInterval(op, 'creationDate', String(creationDate));
  }
  const modificationDate = given('modificationDate');
  if (modificationDate !== undefined) {
    values.modificationDate = parseDateInterval(op, 'modificationDate', String(modificationDate));
  }
  return values;
}

/**
 * getQuizSet: the quizzes matching ALL the filters given, within what the requester may see,
 * kept as a set of the requester's; returns its first page.
 */
export async function getQuizSet(
  ctx: RequestContext,
  filters: QuizSetFilters,
  options: Pick<DataSetOptions, 'numberOfItemsPerPage'> = {},
): Promise<DataSetPage> {
  const select = quizSetSelect(ctx, filters);
  return createDataSet(ctx, 'quiz', select.sql, select.params, options);
}

/**
 * The quizzes matching ALL the filters given, within what the requester may see, as a SELECT of
 * `id`: what getQuizSet stores, and what live results read without storing it.
 */
export function quizSetSelect(ctx: RequestContext, filters: QuizSetFilters): SqlFragment {
  const values = checkedFilters(ctx, filters);
  if (Object.keys(values).length === 0) {
    throw Errors.missingParameter(ctx.operation, QUIZ_SET_FILTER_NAMES);
  }
  return quizSetSelectSql(ctx.db.dialect, quizScope(ctx.requester), values);
}

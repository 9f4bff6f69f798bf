import type { RequestContext } from '../../context/request-context';
import { aggregateAttemptScope, quizScope } from '../../domain/policy/access.policy';
import { Errors } from '../../errors';
import { createDataSet } from '../sets/data-set.store';
import type { DataSetOptions, DataSetPage } from '../sets/data-set.types';
import {
  isGiven,
  parseDateInterval,
  parseIdParam,
  type DateInterval,
  type RawParam,
} from '../sets/data-set.params';
import { type SqlCondition } from './data-set.sql';
import type { Dialect } from '../../db/sql/dialect';
import { attemptScopeSql, quizScopeSql } from '../../db/sql/access-policy.sql';
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

/** Each word must be somewhere in the quiz: title, a tag, author's first or last name, a question title or its propositions (JSON text). */
function keywordCondition(dialect: Dialect, word: string): SqlCondition {
  const pattern = dialect.likeContains(word);
  return {
    sql: `(q.title LIKE ? ${dialect.likeEscape}
       OR EXISTS (SELECT 1 FROM quiz_tags kt
                   WHERE kt.quiz_id = q.id AND kt.tag LIKE ? ${dialect.likeEscape})
       OR EXISTS (SELECT 1 FROM users ku
                   WHERE ku.id = q.author_id
                     AND (ku.first_name LIKE ? ${dialect.likeEscape} OR ku.last_name LIKE ? ${dialect.likeEscape}))
       OR EXISTS (SELECT 1 FROM questions kq
                   WHERE kq.quiz_id = q.id
                     AND (kq.title LIKE ? ${dialect.likeEscape} OR kq.propositions LIKE ? ${dialect.likeEscape})))`,
    params: [pattern, pattern, pattern, pattern, pattern, pattern],
  };
}

function intervalCondition(
  ctx: RequestContext,
  column: string,
  interval: DateInterval,
): SqlCondition {
  return {
    sql: `(${column} >= ? AND ${column} ${interval.toExclusive ? '<' : '<='} ?)`,
    params: [ctx.db.dialect.date(interval.from), ctx.db.dialect.date(interval.to)],
  };
}

/** The quizzes the requester may list (the policy's scope, as SQL). */
function scopeCondition(ctx: RequestContext): SqlCondition {
  return quizScopeSql(quizScope(ctx.requester), 'q');
}

/** The WHERE conditions of the filters given; every value is checked before any SQL runs. */
function filterConditions(ctx: RequestContext, filters: QuizSetFilters): SqlCondition[] {
  const op = ctx.operation;
  const conditions: SqlCondition[] = [];
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
    conditions.push(...words.map((word) => keywordCondition(ctx.db.dialect, word)));
  }
  const quizId = given('quizId');
  if (quizId !== undefined) {
    conditions.push({ sql: 'q.id = ?', params: [parseIdParam(op, 'quizId', quizId)] });
  }
  const tag = given('tag');
  if (tag !== undefined) {
    // LIKE without wildcards: equality that is case-insensitive on every dialect.
    conditions.push({
      sql: `q.id IN (SELECT t.quiz_id FROM quiz_tags t WHERE t.tag LIKE ? ${ctx.db.dialect.likeEscape})`,
      params: [ctx.db.dialect.likeLiteral(String(tag).trim())],
    });
  }
  const author = given('author');
  if (author !== undefined) {
    conditions.push({ sql: 'q.author_id = ?', params: [parseIdParam(op, 'author', author)] });
  }
  const player = given('player');
  if (player !== undefined) {
    // What a pupil played is read within the requester scope (contract.md §6).
    const seen = attemptScopeSql(
      aggregateAttemptScope(ctx.requester, ctx.config.privacy.legacyOpenReads),
      'pa',
    );
    conditions.push({
      sql: `q.id IN (SELECT pq.quiz_id FROM session_quizzes pq
                       JOIN session_attendees pa ON pa.session_id = pq.session_id
                      WHERE pa.user_id = ?${seen ? ` AND ${seen.sql}` : ''})`,
      params: [parseIdParam(op, 'player', player), ...(seen?.params ?? [])],
    });
  }
  const sessionId = given('sessionId');
  if (sessionId !== undefined) {
    conditions.push({
      sql: 'q.id IN (SELECT sq.quiz_id FROM session_quizzes sq WHERE sq.session_id = ?)',
      params: [parseIdParam(op, 'sessionId', sessionId)],
    });
  }
  const creationDate = given('creationDate');
  if (creationDate !== undefined) {
    const interval = parseDateInterval(op, 'creationDate', String(creationDate));
    conditions.push(intervalCondition(ctx, 'q.creation_date', interval));
  }
  const modificationDate = given('modificationDate');
  if (modificationDate !== undefined) {
    const interval = parseDateInterval(op, 'modificationDate', String(modificationDate));
    conditions.push(intervalCondition(ctx, 'q.last_change_date', interval));
  }
  return conditions;
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
  const conditions = filterConditions(ctx, filters);
  if (conditions.length === 0) throw Errors.missingParameter(ctx.operation, QUIZ_SET_FILTER_NAMES);
  const where = [scopeCondition(ctx), ...conditions];
  return {
    sql: `SELECT q.id AS id FROM quizzes q WHERE ${where.map((c) => c.sql).join(' AND ')}`,
    params: where.flatMap((c) => c.params),
  };
}

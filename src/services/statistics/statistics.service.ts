import type { RequestContext } from '../../context/request-context';
import { detailedAttemptScope } from '../../domain/policy/access.policy';
import { Errors } from '../../errors';
import type { RawParam } from '../data-sets/data-set.params';
import { parsePageSize } from '../data-sets/data-set.params';
import { createDataSetFrom, createDataSetWith, membersInsert } from '../data-sets/data-set.store';
import type { DataSetPage } from '../data-sets/data-set.types';
import { storedSets } from '../results/result-attempts.sql';
import { parseSessions, requiredId, type RawListParam } from '../results/result-parameters';
import { requireUserAndQuizSets } from '../results/results.service';
import {
  questionStatisticsQuery,
  quizStatisticsQuery,
  type StatisticsRequest,
} from './statistics.sql';

/**
 * Item analysis (contract.md §12): statistics of the questions and quizzes of a quiz set over
 * the attempts of a user set, computed by the database into a set owned by the requester, like
 * getResults. Only attempts the requester may see in detail count (its sessions' and its own),
 * so the operations need an access token (the operation definitions ask for one).
 */

/** Both operations' parameters as the transports give them. */
export interface RawStatisticsParams {
  userSetId?: RawParam;
  quizSetId?: RawParam;
  sessionIds?: RawListParam;
  sessionId?: RawParam;
  numberOfItemsPerPage?: RawParam;
}

interface CheckedStatistics {
  request: StatisticsRequest;
  /** What the set records in data_sets.parameters. */
  parameters: string;
}

/** Every parameter checked, then the sets, before anything is written. */
async function checkedRequest(
  ctx: RequestContext,
  raw: RawStatisticsParams,
): Promise<CheckedStatistics> {
  const userSetId = requiredId(ctx.operation, 'userSetId', raw.userSetId);
  const quizSetId = requiredId(ctx.operation, 'quizSetId', raw.quizSetId);
  const sessionIds = parseSessions(ctx.operation, raw);
  parsePageSize(ctx.operation, raw.numberOfItemsPerPage, ctx.config.pageSize);
  const scope = detailedAttemptScope(ctx.requester);
  if (!scope) throw Errors.unauthenticated(ctx.operation, 'item statistics need an access token');
  await requireUserAndQuizSets(ctx, { userSetId, quizSetId });
  return {
    request: { sets: storedSets({ userSetId, quizSetId }), sessionIds, scope },
    parameters: JSON.stringify({ userSetId, quizSetId, sessionIds }),
  };
}

/** getQuestionStatistics: one item per question of every quiz of the quiz set. */
export async function getQuestionStatistics(
  ctx: RequestContext,
  raw: RawStatisticsParams,
): Promise<DataSetPage> {
  const { request, parameters } = await checkedRequest(ctx, raw);
  return createDataSetFrom(
    ctx,
    'questionStatistic',
    questionStatisticsQuery(ctx.db.dialect, request),
    { numberOfItemsPerPage: raw.numberOfItemsPerPage, parameters },
  );
}

/**
 * getQuizStatistics: one item per quiz of the quiz set. The set also keeps its quizzes'
 * question statistics (QuizStatistic.questions), written first in the same transaction: alpha
 * reads their good-answer counts.
 */
export async function getQuizStatistics(
  ctx: RequestContext,
  raw: RawStatisticsParams,
): Promise<DataSetPage> {
  const { request, parameters } = await checkedRequest(ctx, raw);
  const dialect = ctx.db.dialect;
  return createDataSetWith(
    ctx,
    'quizStatistic',
    (dataSetId) => [
      membersInsert('questionStatistic', dataSetId, questionStatisticsQuery(dialect, request)),
      membersInsert('quizStatistic', dataSetId, quizStatisticsQuery(dialect, request, dataSetId)),
    ],
    { numberOfItemsPerPage: raw.numberOfItemsPerPage, parameters },
  );
}

import type { RequestContext } from '../../context/request-context';
import { detailedAttemptScope } from '../../domain/policy/access.policy';
import { Errors } from '../../errors';
import type { RawParam } from '../sets/data-set.params';
import { parsePageSize } from '../sets/data-set.params';
import { toNumber } from '../../db/sql/dialect';
import { selectStatement } from '../../db/sql/rows-query.sql';
import { requireReadableDataSet } from '../sets/data-set.access';
import { createDataSetFrom } from '../sets/data-set.store';
import type { DataSetPage, ResultRow } from '../sets/data-set.types';
import { storedSets } from '../../db/sql/result-attempts.sql';
import { parseSessions, requiredId, type RawListParam } from '../results/result-parameters';
import { requireUserAndQuizSets } from '../results/results.service';
import { accessLogOfSet } from '../access-log/access-log.service';
import {
  countedSubjects,
  questionStatisticsQuery,
  quizStatisticsQuery,
  type StatisticsRequest,
} from '../../db/sql/statistics.sql';

/**
 * Item analysis (contract.md §12): statistics of the questions and quizzes of a quiz set over
 * the attempts of a user set, computed by the database into a set owned by the requester, like
 * getResults. Only attempts the requester may see in detail count (its sessions' and its own),
 * so the operations need an access token (the operation definitions ask for one). A survey
 * question's choice counts are shown only from SURVEY_MIN_RESPONSES counted attempts on
 * (contract.md §14.1).
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
    request: {
      sets: storedSets({ userSetId, quizSetId }),
      sessionIds,
      scope,
      surveyMinResponses: ctx.config.privacy.surveyMinResponses,
    },
    parameters: JSON.stringify({ userSetId, quizSetId, sessionIds }),
  };
}

/**
 * The access-log entry of an item analysis (contract.md §14.6): the pupils whose attempts it
 * counted, selected by the database in the set's transaction.
 */
function countedPupilsEntry(ctx: RequestContext, request: StatisticsRequest) {
  const subjects = countedSubjects(ctx.db.dialect, request);
  return accessLogOfSet(ctx, () => subjects);
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
    {
      numberOfItemsPerPage: raw.numberOfItemsPerPage,
      parameters,
      accessLog: countedPupilsEntry(ctx, request),
    },
  );
}

/**
 * getQuizStatistics: one item per quiz of the quiz set. Its quizzes' question statistics
 * (QuizStatistic.questions) are not stored with it: quizQuestionStatisticRows computes them when
 * asked, so a client that wants the quizzes alone never pays for their questions.
 */
export async function getQuizStatistics(
  ctx: RequestContext,
  raw: RawStatisticsParams,
): Promise<DataSetPage> {
  const { request, parameters } = await checkedRequest(ctx, raw);
  return createDataSetFrom(ctx, 'quizStatistic', quizStatisticsQuery(ctx.db.dialect, request), {
    numberOfItemsPerPage: raw.numberOfItemsPerPage,
    parameters,
    accessLog: countedPupilsEntry(ctx, request),
  });
}

/** What a statistics set records of its request (data_sets.parameters). */
function recordedRequest(parameters: string | null): RawStatisticsParams {
  try {
    const parsed: unknown = parameters ? JSON.parse(parameters) : undefined;
    if (typeof parsed !== 'object' || parsed === null) return {};
    const { userSetId, quizSetId, sessionIds } = parsed as Record<string, unknown>;
    const id = (value: unknown) => (typeof value === 'number' ? value : undefined);
    return {
      userSetId: id(userSetId),
      quizSetId: id(quizSetId),
      sessionIds: Array.isArray(sessionIds)
        ? sessionIds.filter((n) => typeof n === 'number')
        : undefined,
    };
  } catch {
    return {};
  }
}

/**
 * The question statistics of some quizzes of quizStatistic set `dataSetId`, keyed by quiz id:
 * computed now, in one statement, over the user set, quiz set and sessions the set was made
 * from and the requester's attempt scope (a set is read by its maker only), so they count the
 * same attempts as its items unless answers arrived since. The two sets must still be there:
 * once one expired, the answer is its 404.
 */
export async function quizQuestionStatisticRows(
  ctx: RequestContext,
  dataSetId: number,
  quizIds: readonly number[],
): Promise<Map<number, ResultRow[]>> {
  const set = await requireReadableDataSet(ctx, dataSetId);
  const recorded = recordedRequest(set.parameters);
  const { request } = await checkedRequest(ctx, recorded);
  const { sql, params } = selectStatement(
    questionStatisticsQuery(ctx.db.dialect, { ...request, quizIds }),
  );
  // The write handle, as for pages: sets this instance has just made are read at once.
  const rows = await ctx.db.writeRows.rows<ResultRow>(sql, params);
  const byQuiz = new Map<number, ResultRow[]>();
  for (const row of rows) {
    const quizId = toNumber(row.quiz_id);
    const list = byQuiz.get(quizId);
    if (list) list.push(row);
    else byQuiz.set(quizId, [row]);
  }
  return byQuiz;
}

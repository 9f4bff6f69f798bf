import type { RequestContext } from '../../context/request-context';
import { parsePageSize, parseIdParam, isGiven } from '../sets/data-set.params';
import type { DataSetPage } from '../sets/data-set.types';
import { getQuizSet } from '../data-sets/quiz-set.service';
import { getUserSet } from '../data-sets/user-set.service';
import { Errors } from '../../errors';
import { parseResultsOptions, type RawResultsParams } from './result-parameters';
import { getResults, resultsScope } from './results.service';

/** The three sets of a session's results. */
export interface SessionResults {
  userSet: DataSetPage;
  quizSet: DataSetPage;
  results: DataSetPage;
}

/**
 * The typical flow of a statistics client in one call: the user set and the quiz set of a
 * session, and their results restricted to it. Every parameter and the right to the results are
 * checked before the first set is written, so a refused call writes nothing; errors name the
 * operation of the call.
 */
export async function getSessionResults(
  ctx: RequestContext,
  raw: Omit<RawResultsParams, 'userSetId' | 'quizSetId' | 'sessionIds'>,
): Promise<SessionResults> {
  if (!isGiven(raw.sessionId)) throw Errors.missingParameter(ctx.operation, 'sessionId');
  const sessionId = String(parseIdParam(ctx.operation, 'sessionId', raw.sessionId));
  resultsScope(ctx, parseResultsOptions(ctx.operation, { ...raw, sessionId }));
  parsePageSize(ctx.operation, raw.numberOfItemsPerPage, ctx.config.pageSize);
  const options = { numberOfItemsPerPage: raw.numberOfItemsPerPage };
  const userSet = await getUserSet(ctx, { sessionId }, options);
  const quizSet = await getQuizSet(ctx, { sessionId }, options);
  const results = await getResults(ctx, {
    ...raw,
    sessionId,
    userSetId: userSet.dataSetId,
    quizSetId: quizSet.dataSetId,
  });
  return { userSet, quizSet, results };
}

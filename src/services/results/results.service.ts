import type { RequestContext } from '../../context/request-context';
import {
  aggregateAttemptScope,
  detailedAttemptScope,
  resultsDecision,
  type AttemptScope,
} from '../../domain/policy/access.policy';
import { computedResultSubjects } from '../../db/sql/access-log.sql';
import { Errors } from '../../errors';
import { accessLogOfSet } from '../access-log/access-log.service';
import { requireReadableDataSets } from '../sets/data-set.access';
import { parsePageSize } from '../sets/data-set.params';
import { createDataSetFrom } from '../sets/data-set.store';
import type { DataSetPage } from '../sets/data-set.types';
import {
  parseResultsRequest,
  resultsParametersJson,
  type RawResultsParams,
  type ResultsOptions,
} from './result-parameters';
import { resultsQuery } from '../../db/sql/results.sql';

export type { RawResultsParams } from './result-parameters';

/**
 * The attempts results may cover for the requester (contract.md §7): those of its sessions and
 * its own (the requester scope). Detailed results need a token; aggregated ones are open, and
 * cover nothing for an anonymous requester, or every attempt under LEGACY_OPEN_READS.
 */
export function resultsScope(ctx: RequestContext, options: ResultsOptions): AttemptScope {
  const detailed = options.aggregation === null;
  if (!detailed) {
    return aggregateAttemptScope(ctx.requester, ctx.config.privacy.legacyOpenReads);
  }
  const allowed = detailedAttemptScope(ctx.requester);
  if (resultsDecision(ctx.requester, detailed) === 'needsToken' || !allowed) {
    throw Errors.unauthenticated(ctx.operation, 'detailed results need an access token');
  }
  return allowed;
}

/**
 * Checks that userSetId names a user set and quizSetId a quiz set, both readable by the
 * requester: both in one read (none when this process knows them), in parameter order.
 */
export async function requireUserAndQuizSets(
  ctx: RequestContext,
  request: { userSetId: number; quizSetId: number },
): Promise<void> {
  const expected = { userSetId: 'user', quizSetId: 'quiz' } as const;
  await requireReadableDataSets(
    ctx,
    [
      { id: request.userSetId, parameterName: 'userSetId' },
      { id: request.quizSetId, parameterName: 'quizSetId' },
    ],
    (set, { id, parameterName }) => {
      const itemType = expected[parameterName as keyof typeof expected];
      if (set.itemType !== itemType) {
        throw Errors.badParameter(
          ctx.operation,
          parameterName,
          String(id),
          `is a set of ${set.itemType} items, not of ${itemType} items`,
        );
      }
    },
  );
}

/**
 * getResults (contract.md §7): the results of a user set on a quiz set, computed by the database
 * into a new computedResult set owned by the requester; returns its first page.
 *
 * Parameters come raw from either transport and are all checked here (see parseResultsRequest).
 * Detailed results (no aggregationFunctions) need a token and show only the attempts in
 * sessions the requester owns and the requester's own attempts; with includeQuizzes=all they
 * add, and show, a zero attempt (sessionId null) for every (user, quiz) pair with no attempt the
 * requester may see, so a teacher sees a zero for each pupil who did not play a quiz in the
 * teacher's sessions, whatever was played in others'. Percentiles always rank an attempt among
 * all the attempts of the user set on its quiz, seen or not, and the zeros of the request.
 * Aggregated results are open to anonymous requesters and aggregate exactly the rows detailed
 * results would show the requester: none for an anonymous one (values null, count 0), every
 * attempt (zeros only for pairs without any) under LEGACY_OPEN_READS. Surveys have no score:
 * their attempts' scores are null, and count still counts them.
 * Detailed results and aggregates by user record the pupils they name in the access log, in the
 * set's transaction.
 */
export async function getResults(ctx: RequestContext, raw: RawResultsParams): Promise<DataSetPage> {
  const request = parseResultsRequest(ctx.operation, raw);
  // Checked before any read, so a refused request touches nothing.
  parsePageSize(ctx.operation, raw.numberOfItemsPerPage, ctx.config.pageSize);
  const scope = resultsScope(ctx, request);
  await requireUserAndQuizSets(ctx, request);
  return createDataSetFrom(ctx, 'computedResult', resultsQuery(request, ctx.db.dialect, scope), {
    numberOfItemsPerPage: raw.numberOfItemsPerPage,
    parameters: resultsParametersJson(request),
    // Detailed results, and aggregates by user, are per-pupil data: the entry names the pupils
    // of the set's rows (contract.md §14.6). Aggregates by quiz name no one and write none.
    accessLog:
      request.aggregation?.groupBy === 'quiz'
        ? undefined
        : accessLogOfSet(ctx, computedResultSubjects),
  });
}

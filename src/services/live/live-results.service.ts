import type { RequestContext } from '../../context/request-context';
import { selectedMembers } from '../../db/sql/member-sources.sql';
import { readSessionVersions } from '../../db/sql/session-changes.sql';
import { liveResultsDecision } from '../../domain/policy/access.policy';
import { Errors, toServiceApiError, type ServiceApiError } from '../../errors';
import { isGiven, parseIdParam } from '../sets/data-set.params';
import type { ResultRow } from '../sets/data-set.types';
import { resultRowItems, type ComputedResultView } from '../results/computed-result.views';
import { quizSetSelect } from '../data-sets/quiz-set.service';
import { userSetSelect } from '../data-sets/user-set.service';
import {
  parseResultsOptions,
  type RawResultsParams,
  type ResultsOptions,
} from '../results/result-parameters';
import { resultsScope } from '../results/results.service';
import { resultsSubjectsOver, selectResultsOver } from '../../db/sql/results.sql';
import type { ResultsSets } from '../../db/sql/result-attempts.sql';
import { recordAccess } from '../access-log/access-log.service';
import { requesterCheck } from '../auth/credentials.service';
import { CoalescingStream } from './coalescing.stream';
import { SharedComputations } from './shared-computations';

/**
 * Live results of a session (contract.md §10): the items getSessionResults would page, computed
 * by the results query over the session's attendees and quizzes as SELECTs (the user set and the
 * quiz set getUserSet / getQuizSet would store for `sessionId`), so nothing is written however
 * often they are computed; again each time the session's answers change.
 */

/** The least time between two results of one subscription (contract.md §10). */
export const LIVE_RESULTS_GAP_MS = 250;

/** sessionResults' parameters: getSessionResults' but the page size (every item is sent). */
export type RawLiveResultsParams = Pick<
  RawResultsParams,
  'sessionId' | 'resultTypes' | 'aggregationFunctions' | 'groupBy' | 'includeQuizzes'
>;

/** What a subscription sends: the results now, or why it ends. */
export type LiveResultsEvent =
  { kind: 'results'; items: ComputedResultView[] } | { kind: 'ended'; error: ServiceApiError };

export interface LiveSessionResults {
  sessionId: number;
  /**
   * The results now, then after each change of the session's answers, at most one per
   * LIVE_RESULTS_GAP_MS; at `endsAt` (the requester's credentials expire) an `ended` event, then
   * the end. A failing computation rejects with the domain error.
   */
  open(options: { endsAt: number | null }): AsyncIterableIterator<LiveResultsEvent>;
}

/**
 * Every item of the session's results for `options`, as getSessionResults computes them (same
 * sets, same scope, same numbers and order), read by one SELECT.
 */
export async function sessionResultsNow(
  ctx: RequestContext,
  sessionId: number,
  options: ResultsOptions,
): Promise<ComputedResultView[]> {
  const scope = resultsScope(ctx, options);
  const sets = await sessionSets(ctx, sessionId);
  const { sql, params } = selectResultsOver(options, sets, ctx.db.dialect, scope);
  const rows = (await ctx.db.read.query(sql, params)) as ResultRow[];
  return resultRowItems(rows, {
    resultTypes: options.resultTypes,
    groupBy: options.aggregation?.groupBy ?? null,
  });
}

/** The session's attendees and quizzes, as the sets getUserSet / getQuizSet would store. */
async function sessionSets(ctx: RequestContext, sessionId: number): Promise<ResultsSets> {
  return {
    users: selectedMembers(await userSetSelect(ctx, { sessionId })),
    quizzes: selectedMembers(quizSetSelect(ctx, { sessionId })),
  };
}

/**
 * The access-log entry of a subscription's start (contract.md §14.6), once its first message is
 * computed: the pupils that message shows, selected by the database from the same results.
 * Per-pupil results only, as for getResults: detailed, or aggregated by user; aggregates by quiz
 * write none.
 */
async function recordSubscriptionStart(
  ctx: RequestContext,
  sessionId: number,
  options: ResultsOptions,
): Promise<void> {
  if (options.aggregation?.groupBy === 'quiz') return;
  const scope = resultsScope(ctx, options);
  const sets = await sessionSets(ctx, sessionId);
  await recordAccess(ctx, resultsSubjectsOver(options, sets, ctx.db.dialect, scope));
}

/**
 * sessionResults: checks the parameters, that the session exists (404) and that the requester
 * owns it (401 without a token, 403 for anyone else), before anything is watched.
 */
export async function watchSessionResults(
  ctx: RequestContext,
  raw: RawLiveResultsParams,
): Promise<LiveSessionResults> {
  const op = ctx.operation;
  if (!isGiven(raw.sessionId)) throw Errors.missingParameter(op, 'sessionId');
  const sessionId = parseIdParam(op, 'sessionId', raw.sessionId);
  const options = parseResultsOptions(op, { ...raw, sessionId: String(sessionId) });
  resultsScope(ctx, options);
  const session = await ctx.loaders.sessionById.load(sessionId);
  if (!session) {
    throw Errors.notFound(
      op,
      'sessionId',
      String(sessionId),
      `session ${sessionId} does not exist`,
    );
  }
  const decision = liveResultsDecision(ctx.requester, session);
  if (decision === 'needsToken') throw Errors.unauthenticated(op, 'an access token is required');
  if (decision === 'denied') {
    throw Errors.forbidden(op, `only the owner of session ${sessionId} may follow its results`);
  }
  return {
    sessionId,
    open: ({ endsAt }) => liveEvents(ctx, sessionId, options, endsAt),
  };
}

/**
 * The computations of this instance's subscriptions, one cache per instance: keyed by its change
 * feed, which every request context of the instance shares.
 */
const SHARED = new WeakMap<object, SharedComputations<ComputedResultView[]>>();

function sharedOf(ctx: RequestContext): SharedComputations<ComputedResultView[]> {
  let shared = SHARED.get(ctx.sessionChanges);
  if (!shared) {
    shared = new SharedComputations();
    SHARED.set(ctx.sessionChanges, shared);
  }
  return shared;
}

/**
 * What makes two subscriptions' results the same: the session, the parameters, and who asks
 * (the sets and the scope of what may be seen in detail follow from the requester, §7).
 */
function computationKey(ctx: RequestContext, sessionId: number, options: ResultsOptions): string {
  const { requester } = ctx;
  const who = requester.kind === 'user' ? `user:${requester.userId}` : requester.kind;
  return JSON.stringify([sessionId, who, options, resultsScope(ctx, options)]);
}

/**
 * The stream's events as the subscription's. An iterator of its own rather than a generator over
 * the stream: `return()` must reach the stream while it waits for a change (see CoalescingStream).
 */
function liveEvents(
  ctx: RequestContext,
  sessionId: number,
  options: ResultsOptions,
  endsAt: number | null,
): AsyncIterableIterator<LiveResultsEvent> {
  const key = computationKey(ctx, sessionId, options);
  const stream = new CoalescingStream({
    watch: (listener) => ctx.sessionChanges.watch(sessionId, listener),
    readVersion: async () =>
      (await readSessionVersions(ctx.db.read, ctx.db.dialect, [sessionId])).get(sessionId) ?? 0,
    compute: (version) =>
      sharedOf(ctx).get(key, version, () => sessionResultsNow(ctx, sessionId, options)),
    gapMs: LIVE_RESULTS_GAP_MS,
    endsAt,
    stillAllowed: requesterCheck(ctx),
  });
  let started = false;
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next(): Promise<IteratorResult<LiveResultsEvent, undefined>> {
      let step;
      try {
        step = await stream.next();
        if (!started && !step.done && step.value.kind === 'value') {
          started = true;
          await recordSubscriptionStart(ctx, sessionId, options);
        }
      } catch (error) {
        const domain = toServiceApiError(error, ctx.operation, ctx.requestId);
        if (domain.status >= 500)
          ctx.logger.error({ err: error, sessionId }, 'live results failed');
        throw domain;
      }
      if (step.done) return step;
      const event = step.value;
      return {
        done: false,
        value:
          event.kind === 'ended'
            ? {
                kind: 'ended',
                error: Errors.unauthenticated(
                  ctx.operation,
                  event.reason === 'expired'
                    ? 'the access token has expired'
                    : 'the API key is unknown or revoked',
                ),
              }
            : { kind: 'results', items: event.value },
      };
    },
    return: () => stream.return(),
  };
}

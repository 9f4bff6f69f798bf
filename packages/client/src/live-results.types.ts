import type { ServiceApiException, TransportException } from './errors';
import type {
  AggregationFunction,
  ComputedResult,
  GroupBy,
  Id,
  IncludeQuizzes,
  ResultType,
} from './types';

// Live results (contract.md §10): the sessionResults subscription, a GraphQL operation only.

interface WatchSessionResultsCommonParams {
  /** A session of the token's user (only the owner may follow it). */
  sessionId: Id;
  /** The service's default is nbGoodAnswers. */
  resultTypes?: readonly ResultType[];
  includeQuizzes?: IncludeQuizzes;
}

/** Detailed results: one item per attempt in the session. */
export interface WatchDetailedSessionResultsParams extends WatchSessionResultsCommonParams {
  aggregationFunctions?: undefined;
  groupBy?: undefined;
}

/** Aggregated results: one item per (group, function), every attendee (or quiz) included. */
export interface WatchAggregatedSessionResultsParams<
  G extends GroupBy = GroupBy,
> extends WatchSessionResultsCommonParams {
  aggregationFunctions: readonly AggregationFunction[];
  groupBy: G;
}

/** What watchSessionResults follows: the arguments of getResults for one session, no paging. */
export type WatchSessionResultsParams =
  WatchDetailedSessionResultsParams | WatchAggregatedSessionResultsParams;

/** What a watch calls; onResults gets every item of the session's results at each message. */
export interface SessionResultsHandlers<T extends ComputedResult = ComputedResult> {
  /** The current results first, then again each time answers of the session are stored. */
  onResults: (items: T[]) => void;
  /**
   * A refusal or a failure, as the exception REST would give: UnauthorizedOperationException 403
   * for a session of someone else, 401 when the token expires or the credentials are refused;
   * TransportException when the connection failed for good.
   */
  onError?: (error: ServiceApiException | TransportException) => void;
  /**
   * Called once when the watch is over: the service ended it (after an error or not), or the
   * connection failed for good. Not called after close().
   */
  onEnd?: () => void;
}

/** A running watch of a session's results. */
export interface SessionResultsWatch {
  /** Stops it and closes its connection; no handler is called afterwards. */
  close(): void;
}

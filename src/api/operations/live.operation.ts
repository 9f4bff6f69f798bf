import { LIVE_RESULTS_GAP_MS, watchSessionResults } from '../../services/live/live-results.service';
import { SET } from './operation-costs';
import { defineOperation } from './operation-definition';
import { idParameter } from './operation-parameters';
import { aggregationFunctions, groupBy, includeQuizzes, resultTypes } from './results.operation';

export const sessionResultsOperation = defineOperation({
  name: 'sessionResults',
  description: `The results of a session the requester owns, the items getSessionResults computes (every item, no paging): the current ones first, then again each time answers of the session are stored, at most one message every ${LIVE_RESULTS_GAP_MS} ms (changes are coalesced, never dropped). A subscription, over WebSocket at /graphql (graphql-transport-ws; apiKey and accessToken in the connection_init payload); it ends with an error when the access token expires.`,
  graphQL: 'subscription',
  token: 'required',
  // Charged once, when it starts, like the results it computes; it writes no set.
  cost: { points: SET.points, writes: 0 },
  parameters: [
    idParameter('sessionId', 'a session of the requester', 'session id', { required: true }),
    resultTypes,
    aggregationFunctions,
    groupBy,
    includeQuizzes,
  ],
  run: (ctx, args) => watchSessionResults(ctx, args),
});

/** Live results, over WebSocket. */
export const LIVE_OPERATIONS = { sessionResults: sessionResultsOperation } as const;

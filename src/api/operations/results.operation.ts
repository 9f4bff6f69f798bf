import { dataSetPageView, type DataSetPageView } from '../../services/set-kinds/data-set.views';
import {
  AGGREGATION_FUNCTIONS,
  GROUP_BY,
  INCLUDE_QUIZZES,
  RESULT_TYPES,
} from '../../services/results/result-parameters';
import { getResults } from '../../services/results/results.service';
import { getSessionResults } from '../../services/results/session-results.service';
import { pageOf, pageView } from './data-set.operation';
import { SET } from './operation-costs';
import { defineOperation } from './operation-definition';
import {
  choiceListParameter,
  choiceParameter,
  idListParameter,
  idParameter,
  pageSizeParameter,
} from './operation-parameters';

/** The options of results (contract.md §7) that getResults and getSessionResults share. */
export const resultTypes = choiceListParameter(
  'resultTypes',
  `comma-separated: ${RESULT_TYPES.join(', ')} (default nbGoodAnswers)`,
  RESULT_TYPES,
  'ResultType',
);
export const aggregationFunctions = choiceListParameter(
  'aggregationFunctions',
  `comma-separated: ${AGGREGATION_FUNCTIONS.join(', ')}; needs groupBy. Without it, detailed results (an access token is needed)`,
  AGGREGATION_FUNCTIONS,
  'AggregationFunction',
);
export const groupBy = choiceParameter(
  'groupBy',
  'user or quiz; required with aggregationFunctions, refused without',
  GROUP_BY,
  'GroupBy',
);
export const includeQuizzes = choiceParameter(
  'includeQuizzes',
  'answered (default) or all: all adds a zero attempt (sessionId null) for each (user, quiz) pair without an attempt; in detailed results, for each pair without an attempt the requester may see, and those zeros are shown',
  INCLUDE_QUIZZES,
  'IncludeQuizzes',
);

/** The two sets and the sessions of a computation over attempts (results, item analysis). */
export const userSetIdParameter = idParameter(
  'userSetId',
  'a user set of the requester',
  'data set id',
  { required: true },
);
export const quizSetIdParameter = idParameter(
  'quizSetId',
  'a quiz set of the requester',
  'data set id',
  { required: true },
);
export const sessionIdsParameter = idListParameter(
  'sessionIds',
  'comma-separated session ids: only answers of these sessions count',
);
export const sessionIdParameter = idParameter(
  'sessionId',
  'one session: only its answers count (not with sessionIds)',
  'session id',
);

export const getResultsOperation = defineOperation({
  name: 'getResults',
  description:
    "Computes the results of a user set on a quiz set (both the requester's) into a new set of computed results and returns its first page: detailed (one item per attempt) without aggregationFunctions, else one item per (user or quiz, function). Both cover the attempts the requester may see: those in sessions it owns and its own; aggregates with an API key alone count none, unless the operator restored the legacy open reads (LEGACY_OPEN_READS, every attempt). A survey has no score: its nbGoodAnswers, goodAnswersPercent and percentile are null.",
  graphQL: 'query',
  rest: pageOf('computedResult'),
  token: 'forDetailedResults',
  cost: SET,
  parameters: [
    userSetIdParameter,
    quizSetIdParameter,
    resultTypes,
    aggregationFunctions,
    groupBy,
    sessionIdsParameter,
    sessionIdParameter,
    includeQuizzes,
    pageSizeParameter,
  ],
  run: (ctx, args) => pageView(ctx, getResults(ctx, args)),
});

/** The three pages of getSessionResults, as the requester may see their items. */
export interface SessionResultsView {
  userSet: DataSetPageView;
  quizSet: DataSetPageView;
  results: DataSetPageView;
}

export const getSessionResultsOperation = defineOperation({
  name: 'getSessionResults',
  description:
    'getUserSet(sessionId), getQuizSet(sessionId) and getResults on them restricted to that session, in one round trip.',
  graphQL: 'query',
  token: 'forDetailedResults',
  // A user set, a quiz set and their results.
  cost: { points: 3 * SET.points, writes: 3 },
  parameters: [
    idParameter('sessionId', 'the session', 'session id', { required: true }),
    resultTypes,
    aggregationFunctions,
    groupBy,
    includeQuizzes,
    pageSizeParameter,
  ],
  run: async (ctx, args): Promise<SessionResultsView> => {
    const sets = await getSessionResults(ctx, args);
    const [userSet, quizSet, results] = await Promise.all(
      [sets.userSet, sets.quizSet, sets.results].map((page) => dataSetPageView(ctx, page)),
    );
    return { userSet, quizSet, results };
  },
});

/** The results area's operations. */
export const RESULTS_OPERATIONS = {
  getResults: getResultsOperation,
  getSessionResults: getSessionResultsOperation,
} as const;

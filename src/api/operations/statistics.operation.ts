import {
  getQuestionStatistics,
  getQuizStatistics,
} from '../../services/statistics/statistics.service';
import { pageOf, pageView } from './data-set.operation';
import { SET } from './operation-costs';
import { defineOperation } from './operation-definition';
import { pageSizeParameter } from './operation-parameters';
import {
  quizSetIdParameter,
  sessionIdParameter,
  sessionIdsParameter,
  userSetIdParameter,
} from './results.operation';

/** The parameters of item analysis (contract.md §12), shared by both operations. */
const statisticsParameters = [
  userSetIdParameter,
  quizSetIdParameter,
  sessionIdsParameter,
  sessionIdParameter,
  pageSizeParameter,
] as const;

const TOKEN_REASON = 'item statistics need an access token';
const COUNTED =
  'Counts the attempts of the user set on the quiz set that the requester may see in detail: those in sessions it owns, and its own.';

export const getQuestionStatisticsOperation = defineOperation({
  name: 'getQuestionStatistics',
  description: `Computes the statistics of every question of the quiz set (facility, discrimination, choice counts) into a new set of questionStatistic items, ordered by quiz then question, and returns its first page. ${COUNTED}`,
  graphQL: 'query',
  rest: pageOf('questionStatistic'),
  token: 'required',
  tokenReason: TOKEN_REASON,
  cost: SET,
  parameters: statisticsParameters,
  run: (ctx, args) => pageView(ctx, getQuestionStatistics(ctx, args)),
});

export const getQuizStatisticsOperation = defineOperation({
  name: 'getQuizStatistics',
  description: `Computes the statistics of every quiz of the quiz set (mean, median and standard deviation of goodAnswersPercent, Cronbach's alpha, histogram) into a new set of quizStatistic items, ordered by quiz, and returns its first page. ${COUNTED}`,
  graphQL: 'query',
  rest: pageOf('quizStatistic'),
  token: 'required',
  tokenReason: TOKEN_REASON,
  cost: SET,
  parameters: statisticsParameters,
  run: (ctx, args) => pageView(ctx, getQuizStatistics(ctx, args)),
});

/** Item analysis. */
export const STATISTICS_OPERATIONS = {
  getQuestionStatistics: getQuestionStatisticsOperation,
  getQuizStatistics: getQuizStatisticsOperation,
} as const;

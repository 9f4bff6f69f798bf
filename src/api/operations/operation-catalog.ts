import {
  computeDataSetOperation,
  getDataSetItemsOperation,
  getDataSetPageOperation,
  getQuizSetOperation,
  getUserGroupSetOperation,
  getUserSetOperation,
} from './data-set.operation';
import { exportDataSetOperation } from './data-set-export.operation';
import { pointsSentence, writesSentence, type OperationCost } from './operation-costs';
import type { OperationDefinition } from './operation-definition';
import { addQuizOperation, getQuizAttributeOperation, getQuizOperation } from './quiz.operation';
import {
  getResultsOperation,
  getSessionResultsOperation,
  sessionResultsOperation,
} from './results.operation';
import { getQuestionStatisticsOperation, getQuizStatisticsOperation } from './statistics.operation';
import {
  addAnswersOperation,
  addSessionOperation,
  getSessionOperation,
  joinSessionOperation,
} from './session.operation';
import { getUserAttributeOperation, getUserOperation } from './user.operation';

/**
 * Every operation of the API, by name, in the order schema/openapi.json lists them. Adding one:
 * its definition in the `*.operation.ts` of its area, listed here; a resolver method for its
 * GraphQL root field, if it has one (without `graphQL` it is REST only, as exportDataSet); a
 * method of the client. Routes and descriptions follow from here.
 */
export const OPERATIONS = {
  getQuiz: getQuizOperation,
  addQuiz: addQuizOperation,
  getUser: getUserOperation,
  getUserAttribute: getUserAttributeOperation,
  getQuizAttribute: getQuizAttributeOperation,
  getQuizSet: getQuizSetOperation,
  getUserSet: getUserSetOperation,
  getUserGroupSet: getUserGroupSetOperation,
  getDataSetPage: getDataSetPageOperation,
  getDataSetItems: getDataSetItemsOperation,
  computeDataSet: computeDataSetOperation,
  exportDataSet: exportDataSetOperation,
  getResults: getResultsOperation,
  getSessionResults: getSessionResultsOperation,
  getQuestionStatistics: getQuestionStatisticsOperation,
  getQuizStatistics: getQuizStatisticsOperation,
  addSession: addSessionOperation,
  getSession: getSessionOperation,
  joinSession: joinSessionOperation,
  addAnswers: addAnswersOperation,
  sessionResults: sessionResultsOperation,
} as const;

export type OperationName = keyof typeof OPERATIONS;

export const OPERATION_CATALOG: readonly OperationDefinition[] = Object.values(OPERATIONS);

/** The operations the REST router serves (the others are GraphQL only). */
export const REST_CATALOG = OPERATION_CATALOG.filter((operation) => operation.rest);

/** The cost of an operation by name; names outside the catalog (`__typename`) cost nothing. */
export function operationCost(name: string): OperationCost {
  return Object.hasOwn(OPERATIONS, name)
    ? OPERATIONS[name as OperationName].cost
    : { points: 0, writes: 0 };
}

/** What the descriptions say of the access token. */
export function tokenSentence(operation: OperationDefinition): string {
  switch (operation.token) {
    case 'required':
      return 'An access token is required.';
    case 'forDetailedResults':
      return 'Detailed results need an access token.';
    case 'optional':
      return 'An access token is optional.';
  }
}

/** A GraphQL root field's description: the operation's, its token rule and what it costs. */
export function rootFieldDescription(operation: OperationDefinition): string {
  return `${operation.description} ${tokenSentence(operation)} ${pointsSentence(operation.cost)}${writesSentence(operation.cost)}`;
}

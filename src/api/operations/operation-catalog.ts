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
import { exportPersonalDataOperation } from './personal-data.operation';
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
import {
  addWebhookOperation,
  deleteWebhookOperation,
  enableWebhookOperation,
  getWebhookDeliveriesOperation,
  getWebhooksOperation,
  redeliverWebhookEventOperation,
  rotateWebhookSecretOperation,
} from './webhook.operation';

/**
 * Every operation of the API, by name, in the order schema/openapi.json lists them. Routes,
 * parameters, costs, token rules and descriptions on both wires follow from here. Adding one
 * with a new output to an existing area is 8 files to edit (a new area's files are listed too:
 * its schemas file in shapes/openapi.schemas.ts; a parameter of a new GraphQL enum or input
 * type, in ARGUMENT_TYPES of src/api/graphql/resolvers/catalog.resolver.ts):
 * 1. the service function (src/services/<area>), context first, and the view it returns;
 * 2. its definition in the `*.operation.ts` of its area (`rest.response` names its answer's
 *    component schema; a serializer in `./shapes` only where the legacy JSON differs from the
 *    view), listed in OPERATIONS below;
 * 3. the output's OpenAPI component schema in `./shapes/openapi.*.ts`;
 * 4. its GraphQL object type (src/api/graphql/types) and one line in ROOT_FIELD_OUTPUTS
 *    (src/api/graphql/resolvers/catalog.outputs.ts: the type and the view's conversion), from
 *    which the root field is built with its arguments and description: no resolver to write,
 *    unless the field does more than run the operation and convert (exportPersonalData, a
 *    subscription); without `graphQL` the operation is REST only, as exportDataSet;
 * 5. the client's method (packages/client/src/quiz-api-client.ts), answering
 *    `WireSchema<'<Output>'>`: no client type to write unless the client transforms the value
 *    (datetimes parsed into Date), then one beside its parse function;
 * 6. `npm run schema:emit` (schema/ and packages/client/src/openapi.generated.ts, the client's
 *    wire types), and a line naming the operation under Unreleased in schema/CHANGELOG.md.
 * test/integration/operation-catalog.contract.test.ts fails, by operation, on a missing root
 * field, client method, answer schema, client type or CHANGELOG line; contracts.contract.test.ts
 * on schema/ or the client's wire types out of date.
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
  exportPersonalData: exportPersonalDataOperation,
  addWebhook: addWebhookOperation,
  getWebhooks: getWebhooksOperation,
  deleteWebhook: deleteWebhookOperation,
  getWebhookDeliveries: getWebhookDeliveriesOperation,
  redeliverWebhookEvent: redeliverWebhookEventOperation,
  rotateWebhookSecret: rotateWebhookSecretOperation,
  enableWebhook: enableWebhookOperation,
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

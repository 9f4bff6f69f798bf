import { DELIVERIES_DEFAULT } from '../../../services/webhooks/webhook-endpoint.service';
import type { OperationName, OPERATIONS } from '../../operations/operation-catalog';
import type { ParameterNameOf } from '../../operations/operation-definition';
import { ItemAttributeObject, toItemAttributeObject } from '../types/item-attribute.type';
import {
  DataSetItemConnectionObject,
  toDataSetItemConnection,
} from '../types/data-set-connection.type';
import {
  ComputedResultPage,
  DataSetObject,
  QuestionStatisticPage,
  QuizPage,
  QuizStatisticPage,
  toDataSetObject,
  UserGroupPage,
  UserPage,
} from '../types/data-set.type';
import { QuizObject, toQuizObject } from '../types/quiz.type';
import { SessionResultsObject, toSessionResultsObject } from '../types/session-results.type';
import {
  AddAnswersResultObject,
  SessionObject,
  toAddAnswersResultObject,
  toSessionObject,
} from '../types/session.type';
import { toUserType, UserType } from '../types/user.type';
import {
  toWebhookDeliveryListObject,
  toWebhookDeliveryObject,
  toWebhookListObject,
  toWebhookObject,
  WebhookDeliveryListObject,
  WebhookDeliveryObject,
  WebhookListObject,
  WebhookObject,
} from '../types/webhook.type';

type Operations = typeof OPERATIONS;

/** The view an operation's `run` returns. */
export type ViewOf<K extends OperationName> = Awaited<ReturnType<Operations[K]['run']>>;

/** What the SDL says of one argument beyond the catalog's type and requiredness. */
export interface ArgumentOptions {
  readonly description?: string;
  /** Printed in the SDL (`pageIndex: Int = 1`): the service's default, said there. */
  readonly defaultValue?: unknown;
}

/** An object type's class (DataSet, the interface of the pages, is abstract). */
export type ObjectTypeClass = abstract new (...args: never[]) => object;

/** A root field's GraphQL answer: its object type, and how the operation's view becomes it. */
export interface RootFieldOutput<K extends OperationName> {
  readonly type: () => ObjectTypeClass;
  readonly from: (view: ViewOf<K>) => unknown;
  readonly args?: Partial<Record<ParameterNameOf<Operations[K]['parameters']>, ArgumentOptions>>;
}

/** Any operation's output, as the generator reads it (each is typed by its operation above). */
export interface AnyRootFieldOutput {
  readonly type: () => ObjectTypeClass;
  readonly from: (view: unknown) => unknown;
  readonly args?: Readonly<Record<string, ArgumentOptions | undefined>>;
}

export type RootFieldOutputs = { readonly [K in OperationName]?: RootFieldOutput<K> };

/**
 * The plain root fields: each runs its catalog operation on its arguments and converts the view,
 * so this line is all it needs on GraphQL (catalog.resolver.ts builds the field). A root field
 * that does more (exportPersonalData, the sessionResults subscription) keeps its own resolver.
 */
export const ROOT_FIELD_OUTPUTS: RootFieldOutputs = {
  getQuiz: { type: () => QuizObject, from: toQuizObject },
  addQuiz: { type: () => QuizObject, from: toQuizObject },
  getUser: { type: () => UserType, from: toUserType },
  getUserAttribute: { type: () => ItemAttributeObject, from: toItemAttributeObject },
  getQuizAttribute: { type: () => ItemAttributeObject, from: toItemAttributeObject },
  getQuizSet: {
    type: () => QuizPage,
    from: toDataSetObject,
    args: { creationDate: { description: 'start,end or one value' } },
  },
  getUserSet: { type: () => UserPage, from: toDataSetObject },
  getUserGroupSet: {
    type: () => UserGroupPage,
    from: toDataSetObject,
    args: { search: { description: 'name prefix' } },
  },
  getDataSetPage: {
    type: () => DataSetObject,
    from: toDataSetObject,
    args: { pageIndex: { defaultValue: 1 } },
  },
  getDataSetItems: { type: () => DataSetItemConnectionObject, from: toDataSetItemConnection },
  computeDataSet: { type: () => DataSetObject, from: toDataSetObject },
  getResults: { type: () => ComputedResultPage, from: toDataSetObject },
  getSessionResults: { type: () => SessionResultsObject, from: toSessionResultsObject },
  getQuestionStatistics: { type: () => QuestionStatisticPage, from: toDataSetObject },
  getQuizStatistics: { type: () => QuizStatisticPage, from: toDataSetObject },
  addSession: { type: () => SessionObject, from: (view) => toSessionObject(view.id, view) },
  getSession: { type: () => SessionObject, from: (view) => toSessionObject(view.id, view) },
  joinSession: { type: () => SessionObject, from: (view) => toSessionObject(view.id, view) },
  addAnswers: { type: () => AddAnswersResultObject, from: toAddAnswersResultObject },
  addWebhook: { type: () => WebhookObject, from: toWebhookObject },
  getWebhooks: { type: () => WebhookListObject, from: toWebhookListObject },
  deleteWebhook: { type: () => WebhookObject, from: toWebhookObject },
  getWebhookDeliveries: {
    type: () => WebhookDeliveryListObject,
    from: toWebhookDeliveryListObject,
    args: { limit: { defaultValue: DELIVERIES_DEFAULT } },
  },
  redeliverWebhookEvent: { type: () => WebhookDeliveryObject, from: toWebhookDeliveryObject },
  rotateWebhookSecret: { type: () => WebhookObject, from: toWebhookObject },
  enableWebhook: { type: () => WebhookObject, from: toWebhookObject },
};

import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { WEBHOOK_EVENT_TYPES } from '../../../domain/webhooks/webhook-events';
import type {
  WebhookAttemptView,
  WebhookDeliveryListView,
  WebhookDeliveryView,
  WebhookListView,
  WebhookView,
} from '../../../services/webhooks/webhook.views';
import { DateTimeScalar } from './date-time.scalar';
import type { RootFieldOutputs } from './root-field.outputs';
import { DELIVERIES_DEFAULT } from '../../../services/webhooks/webhook-endpoint.service';

/**
 * Webhook endpoints and their deliveries (contract.md §16). Event types stay strings
 * (`session.created`): a GraphQL enum value cannot hold a dot, and receivers see these names.
 */

const EVENT_TYPES_SENTENCE = `One of ${WEBHOOK_EVENT_TYPES.join(', ')}.`;

const enumOf = <T extends string>(values: readonly T[]) =>
  Object.fromEntries(values.map((value) => [value, value])) as Record<T, T>;

export const WebhookDeliveryStatusEnum = enumOf(['pending', 'delivered', 'failed'] as const);
registerEnumType(WebhookDeliveryStatusEnum, { name: 'WebhookDeliveryStatus' });
export const WebhookAttemptOutcomeEnum = enumOf(['delivered', 'retry', 'failed'] as const);
registerEnumType(WebhookAttemptOutcomeEnum, {
  name: 'WebhookAttemptOutcome',
  description: 'delivered (2xx), retry (timeout, network error, 5xx, 429) or failed (other).',
});

@ObjectType('Webhook', {
  simpleResolvers: true,
  description: 'A webhook endpoint of the requester.',
})
export class WebhookObject {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  url!: string;

  @Field(() => [String], { description: `The event types it receives. ${EVENT_TYPES_SENTENCE}` })
  events!: string[];

  @Field(() => DateTimeScalar)
  createdAt!: Date;

  @Field(() => Boolean, {
    description: 'False once delivery stopped after failing for 3 days (enableWebhook resumes it).',
  })
  enabled!: boolean;

  @Field(() => DateTimeScalar, { nullable: true })
  disabledAt!: Date | null;

  @Field(() => String, { nullable: true, description: 'Why delivery was stopped.' })
  disabledReason!: string | null;

  @Field(() => DateTimeScalar, {
    nullable: true,
    description: 'Since when deliveries fail without a success in between.',
  })
  failingSince!: Date | null;

  @Field(() => DateTimeScalar, {
    nullable: true,
    description: 'After a rotation: until when the previous secret signs too.',
  })
  previousSecretUntil!: Date | null;

  @Field(() => String, {
    nullable: true,
    description:
      'The signing secret (whsec_…): in the answers of addWebhook and rotateWebhookSecret only, null anywhere else.',
  })
  secret!: string | null;
}

export function toWebhookObject(view: WebhookView): WebhookObject {
  return {
    id: String(view.id),
    url: view.url,
    events: view.events,
    createdAt: view.createdAt,
    enabled: view.enabled,
    disabledAt: view.disabledAt,
    disabledReason: view.disabledReason,
    failingSince: view.failingSince,
    previousSecretUntil: view.previousSecretUntil,
    secret: view.secret ?? null,
  };
}

@ObjectType('WebhookList', {
  simpleResolvers: true,
  description: "The requester's webhook endpoints, oldest first, without secrets.",
})
export class WebhookListObject {
  @Field(() => [WebhookObject])
  webhooks!: WebhookObject[];

  @Field(() => Int, { description: 'How many endpoints a user may have.' })
  maxWebhooks!: number;
}

export function toWebhookListObject(view: WebhookListView): WebhookListObject {
  return { webhooks: view.webhooks.map(toWebhookObject), maxWebhooks: view.maxWebhooks };
}

@ObjectType('WebhookAttempt', { simpleResolvers: true, description: 'One attempt of a delivery.' })
export class WebhookAttemptObject {
  @Field(() => DateTimeScalar)
  attemptedAt!: Date;

  @Field(() => WebhookAttemptOutcomeEnum)
  outcome!: string;

  @Field(() => Int, { nullable: true, description: "The receiver's HTTP status, if any." })
  statusCode!: number | null;

  @Field(() => Int)
  durationMs!: number;

  @Field(() => String, { nullable: true, description: 'Why it did not succeed.' })
  error!: string | null;
}

const toAttemptObject = (view: WebhookAttemptView): WebhookAttemptObject => ({ ...view });

@ObjectType('WebhookDelivery', {
  simpleResolvers: true,
  description: 'One event owed to an endpoint, and its attempts. Never the body sent.',
})
export class WebhookDeliveryObject {
  @Field(() => ID)
  id!: string;

  @Field(() => String, {
    description: "The event's message id: the webhook-id header of every delivery of it.",
  })
  eventId!: string;

  @Field(() => String, { description: EVENT_TYPES_SENTENCE })
  eventType!: string;

  @Field(() => WebhookDeliveryStatusEnum)
  status!: string;

  @Field(() => Int)
  attempts!: number;

  @Field(() => DateTimeScalar)
  createdAt!: Date;

  @Field(() => DateTimeScalar, {
    nullable: true,
    description: 'When it is due next, while pending.',
  })
  nextAttemptAt!: Date | null;

  @Field(() => DateTimeScalar, { nullable: true })
  finishedAt!: Date | null;

  @Field(() => [WebhookAttemptObject])
  attemptList!: WebhookAttemptObject[];
}

export function toWebhookDeliveryObject(view: WebhookDeliveryView): WebhookDeliveryObject {
  return {
    ...view,
    id: String(view.id),
    attemptList: view.attemptList.map(toAttemptObject),
  };
}

@ObjectType('WebhookDeliveryList', {
  simpleResolvers: true,
  description: "An endpoint's most recent deliveries, newest first.",
})
export class WebhookDeliveryListObject {
  @Field(() => ID)
  webhookId!: string;

  @Field(() => [WebhookDeliveryObject])
  deliveries!: WebhookDeliveryObject[];
}

export function toWebhookDeliveryListObject(
  view: WebhookDeliveryListView,
): WebhookDeliveryListObject {
  return {
    webhookId: String(view.webhookId),
    deliveries: view.deliveries.map(toWebhookDeliveryObject),
  };
}

@InputType('WebhookInput', {
  description: 'addWebhook payload; the constraints are those of REST addWebhook.',
})
export class WebhookInput {
  @Field(() => String, {
    description:
      'https, resolving to public addresses only (http and any address only for the hosts WEBHOOK_ALLOWED_HOSTS allows).',
  })
  url!: string;

  @Field(() => [String], {
    nullable: true,
    description: `The event types it receives; every type by default. ${EVENT_TYPES_SENTENCE}`,
  })
  events?: string[];
}

/** The root fields that answer with these types. */
export const WEBHOOK_ROOT_FIELDS: RootFieldOutputs = {
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

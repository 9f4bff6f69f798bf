import {
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOKS_PER_USER,
} from '../../domain/webhooks/webhook-events';
import {
  addWebhook,
  deleteWebhook,
  DELIVERIES_DEFAULT,
  DELIVERIES_MAX,
  enableWebhook,
  getWebhookDeliveries,
  getWebhooks,
  PREVIOUS_SECRET_HOURS,
  redeliverWebhookEvent,
  rotateWebhookSecret,
} from '../../services/webhooks/webhook-endpoint.service';
import { READ, WRITE } from './operation-costs';
import { defineOperation } from './operation-definition';
import {
  integerParameter,
  itemIdParameter,
  nameParameter,
  payloadParameter,
} from './operation-parameters';

/**
 * The webhook operations (contract.md §16): a user's endpoints, their secrets and deliveries.
 * Each is the token's user's own; another user's endpoint answers as one that does not exist.
 */

const TOKEN_REASON = 'an access token is required to manage webhooks';

const webhookId = itemIdParameter('webhookId', 'the webhook endpoint', 'webhook endpoint id');

const EVENT_ID_DESCRIPTION =
  "the event's message id (`msg_…`, the webhook-id header it was sent with)";
const eventId = {
  ...nameParameter('eventId', EVENT_ID_DESCRIPTION),
  schema: { type: 'string', pattern: '^msg_[A-Za-z0-9-]+$', description: EVENT_ID_DESCRIPTION },
};

/** What each event sends, for the descriptions. */
export const WEBHOOK_EVENTS_SENTENCE = `Events (body JSON {type, timestamp, data}): ${WEBHOOK_EVENT_TYPES.map(
  (type) => `${type}: ${WEBHOOK_EVENT_DESCRIPTIONS[type]}`,
).join('; ')}.`;

const SIGNING_SENTENCE =
  'Messages are signed as Standard Webhooks specifies (webhook-id, webhook-timestamp, webhook-signature headers), so receivers verify them with its libraries.';

export const addWebhookOperation = defineOperation({
  name: 'addWebhook',
  description: `Adds a webhook endpoint of the token's user: events are POSTed to its url. The url must be https and resolve to public addresses only (a loopback, private or link-local address is refused) unless the operator allows its host (WEBHOOK_ALLOWED_HOSTS), checked again at each delivery. At most ${WEBHOOKS_PER_USER} endpoints a user. The answer holds the signing secret (whsec_…), shown this once only. ${SIGNING_SENTENCE} ${WEBHOOK_EVENTS_SENTENCE}`,
  graphQL: 'mutation',
  rest: { methods: ['POST'], response: 'Webhook' },
  token: 'required',
  tokenReason: TOKEN_REASON,
  cost: WRITE,
  parameters: [
    payloadParameter(
      'webhook',
      `JSON (schema WebhookInput): url required; events optional (every type by default): ${WEBHOOK_EVENT_TYPES.join(', ')}`,
      'WebhookInput',
    ),
  ],
  run: (ctx, args) => addWebhook(ctx, args.webhook),
});

export const getWebhooksOperation = defineOperation({
  name: 'getWebhooks',
  description:
    "The token's user's webhook endpoints, oldest first, without their secrets: each with the events it receives, whether delivery is enabled and, once it was disabled after failing for 3 days, when and why.",
  graphQL: 'query',
  rest: { methods: ['GET'], response: 'WebhookList' },
  token: 'required',
  tokenReason: TOKEN_REASON,
  cost: READ,
  parameters: [],
  run: (ctx) => getWebhooks(ctx),
});

export const deleteWebhookOperation = defineOperation({
  name: 'deleteWebhook',
  description:
    "Deletes one of the token's user's webhook endpoints, with its deliveries (nothing more is sent to it), and returns it.",
  graphQL: 'mutation',
  rest: { methods: ['POST'], response: 'Webhook' },
  token: 'required',
  tokenReason: TOKEN_REASON,
  cost: WRITE,
  parameters: [webhookId],
  run: (ctx, args) => deleteWebhook(ctx, args.webhookId),
});

export const getWebhookDeliveriesOperation = defineOperation({
  name: 'getWebhookDeliveries',
  description:
    "The most recent deliveries of one of the token's user's webhook endpoints, newest first: the event's id and type, the status (pending, delivered or failed), the attempts with their outcome, HTTP status, duration and error. Never the body sent.",
  graphQL: 'query',
  rest: { methods: ['GET'], response: 'WebhookDeliveryList' },
  token: 'required',
  tokenReason: TOKEN_REASON,
  cost: READ,
  parameters: [
    webhookId,
    integerParameter(
      'limit',
      `how many deliveries, 1 to ${DELIVERIES_MAX} (default ${DELIVERIES_DEFAULT})`,
      { minimum: 1, maximum: DELIVERIES_MAX },
    ),
  ],
  run: (ctx, args) => getWebhookDeliveries(ctx, args.webhookId, args.limit),
});

export const redeliverWebhookEventOperation = defineOperation({
  name: 'redeliverWebhookEvent',
  description:
    "Sends an event again to one of the token's user's webhook endpoints: a new delivery, due now, with the same webhook-id (receivers drop duplicates by it). The event must have been sent to that endpoint. It re-enables nothing: on a disabled endpoint the delivery waits until enableWebhook.",
  graphQL: 'mutation',
  rest: { methods: ['POST'], response: 'WebhookDelivery' },
  token: 'required',
  tokenReason: TOKEN_REASON,
  cost: WRITE,
  parameters: [webhookId, eventId],
  run: (ctx, args) => redeliverWebhookEvent(ctx, args.webhookId, args.eventId),
});

export const rotateWebhookSecretOperation = defineOperation({
  name: 'rotateWebhookSecret',
  description: `Gives one of the token's user's webhook endpoints a new signing secret, shown in this answer only. For ${PREVIOUS_SECRET_HOURS} hours messages carry a signature by each secret, so a receiver verifies with either while it switches.`,
  graphQL: 'mutation',
  rest: { methods: ['POST'], response: 'Webhook' },
  token: 'required',
  tokenReason: TOKEN_REASON,
  cost: WRITE,
  parameters: [webhookId],
  run: (ctx, args) => rotateWebhookSecret(ctx, args.webhookId),
});

export const enableWebhookOperation = defineOperation({
  name: 'enableWebhook',
  description:
    "Resumes delivery to one of the token's user's webhook endpoints that was disabled after failing for 3 days (an enabled one is returned unchanged): events from now on are sent to it, and redeliveries asked for while it was disabled. The deliveries given up when it was disabled are not: redeliverWebhookEvent sends one again.",
  graphQL: 'mutation',
  rest: { methods: ['POST'], response: 'Webhook' },
  token: 'required',
  tokenReason: TOKEN_REASON,
  cost: WRITE,
  parameters: [webhookId],
  run: (ctx, args) => enableWebhook(ctx, args.webhookId),
});

/** Webhook endpoints and their deliveries (contract.md §16). */
export const WEBHOOK_OPERATIONS = {
  addWebhook: addWebhookOperation,
  getWebhooks: getWebhooksOperation,
  deleteWebhook: deleteWebhookOperation,
  getWebhookDeliveries: getWebhookDeliveriesOperation,
  redeliverWebhookEvent: redeliverWebhookEventOperation,
  rotateWebhookSecret: rotateWebhookSecretOperation,
  enableWebhook: enableWebhookOperation,
} as const;

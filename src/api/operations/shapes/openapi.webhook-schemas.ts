import { WEBHOOK_EVENT_TYPES, WEBHOOKS_PER_USER } from '../../../domain/webhooks/webhook-events';

/** JSON Schema (2020-12), as openapi.schemas.ts writes it. */
type JsonSchema = Record<string, unknown>;

/** The component schemas of webhooks (contract.md §16): endpoints and their deliveries. */

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const idString: JsonSchema = { type: 'string', pattern: '^[0-9]+$' };
const legacyDate: JsonSchema = {
  type: 'string',
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$',
  description: 'YYYY-MM-DD hh:mm:ss, UTC',
};
const nullableDate = (description: string): JsonSchema => ({
  ...legacyDate,
  type: ['string', 'null'],
  description: `YYYY-MM-DD hh:mm:ss, UTC: ${description}`,
});
const count: JsonSchema = { type: 'integer', minimum: 0 };
const eventType: JsonSchema = { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] };

/** Every listed field is present (null where empty), but those `optional` names. */
function object(
  properties: Record<string, JsonSchema>,
  description: string,
  optional: readonly string[] = [],
): JsonSchema {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties).filter((name) => !optional.includes(name)),
    additionalProperties: false,
    description,
  };
}

export const WEBHOOK_SCHEMAS: Record<string, JsonSchema> = {
  WebhookInput: {
    type: 'object',
    required: ['url'],
    properties: {
      url: {
        type: 'string',
        maxLength: 2048,
        description:
          'https, resolving to public addresses only (http and any address only for the hosts WEBHOOK_ALLOWED_HOSTS allows); no user name or password',
      },
      events: {
        type: 'array',
        items: eventType,
        minItems: 1,
        description: 'the event types it receives; every type by default',
      },
    },
    description: 'The endpoint addWebhook takes (contract.md §16); unknown fields are ignored.',
  },
  Webhook: object(
    {
      id: idString,
      url: { type: 'string' },
      events: { type: 'array', items: eventType },
      createdAt: legacyDate,
      enabled: {
        type: 'boolean',
        description:
          'false once delivery stopped after failing for 3 days (enableWebhook resumes it)',
      },
      disabledAt: nullableDate('when delivery was stopped; null while enabled'),
      disabledReason: { type: ['string', 'null'], description: 'why delivery was stopped' },
      failingSince: nullableDate('since when deliveries fail without a success; null when not'),
      previousSecretUntil: nullableDate(
        'after a rotation, until when the previous secret signs too; null otherwise',
      ),
      secret: {
        type: 'string',
        pattern: '^whsec_',
        description:
          'the signing secret (Standard Webhooks): in the answers of addWebhook and rotateWebhookSecret only, never again',
      },
    },
    'A webhook endpoint of the requester.',
    ['secret'],
  ),
  WebhookList: object(
    {
      webhooks: { type: 'array', items: ref('Webhook'), maxItems: WEBHOOKS_PER_USER },
      maxWebhooks: {
        type: 'integer',
        minimum: 1,
        description: 'how many endpoints a user may have',
      },
    },
    "The requester's webhook endpoints, oldest first, without secrets.",
  ),
  WebhookAttempt: object(
    {
      attemptedAt: legacyDate,
      outcome: {
        type: 'string',
        enum: ['delivered', 'retry', 'failed'],
        description: 'delivered (2xx), retry (timeout, network error, 5xx, 429) or failed',
      },
      statusCode: { type: ['integer', 'null'], description: "the receiver's HTTP status, if any" },
      durationMs: count,
      error: { type: ['string', 'null'], description: 'why it did not succeed' },
    },
    'One attempt of a delivery.',
  ),
  WebhookDelivery: object(
    {
      id: idString,
      eventId: {
        type: 'string',
        description: "the event's message id: the webhook-id header of every delivery of it",
      },
      eventType,
      status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
      attempts: count,
      createdAt: legacyDate,
      nextAttemptAt: nullableDate('when it is due next, while pending'),
      finishedAt: nullableDate('when it was delivered or given up'),
      attemptList: { type: 'array', items: ref('WebhookAttempt') },
    },
    'One event owed to an endpoint, and its attempts. Never the body sent.',
  ),
  WebhookDeliveryList: object(
    { webhookId: idString, deliveries: { type: 'array', items: ref('WebhookDelivery') } },
    "An endpoint's most recent deliveries, newest first.",
  ),
};

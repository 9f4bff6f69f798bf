import fc from 'fast-check';
import { WEBHOOK_EVENT_TYPES } from '../../../src/domain/webhooks/webhook-events';
import type { GraphQLArgument, RootFieldSpec } from './graphql-fields';
import type { ObjectShape } from './graphql-shapes';
import { anyJson } from './payloads';
import type { FuzzPools } from './pools';
import type { RestOperationSpec } from './rest-requests';
import { hostileText, idValues, integerValues, type ParamValues } from './values';

/*
 * The webhook operations (contract.md §16) for the fuzz suite: their parameters on REST and
 * GraphQL and what their root fields return. No URL the fuzzer draws is reachable (no host is
 * allowed and names do not resolve), so every addWebhook is refused: nothing is ever called.
 */

const URLS = [
  'https://hooks.invalid/x',
  'http://127.0.0.1:9/hook',
  'https://10.0.0.1/',
  'https://169.254.169.254/latest',
  'https://localhost/',
  'https://user:pass@hooks.invalid/',
  'ftp://hooks.invalid/',
  'not a url',
  '',
];

const events = fc.oneof(
  fc.uniqueArray(fc.constantFrom(...WEBHOOK_EVENT_TYPES), { minLength: 1 }),
  fc.array(fc.oneof(fc.constantFrom(...WEBHOOK_EVENT_TYPES, 'quiz.deleted', ''), hostileText), {
    maxLength: 5,
  }),
);

/** addWebhook's payload: `{url, events?}` with odd parts, or any JSON. */
export const webhookPayload: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record(
      { url: fc.oneof(fc.constantFrom(...URLS), hostileText), events },
      { requiredKeys: ['url'] },
    ),
  },
  { weight: 1, arbitrary: anyJson },
);

const eventIdValues: ParamValues = {
  clean: fc.constantFrom('msg_none', 'msg_2f1c3a'),
  any: fc.oneof(fc.constantFrom('msg_', '', ' ', 'msg_%00'), hostileText),
};

const scalar = () => ({ kind: 'scalar' as const });
const scalars = (...names: string[]) => Object.fromEntries(names.map((name) => [name, scalar]));

export const WEBHOOK: ObjectShape = {
  kind: 'object',
  name: 'Webhook',
  fields: scalars(
    'id',
    'url',
    'events',
    'createdAt',
    'enabled',
    'disabledAt',
    'disabledReason',
    'failingSince',
    'previousSecretUntil',
    'secret',
  ),
};
const WEBHOOK_LIST: ObjectShape = {
  kind: 'object',
  name: 'WebhookList',
  fields: { ...scalars('maxWebhooks'), webhooks: () => WEBHOOK },
};
const WEBHOOK_ATTEMPT: ObjectShape = {
  kind: 'object',
  name: 'WebhookAttempt',
  fields: scalars('attemptedAt', 'outcome', 'statusCode', 'durationMs', 'error'),
};
const WEBHOOK_DELIVERY: ObjectShape = {
  kind: 'object',
  name: 'WebhookDelivery',
  fields: {
    ...scalars(
      'id',
      'eventId',
      'eventType',
      'status',
      'attempts',
      'createdAt',
      'nextAttemptAt',
      'finishedAt',
    ),
    attemptList: () => WEBHOOK_ATTEMPT,
  },
};
const WEBHOOK_DELIVERY_LIST: ObjectShape = {
  kind: 'object',
  name: 'WebhookDeliveryList',
  fields: { ...scalars('webhookId'), deliveries: () => WEBHOOK_DELIVERY },
};

/** The REST specs (shaped as rest-requests.ts's RestOperationSpec). */
export function webhookRestSpecs(pools: FuzzPools): RestOperationSpec[] {
  const webhookId = idValues(['1', '2'], pools.unknownId);
  const post = (name: string, params: Record<string, ParamValues>) => ({
    name,
    method: 'POST' as const,
    params,
    required: Object.keys(params),
  });
  return [
    {
      name: 'addWebhook',
      method: 'POST' as const,
      params: {},
      payload: { name: 'webhook', values: webhookPayload },
    },
    { name: 'getWebhooks', method: 'GET' as const, params: {}, required: [] },
    post('deleteWebhook', { webhookId }),
    {
      name: 'getWebhookDeliveries',
      method: 'GET' as const,
      params: { webhookId, limit: integerValues },
      required: ['webhookId'],
    },
    post('redeliverWebhookEvent', { webhookId, eventId: eventIdValues }),
    post('rotateWebhookSecret', { webhookId }),
    post('enableWebhook', { webhookId }),
  ];
}

/** The GraphQL root fields, given how the suite makes an ID argument. */
export function webhookRootFields(
  id: (pool: readonly string[], nonNull?: boolean) => GraphQLArgument,
  int: GraphQLArgument,
): RootFieldSpec[] {
  const webhookId = id(['1', '2'], true);
  const mutation = (name: string, args: Record<string, GraphQLArgument>, returns: ObjectShape) => ({
    name,
    operation: 'mutation' as const,
    args,
    returns,
  });
  return [
    mutation(
      'addWebhook',
      { webhook: { type: 'WebhookInput!', clean: webhookPayload, any: webhookPayload } },
      WEBHOOK,
    ),
    { name: 'getWebhooks', operation: 'query', args: {}, returns: WEBHOOK_LIST },
    mutation('deleteWebhook', { webhookId }, WEBHOOK),
    {
      name: 'getWebhookDeliveries',
      operation: 'query',
      args: { webhookId, limit: int },
      returns: WEBHOOK_DELIVERY_LIST,
    },
    mutation(
      'redeliverWebhookEvent',
      { webhookId, eventId: { type: 'String!', ...eventIdValues } },
      WEBHOOK_DELIVERY,
    ),
    mutation('rotateWebhookSecret', { webhookId }, WEBHOOK),
    mutation('enableWebhook', { webhookId }, WEBHOOK),
  ];
}

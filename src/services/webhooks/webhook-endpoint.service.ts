import type { RequestContext } from '../../context/request-context';
import type { WebhookEndpoint } from '../../db/entities';
import { toNumber } from '../../db/sql/dialect';
import {
  webhookAttemptsOf,
  webhookDeliveriesOf,
  webhookDeliveryOf,
  webhookEventOwedTo,
} from '../../db/sql/webhook-endpoint.sql';
import {
  countWebhookEndpointsOf,
  countWebhookEndpointsUpTo,
  deleteWebhookEndpoint,
  insertWebhookEndpoint,
  insertWebhookRedelivery,
  updateWebhookEndpoint,
  webhookEndpointById,
  webhookEndpointsOf,
} from '../../db/webhook-endpoints.store';
import {
  isWebhookEventType,
  WEBHOOK_EVENT_TYPES,
  WEBHOOKS_PER_USER,
  type WebhookEventType,
} from '../../domain/webhooks/webhook-events';
import { isFields } from '../../domain/validation/checks';
import { Errors } from '../../errors';
import { checkOutboundUrl } from '../../security/outbound-address';
import { createSecretBox } from '../../security/secret-box';
import { isGiven, parseIntegerParam, type RawParam } from '../sets/data-set.params';
import { newWebhookSecret } from './webhook-signing';
import {
  secondsOfMs,
  webhookView,
  type WebhookAttemptView,
  type WebhookDeliveryListView,
  type WebhookDeliveryView,
  type WebhookListView,
  type WebhookView,
} from './webhook.views';

/**
 * A user's webhook endpoints (contract.md §16): added, listed, deleted, re-enabled, their secret
 * rotated, their deliveries read and an event sent again. Every operation is the requester's
 * own: another user's endpoint reads as one that does not exist.
 */

/** How long the previous secret keeps signing after a rotation. */
export const PREVIOUS_SECRET_HOURS = 24;
/** getWebhookDeliveries: how many by default, and at most. */
export const DELIVERIES_DEFAULT = 50;
export const DELIVERIES_MAX = 200;
/** The longest URL the column holds. */
const URL_MAX_LENGTH = 2048;

type Row = Record<string, unknown>;

/** The requester's user id; an anonymous key and an operator have no endpoints. */
function ownerOf(ctx: RequestContext): number {
  const { requester } = ctx;
  if (requester.kind !== 'user') {
    throw Errors.unauthenticated(ctx.operation, 'an access token is required to manage webhooks');
  }
  return requester.userId;
}

/** The requester's endpoint of an id; any other reads as absent (no existence is told). */
async function ownEndpoint(ctx: RequestContext, webhookId: number): Promise<WebhookEndpoint> {
  const endpoint = await webhookEndpointById(ctx.db, webhookId);
  if (!endpoint || endpoint.ownerId !== ownerOf(ctx)) {
    throw Errors.notFound(
      ctx.operation,
      'webhookId',
      String(webhookId),
      `webhook ${webhookId} does not exist`,
    );
  }
  return endpoint;
}

/** The `events` of a payload: every type when absent, else known types, in the catalog's order. */
function eventTypes(ctx: RequestContext, raw: unknown): WebhookEventType[] {
  if (raw === undefined || raw === null) return [...WEBHOOK_EVENT_TYPES];
  if (!Array.isArray(raw) || raw.length === 0) {
    throw Errors.badParameter(
      ctx.operation,
      'webhook.events',
      raw,
      `must be a non-empty list of event types (${WEBHOOK_EVENT_TYPES.join(', ')})`,
    );
  }
  raw.forEach((type: unknown, index) => {
    if (!isWebhookEventType(type)) {
      throw Errors.badParameter(
        ctx.operation,
        `webhook.events[${index}]`,
        type,
        `is not an event type: one of ${WEBHOOK_EVENT_TYPES.join(', ')}`,
      );
    }
  });
  const listed = new Set<unknown>(raw);
  return WEBHOOK_EVENT_TYPES.filter((type) => listed.has(type));
}

/** The payload's URL, checked by the outbound guard (https, no private address, ...). */
async function checkedUrl(ctx: RequestContext, raw: unknown): Promise<string> {
  if (raw === undefined || raw === null || raw === '') {
    throw Errors.missingParameter(ctx.operation, 'webhook.url');
  }
  if (typeof raw !== 'string') {
    throw Errors.badParameter(ctx.operation, 'webhook.url', raw, 'must be a text');
  }
  if (raw.length > URL_MAX_LENGTH) {
    throw Errors.badParameter(
      ctx.operation,
      'webhook.url',
      raw,
      `must be at most ${URL_MAX_LENGTH} characters`,
    );
  }
  const checked = await checkOutboundUrl(
    ctx.operation,
    raw,
    { allowedHosts: ctx.config.webhooks.allowedHosts },
    'webhook.url',
  );
  // Normalised (non-ASCII percent-encoded), the URL may grow past what is stored.
  const { href } = checked.url;
  if (href.length > URL_MAX_LENGTH) {
    throw Errors.badParameter(
      ctx.operation,
      'webhook.url',
      raw,
      `must be at most ${URL_MAX_LENGTH} characters once normalised (it makes ${href.length})`,
    );
  }
  return href;
}

/**
 * addWebhook: a new endpoint of the requester, `{url, events?}`. Its secret is in this answer
 * only; it is stored sealed.
 */
export async function addWebhook(ctx: RequestContext, raw: unknown): Promise<WebhookView> {
  const ownerId = ownerOf(ctx);
  if (raw === undefined || raw === null || raw === '') {
    throw Errors.missingParameter(ctx.operation, 'webhook');
  }
  if (!isFields(raw)) {
    throw Errors.badParameter(ctx.operation, 'webhook', raw, 'must be a JSON object');
  }
  const url = await checkedUrl(ctx, raw.url);
  const events = eventTypes(ctx, raw.events);
  const tooMany = () =>
    Errors.badParameter(
      ctx.operation,
      'webhook',
      { url },
      `a user may have at most ${WEBHOOKS_PER_USER} webhook endpoints: delete one first`,
    );
  if ((await countWebhookEndpointsOf(ctx.db, ownerId)) >= WEBHOOKS_PER_USER) throw tooMany();
  await ctx.admission.wait();
  const secret = newWebhookSecret();
  const box = createSecretBox(ctx.config.webhooks.secretKey);
  const endpoint = await insertWebhookEndpoint(
    ctx.db,
    { ownerId, url, events: events.join(',') },
    (id) => box.seal(secret, String(id)),
  );
  // Two adds racing past the count: the later ids are taken back, so the limit holds.
  if ((await countWebhookEndpointsUpTo(ctx.db, ownerId, endpoint.id)) > WEBHOOKS_PER_USER) {
    await deleteWebhookEndpoint(ctx.db, endpoint.id);
    throw tooMany();
  }
  return webhookView(endpoint, secret);
}

/** getWebhooks: the requester's endpoints, oldest first, without secrets. */
export async function getWebhooks(ctx: RequestContext): Promise<WebhookListView> {
  const endpoints = await webhookEndpointsOf(ctx.db, ownerOf(ctx));
  return {
    webhooks: endpoints.map((endpoint) => webhookView(endpoint)),
    maxWebhooks: WEBHOOKS_PER_USER,
  };
}

/** deleteWebhook: deletes one of the requester's endpoints, its deliveries with it. */
export async function deleteWebhook(ctx: RequestContext, webhookId: number): Promise<WebhookView> {
  const endpoint = await ownEndpoint(ctx, webhookId);
  await ctx.admission.wait();
  await deleteWebhookEndpoint(ctx.db, endpoint.id);
  return webhookView(endpoint);
}

/**
 * rotateWebhookSecret: a new secret, in this answer only; the previous one keeps signing beside
 * it for PREVIOUS_SECRET_HOURS, so receivers switch without losing a message.
 */
export async function rotateWebhookSecret(
  ctx: RequestContext,
  webhookId: number,
): Promise<WebhookView> {
  const endpoint = await ownEndpoint(ctx, webhookId);
  await ctx.admission.wait();
  const secret = newWebhookSecret();
  const box = createSecretBox(ctx.config.webhooks.secretKey);
  const changes = {
    secretSealed: box.seal(secret, String(endpoint.id)),
    // Sealed for the same row: the sealed text of the current secret stays valid as it is.
    previousSecretSealed: endpoint.secretSealed,
    previousSecretUntil: new Date(Date.now() + PREVIOUS_SECRET_HOURS * 3_600_000),
  };
  await updateWebhookEndpoint(ctx.db, endpoint.id, changes);
  return webhookView({ ...endpoint, ...changes }, secret);
}

/**
 * enableWebhook: delivery resumes for an endpoint disabled after failing for days (its failing
 * streak starts afresh). What was given up when it was disabled stays so: redeliverWebhookEvent.
 */
export async function enableWebhook(ctx: RequestContext, webhookId: number): Promise<WebhookView> {
  const endpoint = await ownEndpoint(ctx, webhookId);
  if (endpoint.disabledAt === null) return webhookView(endpoint);
  await ctx.admission.wait();
  const changes = { disabledAt: null, disabledReason: null, failingSince: null };
  await updateWebhookEndpoint(ctx.db, endpoint.id, changes);
  return webhookView({ ...endpoint, ...changes });
}

const attemptView = (row: Row): WebhookAttemptView => ({
  attemptedAt: secondsOfMs(toNumber(row.attempted_ms)),
  outcome: String(row.outcome) as WebhookAttemptView['outcome'],
  statusCode: row.status_code === null ? null : toNumber(row.status_code),
  durationMs: toNumber(row.duration_ms),
  error: row.error === null ? null : String(row.error),
});

/** Delivery rows with their attempts (one more statement for all of them). */
async function deliveryViews(ctx: RequestContext, rows: Row[]): Promise<WebhookDeliveryView[]> {
  const ids = rows.map((row) => toNumber(row.id));
  const attempts = new Map<number, WebhookAttemptView[]>(ids.map((id) => [id, []]));
  if (ids.length > 0) {
    const { sql, params } = webhookAttemptsOf(ids);
    for (const row of await ctx.db.writeRows.rows<Row>(sql, params)) {
      attempts.get(toNumber(row.delivery_id))?.push(attemptView(row));
    }
  }
  return rows.map((row) => {
    const id = toNumber(row.id);
    const status = String(row.status) as WebhookDeliveryView['status'];
    return {
      id,
      eventId: String(row.message_id),
      eventType: String(row.type),
      status,
      attempts: toNumber(row.attempts),
      createdAt: secondsOfMs(toNumber(row.created_ms)),
      nextAttemptAt: status === 'pending' ? secondsOfMs(toNumber(row.due_ms)) : null,
      finishedAt: row.finished_ms === null ? null : secondsOfMs(toNumber(row.finished_ms)),
      attemptList: attempts.get(id) ?? [],
    };
  });
}

/** getWebhookDeliveries: an endpoint's most recent deliveries, newest first; never a body. */
export async function getWebhookDeliveries(
  ctx: RequestContext,
  webhookId: number,
  limit: RawParam,
): Promise<WebhookDeliveryListView> {
  const count = isGiven(limit)
    ? parseIntegerParam(ctx.operation, 'limit', limit, 1, DELIVERIES_MAX)
    : DELIVERIES_DEFAULT;
  const endpoint = await ownEndpoint(ctx, webhookId);
  const { sql, params } = webhookDeliveriesOf(endpoint.id, count);
  const rows = await ctx.db.writeRows.rows<Row>(sql, params);
  return { webhookId: endpoint.id, deliveries: await deliveryViews(ctx, rows) };
}

/**
 * redeliverWebhookEvent: one more delivery of an event the endpoint was owed, due now, with the
 * same webhook-id. It re-enables nothing: a disabled endpoint's delivery waits for enableWebhook.
 */
export async function redeliverWebhookEvent(
  ctx: RequestContext,
  webhookId: number,
  eventId: string,
): Promise<WebhookDeliveryView> {
  const endpoint = await ownEndpoint(ctx, webhookId);
  // Every event id is a message id (webhook-signing.ts): anything else is malformed, not absent.
  if (!/^msg_[A-Za-z0-9-]+$/.test(eventId)) {
    throw Errors.badParameter(ctx.operation, 'eventId', eventId, 'must be a message id: msg_…');
  }
  const owed = webhookEventOwedTo(endpoint.id, eventId);
  const [event] = await ctx.db.writeRows.rows<Row>(owed.sql, owed.params);
  if (!event) {
    throw Errors.notFound(
      ctx.operation,
      'eventId',
      eventId,
      `event ${eventId} was never sent to webhook ${webhookId}`,
    );
  }
  await ctx.admission.wait();
  const deliveryId = await insertWebhookRedelivery(
    ctx.db,
    toNumber(event.id),
    endpoint.id,
    Date.now(),
  );
  const read = webhookDeliveryOf(endpoint.id, deliveryId);
  const [view] = await deliveryViews(ctx, await ctx.db.writeRows.rows<Row>(read.sql, read.params));
  return view as WebhookDeliveryView;
}

import { wholeSeconds } from '../../db/entities/column-types';
import type { WebhookEndpoint } from '../../db/entities';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../domain/webhooks/webhook-events';

/**
 * Webhook endpoints and their deliveries as their owner sees them (contract.md §16): ids as
 * numbers, datetimes as Date. Never a payload; a secret only in the answer that made it.
 */

export interface WebhookView {
  id: number;
  url: string;
  /** The event types it receives, in the catalog's order. */
  events: WebhookEventType[];
  createdAt: Date;
  /** False once delivery stopped after failures (disabledAt, disabledReason say when and why). */
  enabled: boolean;
  disabledAt: Date | null;
  disabledReason: string | null;
  /** Since when its deliveries fail without a success in between; null when they do not. */
  failingSince: Date | null;
  /** The signing secret: only in the answers of addWebhook and rotateWebhookSecret. */
  secret?: string;
  /** During a rotation: until when the previous secret still signs too. */
  previousSecretUntil: Date | null;
}

/** The endpoints of the requester, and how many they may have. */
export interface WebhookListView {
  webhooks: WebhookView[];
  maxWebhooks: number;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';
export type WebhookAttemptOutcomeName = 'delivered' | 'retry' | 'failed';

export interface WebhookAttemptView {
  attemptedAt: Date;
  outcome: WebhookAttemptOutcomeName;
  /** The receiver's HTTP status, when it answered. */
  statusCode: number | null;
  durationMs: number;
  /** Why it did not succeed, in the service's words (never the receiver's body). */
  error: string | null;
}

export interface WebhookDeliveryView {
  id: number;
  /** The event's message id: the `webhook-id` header of every (re)delivery of it. */
  eventId: string;
  eventType: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  createdAt: Date;
  /** When it is due next, while pending. */
  nextAttemptAt: Date | null;
  finishedAt: Date | null;
  attemptList: WebhookAttemptView[];
}

/** The recent deliveries of one endpoint, newest first. */
export interface WebhookDeliveryListView {
  webhookId: number;
  deliveries: WebhookDeliveryView[];
}

/** Whole seconds, as both wires write datetimes (REST has no smaller unit). */
export const seconds = (date: Date | null): Date | null =>
  date === null ? null : wholeSeconds(date);

/** An epoch-milliseconds column as a datetime of whole seconds. */
export const secondsOfMs = (ms: number): Date => wholeSeconds(new Date(ms));

/** The event types of an endpoint's `events` column, in the catalog's order. */
export function eventTypesOf(column: string): WebhookEventType[] {
  const listed = new Set(column.split(','));
  return WEBHOOK_EVENT_TYPES.filter((type) => listed.has(type));
}

/** An endpoint as its owner sees it; its secret only when given (just made or rotated). */
export function webhookView(
  endpoint: WebhookEndpoint,
  secret?: string,
  now = new Date(),
): WebhookView {
  const rotating =
    endpoint.previousSecretUntil !== null && endpoint.previousSecretUntil.getTime() > now.getTime();
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: eventTypesOf(endpoint.events),
    createdAt: wholeSeconds(endpoint.createdAt),
    enabled: endpoint.disabledAt === null,
    disabledAt: seconds(endpoint.disabledAt),
    disabledReason: endpoint.disabledReason,
    failingSince: seconds(endpoint.failingSince),
    ...(secret === undefined ? {} : { secret }),
    previousSecretUntil: rotating ? seconds(endpoint.previousSecretUntil) : null,
  };
}

import type {
  WebhookAttemptView,
  WebhookDeliveryListView,
  WebhookDeliveryView,
  WebhookListView,
  WebhookView,
} from '../../../services/webhooks/webhook.views';
import { legacyDate, legacyId } from './legacy-format';

/**
 * Webhook endpoints and deliveries on REST (contract.md §16): ids as strings, datetimes
 * `YYYY-MM-DD hh:mm:ss` UTC, null where a value is empty; `secret` only where it is shown.
 */

const dateOrNull = (date: Date | null): string | null => (date === null ? null : legacyDate(date));

export function serializeWebhook(view: WebhookView): Record<string, unknown> {
  return {
    id: legacyId(view.id),
    url: view.url,
    events: view.events,
    createdAt: legacyDate(view.createdAt),
    enabled: view.enabled,
    disabledAt: dateOrNull(view.disabledAt),
    disabledReason: view.disabledReason,
    failingSince: dateOrNull(view.failingSince),
    previousSecretUntil: dateOrNull(view.previousSecretUntil),
    ...(view.secret === undefined ? {} : { secret: view.secret }),
  };
}

export function serializeWebhookList(view: WebhookListView): Record<string, unknown> {
  return { webhooks: view.webhooks.map(serializeWebhook), maxWebhooks: view.maxWebhooks };
}

const serializeAttempt = (attempt: WebhookAttemptView) => ({
  attemptedAt: legacyDate(attempt.attemptedAt),
  outcome: attempt.outcome,
  statusCode: attempt.statusCode,
  durationMs: attempt.durationMs,
  error: attempt.error,
});

export function serializeWebhookDelivery(view: WebhookDeliveryView): Record<string, unknown> {
  return {
    id: legacyId(view.id),
    eventId: view.eventId,
    eventType: view.eventType,
    status: view.status,
    attempts: view.attempts,
    createdAt: legacyDate(view.createdAt),
    nextAttemptAt: dateOrNull(view.nextAttemptAt),
    finishedAt: dateOrNull(view.finishedAt),
    attemptList: view.attemptList.map(serializeAttempt),
  };
}

export function serializeWebhookDeliveryList(
  view: WebhookDeliveryListView,
): Record<string, unknown> {
  return {
    webhookId: legacyId(view.webhookId),
    deliveries: view.deliveries.map(serializeWebhookDelivery),
  };
}

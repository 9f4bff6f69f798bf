import type { SqlFragment } from './sql-fragment';
import type { PersonalPage } from './personal-data.sql';

/**
 * The reads of the webhook operations (contract.md §16) that the endpoints store does not make:
 * an endpoint's deliveries with their event's id and type (never its body), their attempts, and
 * the event a redelivery names. Times are epoch milliseconds (bigint: a string on MySQL).
 */

/** The most recent deliveries of an endpoint, newest first. */
export function webhookDeliveriesOf(endpointId: number, limit: number): SqlFragment {
  return {
    sql: `SELECT d.id, e.message_id, e.type, d.status, d.attempts, d.due_ms, d.created_ms,
                 d.finished_ms
          FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
          WHERE d.endpoint_id = ? ORDER BY d.id DESC LIMIT ?`,
    params: [endpointId, limit],
  };
}

/** One delivery of an endpoint, as webhookDeliveriesOf reads it. */
export function webhookDeliveryOf(endpointId: number, deliveryId: number): SqlFragment {
  return {
    sql: `SELECT d.id, e.message_id, e.type, d.status, d.attempts, d.due_ms, d.created_ms,
                 d.finished_ms
          FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
          WHERE d.endpoint_id = ? AND d.id = ?`,
    params: [endpointId, deliveryId],
  };
}

/** The attempts of some deliveries, in the order they were made. */
export function webhookAttemptsOf(deliveryIds: readonly number[]): SqlFragment {
  return {
    sql: `SELECT delivery_id, attempted_ms, outcome, status_code, duration_ms, error
          FROM webhook_attempts WHERE delivery_id IN (${deliveryIds.map(() => '?').join(', ')})
          ORDER BY delivery_id, id`,
    params: [...deliveryIds],
  };
}

/** The event of a message id, if it was ever owed to the endpoint (a delivery of it exists). */
export function webhookEventOwedTo(endpointId: number, messageId: string): SqlFragment {
  return {
    sql: `SELECT e.id FROM webhook_events e
          WHERE e.message_id = ?
            AND EXISTS (SELECT 1 FROM webhook_deliveries d
                        WHERE d.event_id = e.id AND d.endpoint_id = ?)`,
    params: [messageId, endpointId],
  };
}

/** The person's webhook endpoints for their export (§14.3): never a secret. */
export const personalWebhooksPage: PersonalPage = (userId, after, limit) => ({
  sql: `SELECT id AS k, url, events, created_at, disabled_at, disabled_reason
        FROM webhook_endpoints WHERE owner_id = ? AND id > ? ORDER BY id LIMIT ?`,
  params: [userId, after, limit],
});

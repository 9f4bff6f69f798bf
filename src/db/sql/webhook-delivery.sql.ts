import type { Dialect, SqlDate } from './dialect';
import type { SqlFragment } from './sql-fragment';

/**
 * The statements of the webhook delivery engine (contract.md §16): the dispatcher turns outbox
 * entries into events and deliveries; any instance claims due deliveries by a lease on their
 * rows (an UPDATE, then a read of the rows it leased: no SELECT … FOR UPDATE SKIP LOCKED, which
 * Galera does not make safe across nodes); every outcome is written only while the lease holds.
 */

/** Up to `limit` outbox entries, oldest first. */
export function outboxEntries(limit: number): SqlFragment {
  return {
    sql: `SELECT id, type, subject_id, audience_id, data, created_ms FROM webhook_outbox
          ORDER BY id LIMIT ?`,
    params: [limit],
  };
}

/**
 * Deletes outbox entries by id. The caller checks that it deleted them all: fewer means another
 * instance dispatched them meanwhile, and its transaction is rolled back.
 */
export function deleteOutboxEntries(dialect: Dialect, ids: readonly number[]): SqlFragment {
  return {
    sql: `DELETE FROM webhook_outbox WHERE id IN (${dialect.placeholders(ids.length)})`,
    params: [...ids],
  };
}

/** The ids of the enabled endpoints of `ownerId` that listen for `type`. */
export function listeningEndpoints(ownerId: number, type: string): SqlFragment {
  return {
    sql: `SELECT id FROM webhook_endpoints
          WHERE owner_id = ? AND disabled_at IS NULL AND events LIKE ? ORDER BY id`,
    // Event type names never contain one another, nor LIKE's wildcards.
    params: [ownerId, `%${type}%`],
  };
}

export function insertEvent(
  messageId: string,
  type: string,
  body: string,
  createdMs: number,
): SqlFragment {
  return {
    sql: `INSERT INTO webhook_events (message_id, type, body, created_ms) VALUES (?, ?, ?, ?)`,
    params: [messageId, type, body, createdMs],
  };
}

/** One pending delivery of the event to each endpoint, due at once. */
export function insertDeliveries(
  dialect: Dialect,
  eventId: number,
  endpointIds: readonly number[],
  nowMs: number,
): SqlFragment {
  const columns = [
    'event_id',
    'endpoint_id',
    'status',
    'attempts',
    'due_ms',
    'lease_id',
    'lease_until_ms',
    'created_ms',
  ];
  return {
    sql: dialect.insertRows('webhook_deliveries', columns, endpointIds.length),
    params: endpointIds.flatMap((endpointId) => [
      eventId,
      endpointId,
      'pending',
      0,
      nowMs,
      null,
      0,
      nowMs,
    ]),
  };
}

/** Pending, due, not leased (or its lease ran out), and its endpoint enabled. */
const CLAIMABLE = `status = 'pending' AND due_ms <= ? AND lease_until_ms < ?
  AND EXISTS (SELECT 1 FROM webhook_endpoints e
              WHERE e.id = webhook_deliveries.endpoint_id AND e.disabled_at IS NULL)`;

/**
 * Leases up to `limit` due deliveries, earliest first, to `leaseId` until `leaseUntilMs`. One
 * statement: two instances never both lease a row (the second sees the first's lease), and a
 * lease that ran out (its instance died) is taken over. MySQL takes ORDER BY and LIMIT in an
 * UPDATE but no LIMIT in a subquery of IN; SQLite the other way round.
 */
export function claimDeliveries(
  dialect: Dialect,
  leaseId: string,
  leaseUntilMs: number,
  nowMs: number,
  limit: number,
): SqlFragment {
  const set = 'UPDATE webhook_deliveries SET lease_id = ?, lease_until_ms = ?';
  const params = [leaseId, leaseUntilMs, nowMs, nowMs, limit];
  if (dialect.name === 'mysql') {
    return { sql: `${set} WHERE ${CLAIMABLE} ORDER BY due_ms, id LIMIT ?`, params };
  }
  return {
    sql: `${set} WHERE id IN (SELECT id FROM webhook_deliveries
            WHERE ${CLAIMABLE} ORDER BY due_ms, id LIMIT ?)`,
    params,
  };
}

/**
 * Whether a delivery is claimable now: read first, so that an idle instance polls with a read
 * (a write on SQLite waits for the single writer; one on Galera is certified by every node).
 */
export function anyClaimable(nowMs: number): SqlFragment {
  return {
    sql: `SELECT 1 AS due FROM webhook_deliveries WHERE ${CLAIMABLE} LIMIT 1`,
    params: [nowMs, nowMs],
  };
}

/** The deliveries leased to `leaseId`, with their event and their endpoint's address and secrets. */
export function leasedDeliveries(leaseId: string): SqlFragment {
  return {
    sql: `SELECT d.id, d.endpoint_id, d.attempts, d.created_ms, v.message_id, v.body, v.created_ms AS event_created_ms,
                 e.url, e.secret_sealed, e.previous_secret_sealed, e.previous_secret_until
            FROM webhook_deliveries d
            JOIN webhook_events v ON v.id = d.event_id
            JOIN webhook_endpoints e ON e.id = d.endpoint_id
           WHERE d.lease_id = ? ORDER BY d.due_ms, d.id`,
    params: [leaseId],
  };
}

export interface AttemptRow {
  deliveryId: number;
  attemptedMs: number;
  outcome: 'delivered' | 'retry' | 'failed';
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export function insertAttempt(attempt: AttemptRow): SqlFragment {
  return {
    sql: `INSERT INTO webhook_attempts
            (delivery_id, attempted_ms, outcome, status_code, duration_ms, error)
          VALUES (?, ?, ?, ?, ?, ?)`,
    params: [
      attempt.deliveryId,
      attempt.attemptedMs,
      attempt.outcome,
      attempt.statusCode,
      attempt.durationMs,
      attempt.error,
    ],
  };
}

/** Ends a delivery (delivered or failed) while `leaseId` still holds it. */
export function finishDelivery(
  deliveryId: number,
  leaseId: string,
  status: 'delivered' | 'failed',
  nowMs: number,
): SqlFragment {
  return {
    sql: `UPDATE webhook_deliveries
             SET status = ?, finished_ms = ?, attempts = attempts + 1,
                 lease_id = NULL, lease_until_ms = 0
           WHERE id = ? AND lease_id = ?`,
    params: [status, nowMs, deliveryId, leaseId],
  };
}

/** Schedules the next attempt of a delivery while `leaseId` still holds it. */
export function rescheduleDelivery(
  deliveryId: number,
  leaseId: string,
  dueMs: number,
): SqlFragment {
  return {
    sql: `UPDATE webhook_deliveries
             SET due_ms = ?, attempts = attempts + 1, lease_id = NULL, lease_until_ms = 0
           WHERE id = ? AND lease_id = ?`,
    params: [dueMs, deliveryId, leaseId],
  };
}

/** Marks an endpoint failing from `now`, unless it is already. */
export function markEndpointFailing(endpointId: number, now: SqlDate): SqlFragment {
  return {
    sql: `UPDATE webhook_endpoints SET failing_since = ?
           WHERE id = ? AND failing_since IS NULL`,
    params: [now, endpointId],
  };
}

/** A success ends the endpoint's failing streak. */
export function clearEndpointFailing(endpointId: number): SqlFragment {
  return {
    sql: `UPDATE webhook_endpoints SET failing_since = NULL
           WHERE id = ? AND failing_since IS NOT NULL`,
    params: [endpointId],
  };
}

/**
 * Disables an endpoint failing since `failingBefore` or earlier (affects no row otherwise, or
 * when a success cleared it meanwhile, or when it is disabled already).
 */
export function disableFailingEndpoint(
  endpointId: number,
  now: SqlDate,
  failingBefore: SqlDate,
  reason: string,
): SqlFragment {
  return {
    sql: `UPDATE webhook_endpoints SET disabled_at = ?, disabled_reason = ?
           WHERE id = ? AND disabled_at IS NULL
             AND failing_since IS NOT NULL AND failing_since <= ?`,
    params: [now, reason, endpointId, failingBefore],
  };
}

/**
 * The pending deliveries of an endpoint disabled for its failures end as failed: a receiver
 * down for days would otherwise be sent stale events the moment its owner enables it again.
 */
export function failPendingDeliveriesOf(endpointId: number, nowMs: number): SqlFragment {
  return {
    sql: `UPDATE webhook_deliveries
             SET status = 'failed', finished_ms = ?, lease_id = NULL, lease_until_ms = 0
           WHERE endpoint_id = ? AND status = 'pending'`,
    params: [nowMs, endpointId],
  };
}

/**
 * Up to `limit` deliveries finished before `cutoffMs`, or created before it and never finished
 * (those of an endpoint disabled by its owner): their attempts go with them (foreign keys).
 */
export function expiredDeliveries(cutoffMs: number, limit: number): SqlFragment {
  return {
    sql: `SELECT id FROM webhook_deliveries
           WHERE (status <> 'pending' AND finished_ms < ?) OR created_ms < ?
           LIMIT ?`,
    params: [cutoffMs, cutoffMs, limit],
  };
}

export function deleteDeliveries(dialect: Dialect, ids: readonly number[]): SqlFragment {
  return {
    sql: `DELETE FROM webhook_deliveries WHERE id IN (${dialect.placeholders(ids.length)})`,
    params: [...ids],
  };
}

/** Up to `limit` events created before `cutoffMs` that no delivery refers to any more. */
export function expiredEvents(cutoffMs: number, limit: number): SqlFragment {
  return {
    sql: `SELECT v.id FROM webhook_events v
           WHERE v.created_ms < ?
             AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = v.id)
           LIMIT ?`,
    params: [cutoffMs, limit],
  };
}

/** Deletes events by id, checking again that no delivery refers to them. */
export function deleteEvents(dialect: Dialect, ids: readonly number[]): SqlFragment {
  return {
    sql: `DELETE FROM webhook_events WHERE id IN (${dialect.placeholders(ids.length)})
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)`,
    params: [...ids],
  };
}

/**
 * The queue for the metrics: pending deliveries (those of endpoints disabled by their owners too), outbox entries not yet
 * dispatched, and the epoch ms of the oldest of either (null when both are empty).
 */
export function queueDepth(): SqlFragment {
  return {
    sql: `SELECT
            (SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'pending') AS pending,
            (SELECT COUNT(*) FROM webhook_outbox) AS outbox,
            (SELECT MIN(created_ms) FROM webhook_deliveries WHERE status = 'pending') AS oldest_pending,
            (SELECT MIN(created_ms) FROM webhook_outbox) AS oldest_outbox`,
    params: [],
  };
}

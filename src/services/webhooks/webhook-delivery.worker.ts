import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../context/request-context';
import { toNumber } from '../../db/sql/dialect';
import { isRetryableConflict } from '../../db/sql-errors';
import {
  anyClaimable,
  claimDeliveries,
  clearEndpointFailing,
  disableFailingEndpoint,
  failPendingDeliveriesOf,
  finishDelivery,
  insertAttempt,
  leasedDeliveries,
  markEndpointFailing,
  rescheduleDelivery,
} from '../../db/sql/webhook-delivery.sql';
import {
  DISABLE_AFTER_FAILING_MS,
  DISABLED_FOR_FAILURES_REASON,
  planRetry,
} from '../../domain/webhooks/webhook-retry';
import { checkOutboundUrl, isUnresolvedHost } from '../../security/outbound-address';
import { createSecretBox } from '../../security/secret-box';
import {
  sendWebhook,
  WEBHOOK_TIMEOUT_MS,
  type WebhookAttemptOutcome,
  type WebhookSendOptions,
} from './webhook-sender';
import { signWebhookMessage, type SigningSecrets } from './webhook-signing';
import { readRows, runAlone } from './webhook-statements';

/**
 * The delivery worker (contract.md §16): leases due deliveries, sends each signed to its
 * endpoint's address as checked at this very attempt, records the attempt and the outcome
 * (delivered, retried later, or failed) while its lease holds, and keeps the endpoint's health.
 * Logs name the delivery and endpoint ids, outcome and status: never a URL, secret or payload.
 */

/** How long a claim holds: longer than an attempt may take (10 s), with room to record it. */
export const LEASE_MS = 60_000;
/** Sends in flight at once per instance. */
export const DELIVERY_CONCURRENCY = 8;
/** Room left in a lease for recording an attempt after its longest send. */
const RECORD_MARGIN_MS = 5_000;

/** The operation name the outbound guard's refusals carry. */
const OPERATION = 'webhookDelivery';
const ERROR_LIMIT = 255;

type Deps = Pick<AppDeps, 'db' | 'config' | 'logger' | 'metrics'>;

/** One delivery leased to this instance, with what sending it takes. */
export interface ClaimedDelivery {
  id: number;
  leaseId: string;
  /** Until when the lease holds: past it another instance may claim the delivery. */
  leaseUntilMs: number;
  endpointId: number;
  /** Attempts made before this one. */
  attempts: number;
  messageId: string;
  body: string;
  eventCreatedMs: number;
  /** When this delivery was written: later than the event for a redelivery. */
  createdMs: number;
  url: string;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretUntilMs: number | null;
}

export type DeliveryOutcome = 'delivered' | 'retry' | 'failed';

/** A datetime as the drivers return it: a Date (mysql2) or UTC text (SQLite). */
function epochMsOf(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.getTime();
  const text = String(value);
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text.replace(' ', 'T')}Z`);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * Leases up to `limit` due deliveries to a new lease id and reads them back. A conflict with
 * another instance's claim (deadlock, Galera certification) claims nothing this time.
 */
export async function claimDueDeliveries(
  deps: Pick<AppDeps, 'db'>,
  limit: number,
  nowMs = Date.now(),
): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  if ((await readRows(deps.db, anyClaimable(nowMs))).length === 0) return [];
  const leaseId = randomUUID();
  try {
    const claimed = await runAlone(
      deps.db,
      claimDeliveries(deps.db.dialect, leaseId, nowMs + LEASE_MS, nowMs, limit),
    );
    if (claimed.affected === 0) return [];
  } catch (error) {
    if (isRetryableConflict(error)) return [];
    throw error;
  }
  const rows = await readRows(deps.db, leasedDeliveries(leaseId));
  return rows.map((row) => ({
    id: toNumber(row.id),
    leaseId,
    leaseUntilMs: nowMs + LEASE_MS,
    endpointId: toNumber(row.endpoint_id),
    attempts: toNumber(row.attempts),
    messageId: String(row.message_id),
    body: String(row.body),
    eventCreatedMs: toNumber(row.event_created_ms),
    createdMs: toNumber(row.created_ms),
    url: String(row.url),
    secretSealed: String(row.secret_sealed),
    previousSecretSealed:
      row.previous_secret_sealed === null ? null : String(row.previous_secret_sealed),
    previousSecretUntilMs: epochMsOf(row.previous_secret_until),
  }));
}

const short = (text: string) =>
  text.length > ERROR_LIMIT ? `${text.slice(0, ERROR_LIMIT - 1)}…` : text;

/** The secrets to sign with: the current one, and the previous one while its rotation lasts. */
function signingSecrets(deps: Deps, delivery: ClaimedDelivery, nowMs: number): SigningSecrets {
  const box = createSecretBox(deps.config.webhooks.secretKey);
  const context = String(delivery.endpointId);
  const current = box.open(delivery.secretSealed, context);
  const rotating =
    delivery.previousSecretSealed !== null &&
    delivery.previousSecretUntilMs !== null &&
    delivery.previousSecretUntilMs > nowMs;
  return rotating
    ? { current, previous: box.open(delivery.previousSecretSealed as string, context) }
    : { current };
}

/**
 * One attempt: the address checked now (an endpoint's name may resolve elsewhere since), signed,
 * sent; null, sending nothing, when too little of the lease is left for the send and its record
 * (another instance may claim the delivery once it ends: no attempt is ever sent twice).
 */
async function attempt(
  deps: Deps,
  delivery: ClaimedDelivery,
  options: WebhookSendOptions,
): Promise<WebhookAttemptOutcome | null> {
  const started = Date.now();
  let target;
  try {
    target = await checkOutboundUrl(OPERATION, delivery.url, {
      allowedHosts: deps.config.webhooks.allowedHosts,
    });
  } catch (error) {
    // A name that did not resolve now (a resolver down, slow or briefly wrong) may resolve at
    // the next attempt: retried, as a network error is.
    if (isUnresolvedHost(error)) {
      return {
        outcome: 'retry',
        durationMs: Date.now() - started,
        responseBytes: 0,
        responseTruncated: false,
        error: short(`address not resolved: ${(error as Error).message}`),
      };
    }
    // Refused now (its host resolves to a private address, say): no connection is made, and
    // another attempt would most likely be refused the same way.
    return {
      outcome: 'failed',
      status: 0,
      durationMs: Date.now() - started,
      responseBytes: 0,
      responseTruncated: false,
      error: short(`address refused: ${(error as Error).message}`),
    };
  }
  let secrets: SigningSecrets;
  try {
    secrets = signingSecrets(deps, delivery, started);
  } catch {
    // A secret box key changed without the secrets being sealed again: worth retrying once the
    // operator restores it.
    return {
      outcome: 'retry',
      durationMs: Date.now() - started,
      responseBytes: 0,
      responseTruncated: false,
      error: 'the signing secret does not open (WEBHOOK_SECRET_KEY changed?)',
    };
  }
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  if (Date.now() + timeoutMs + RECORD_MARGIN_MS > delivery.leaseUntilMs) return null;
  const headers = signWebhookMessage(secrets, delivery.messageId, new Date(), delivery.body);
  return sendWebhook(target, headers, delivery.body, options);
}

/** Keeps the endpoint's failing streak, and disables it after three days of failures. */
async function recordHealth(
  deps: Deps,
  delivery: ClaimedDelivery,
  success: boolean,
  nowMs: number,
) {
  const { db } = deps;
  if (success) {
    await runAlone(db, clearEndpointFailing(delivery.endpointId));
    return;
  }
  const now = db.dialect.date(new Date(nowMs));
  await runAlone(db, markEndpointFailing(delivery.endpointId, now));
  const before = db.dialect.date(new Date(nowMs - DISABLE_AFTER_FAILING_MS));
  const disabled = await runAlone(
    db,
    disableFailingEndpoint(delivery.endpointId, now, before, DISABLED_FOR_FAILURES_REASON),
  );
  if (disabled.affected > 0) {
    const failed = await runAlone(db, failPendingDeliveriesOf(delivery.endpointId, nowMs));
    deps.metrics.webhooks.countDeliveries('failed', failed.affected);
    deps.logger.warn(
      { endpointId: delivery.endpointId, pendingFailed: failed.affected },
      'webhook endpoint disabled after 3 days of failures',
    );
  }
}

/**
 * Sends one leased delivery and records the attempt and its outcome. Returns the outcome, or
 * 'lost' when the lease had run out and another instance owns the delivery now (this attempt
 * is still recorded, and its outcome left to that instance).
 */
export async function deliver(
  deps: Deps,
  delivery: ClaimedDelivery,
  options: WebhookSendOptions = {},
): Promise<DeliveryOutcome | 'lost'> {
  const attemptedMs = Date.now();
  const sent = await attempt(deps, delivery, options);
  if (sent === null) {
    deps.logger.warn(
      { deliveryId: delivery.id, endpointId: delivery.endpointId },
      'webhook attempt not sent: its lease was nearly over',
    );
    return 'lost';
  }
  const nowMs = Date.now();
  let outcome: DeliveryOutcome = sent.outcome;
  let update;
  if (sent.outcome === 'retry') {
    const plan = planRetry({
      attempt: delivery.attempts + 1,
      baseMs: deps.config.webhooks.retryBaseMs,
      // A redelivery (redeliverWebhookEvent) gets its own 24 hours.
      eventCreatedMs: Math.max(delivery.eventCreatedMs, delivery.createdMs),
      nowMs,
      retryAfterMs: sent.retryAfterMs,
    });
    if (plan.kind === 'retry')
      update = rescheduleDelivery(delivery.id, delivery.leaseId, plan.dueMs);
    else {
      outcome = 'failed';
      update = finishDelivery(delivery.id, delivery.leaseId, 'failed', nowMs);
    }
  } else {
    update = finishDelivery(delivery.id, delivery.leaseId, sent.outcome, nowMs);
  }
  const { db } = deps;
  await runAlone(
    db,
    insertAttempt({
      deliveryId: delivery.id,
      attemptedMs,
      outcome: sent.outcome,
      statusCode: sent.status === undefined || sent.status === 0 ? null : sent.status,
      durationMs: sent.durationMs,
      error: sent.outcome === 'delivered' ? null : short(sent.error),
    }),
  );
  const updated = await runAlone(db, update);
  const lost = updated.affected === 0;
  deps.metrics.webhooks.countAttempt(sent.outcome);
  if (!lost && outcome !== 'retry') deps.metrics.webhooks.countDeliveries(outcome, 1);
  // The instance that owns the delivery now keeps the endpoint's health.
  if (!lost) await recordHealth(deps, delivery, sent.outcome === 'delivered', nowMs);
  deps.logger.info(
    {
      deliveryId: delivery.id,
      endpointId: delivery.endpointId,
      attempt: delivery.attempts + 1,
      outcome: lost ? 'lost' : outcome,
      status: sent.status ?? null,
      durationMs: sent.durationMs,
    },
    'webhook attempt',
  );
  return lost ? 'lost' : outcome;
}

/** Runs `work` over `items` with at most `limit` at once. */
async function bounded<T>(items: readonly T[], limit: number, work: (item: T) => Promise<unknown>) {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  });
  await Promise.all(lanes);
}

/** One pass: claims due deliveries and sends them, DELIVERY_CONCURRENCY at a time. */
export async function runDeliveryPass(
  deps: Deps,
  options: WebhookSendOptions & { limit?: number; concurrency?: number } = {},
): Promise<Record<DeliveryOutcome | 'lost', number>> {
  const counts = { delivered: 0, retry: 0, failed: 0, lost: 0 };
  const concurrency = options.concurrency ?? DELIVERY_CONCURRENCY;
  const claimed = await claimDueDeliveries(deps, options.limit ?? concurrency * 4);
  await bounded(claimed, concurrency, async (delivery) => {
    counts[await deliver(deps, delivery, options)] += 1;
  });
  return counts;
}

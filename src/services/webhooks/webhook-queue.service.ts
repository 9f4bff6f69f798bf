import type { AppDeps } from '../../context/request-context';
import { toNumber } from '../../db/sql/dialect';
import {
  deleteDeliveries,
  deleteEvents,
  expiredDeliveries,
  expiredEvents,
  queueDepth,
} from '../../db/sql/webhook-delivery.sql';
import type { WebhookQueueReading } from '../../observability/metrics.webhooks';
import { readRows, runAlone } from './webhook-statements';

/** How long the history of deliveries (and their attempts and events) is kept. */
export const WEBHOOK_HISTORY_DAYS = 30;
const DAY_MS = 86_400_000;
/** Rows deleted per statement, at most: each DELETE is its own short transaction. */
const PURGE_BATCH = 500;

/** The queue as the metrics show it: pending deliveries and outbox entries, and the oldest's age. */
export async function readWebhookQueue(
  deps: Pick<AppDeps, 'db'>,
  nowMs = Date.now(),
): Promise<WebhookQueueReading> {
  const [row = {}] = await readRows(deps.db, queueDepth());
  const oldest = [row.oldest_pending, row.oldest_outbox]
    .filter((value) => value !== null && value !== undefined)
    .map(toNumber);
  return {
    depth: toNumber(row.pending) + toNumber(row.outbox),
    oldestAgeSeconds: oldest.length === 0 ? 0 : Math.max(0, (nowMs - Math.min(...oldest)) / 1000),
  };
}

/**
 * Deletes the deliveries finished (or created and never finished) more than 30 days ago, their
 * attempts with them, then the events older than that no delivery refers to any more, in
 * bounded batches. Returns the rows deleted (deliveries and events).
 */
export async function purgeWebhookHistory(
  deps: Pick<AppDeps, 'db'>,
  options: { nowMs?: number; batch?: number } = {},
): Promise<number> {
  const { db } = deps;
  const cutoffMs = (options.nowMs ?? Date.now()) - WEBHOOK_HISTORY_DAYS * DAY_MS;
  const batch = Math.max(1, options.batch ?? PURGE_BATCH);
  let purged = 0;
  for (;;) {
    const ids = (await readRows(db, expiredDeliveries(cutoffMs, batch))).map((r) => toNumber(r.id));
    if (ids.length === 0) break;
    purged += (await runAlone(db, deleteDeliveries(db.dialect, ids))).affected;
    if (ids.length < batch) break;
  }
  for (;;) {
    const ids = (await readRows(db, expiredEvents(cutoffMs, batch))).map((r) => toNumber(r.id));
    if (ids.length === 0) break;
    const deleted = (await runAlone(db, deleteEvents(db.dialect, ids))).affected;
    purged += deleted;
    // Those left had a delivery written meanwhile: the next run sees them again.
    if (deleted === 0 || ids.length < batch) break;
  }
  return purged;
}

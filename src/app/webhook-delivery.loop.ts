import type { AppDeps } from '../context/request-context';
import { dispatchOutbox } from '../services/webhooks/webhook-dispatcher';
import {
  claimDueDeliveries,
  deliver,
  DELIVERY_CONCURRENCY,
} from '../services/webhooks/webhook-delivery.worker';
import type { WebhookSendOptions } from '../services/webhooks/webhook-sender';
import { readWebhookQueue } from '../services/webhooks/webhook-queue.service';

/**
 * Webhook delivery in the service process (contract.md §16): every `intervalMs`, a dispatcher
 * pass, then as many due deliveries claimed as there are free sending slots. Sends run beside
 * the loop, so one slow receiver (up to its 10 s timeout) holds one slot, not the others.
 * Every instance runs it; leases keep them from sending one delivery twice at once.
 */

/** How often the loop looks for work. */
export const WEBHOOK_LOOP_INTERVAL_MS = 200;

export interface WebhookDeliveryLoop {
  /** Stops looking for work and waits for the sends in flight to be recorded. */
  stop: () => Promise<void>;
}

export interface WebhookLoopOptions extends WebhookSendOptions {
  intervalMs?: number;
  concurrency?: number;
}

/**
 * Starts the loop (unless WEBHOOK_DELIVERY_ENABLED=false: then nothing runs, and the outbox
 * waits for an instance that delivers). The queue gauges read the database either way.
 */
export function startWebhookDelivery(
  deps: AppDeps,
  options: WebhookLoopOptions = {},
): WebhookDeliveryLoop {
  deps.metrics.webhooks.readQueueWith(() => readWebhookQueue(deps));
  if (!deps.config.webhooks.deliveryEnabled) return { stop: () => Promise.resolve() };
  const intervalMs = options.intervalMs ?? WEBHOOK_LOOP_INTERVAL_MS;
  const concurrency = options.concurrency ?? DELIVERY_CONCURRENCY;
  const sending = new Set<Promise<unknown>>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let tick: Promise<void> = Promise.resolve();

  /** One pass; true when it found work, so that more may be waiting. */
  const pass = async (): Promise<boolean> => {
    // A dispatch that fails must not stop the deliveries already owed (their retries included).
    const dispatched = await dispatchOutbox(deps).catch((error: unknown) => {
      deps.logger.warn({ err: error }, 'webhook dispatch pass failed');
      return { entries: 0 };
    });
    const free = concurrency - sending.size;
    if (free <= 0 || stopped) return false;
    const claimed = await claimDueDeliveries(deps, free);
    for (const delivery of claimed) {
      const send = deliver(deps, delivery, options)
        .catch((error: unknown) =>
          deps.logger.warn(
            { deliveryId: delivery.id, endpointId: delivery.endpointId, err: error },
            'webhook delivery failed to record',
          ),
        )
        .finally(() => sending.delete(send));
      sending.add(send);
    }
    return dispatched.entries > 0 || claimed.length === free;
  };
  // A pass that found work is followed at once by the next (a backlog drains without waiting
  // `intervalMs` per step); an idle one waits the interval.
  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      let busy = false;
      tick = pass()
        .then((found) => {
          busy = found;
        })
        .catch((error: unknown) => deps.logger.warn({ err: error }, 'webhook pass failed'))
        .finally(() => schedule(busy ? 0 : intervalMs));
    }, delayMs);
    timer.unref();
  };
  schedule(intervalMs);

  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await tick;
      await Promise.allSettled([...sending]);
    },
  };
}

import { Counter, Gauge, type Registry } from 'prom-client';

/** What the webhook queue holds, read at each scrape. */
export interface WebhookQueueReading {
  /** Pending deliveries and outbox entries not yet dispatched. */
  depth: number;
  /** Seconds since the oldest of them was written (0 when the queue is empty). */
  oldestAgeSeconds: number;
}

/**
 * The webhook metrics of one instance (contract.md §16): deliveries ended by outcome, attempts
 * by outcome, and the queue as the database holds it, read when /metrics is scraped (the queue
 * is shared by every instance; each reports it).
 */
export class WebhookMetrics {
  private readonly deliveries: Counter<'outcome'>;
  private readonly attempts: Counter<'outcome'>;
  private queueReader?: () => Promise<WebhookQueueReading>;

  constructor(registers: Registry[]) {
    this.deliveries = new Counter({
      name: 'quiz_webhook_deliveries_total',
      help: 'Webhook deliveries this instance ended, by outcome (delivered, failed)',
      labelNames: ['outcome'],
      registers,
    });
    this.attempts = new Counter({
      name: 'quiz_webhook_attempts_total',
      help: 'Webhook delivery attempts this instance made, by outcome (delivered, retry, failed)',
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of ['delivered', 'failed']) this.deliveries.inc({ outcome }, 0);
    for (const outcome of ['delivered', 'retry', 'failed']) this.attempts.inc({ outcome }, 0);
    // One reading serves both gauges of a scrape.
    let reading: Promise<WebhookQueueReading | undefined> | undefined;
    const read = () => {
      reading ??= (this.queueReader?.() ?? Promise.resolve(undefined))
        .catch(() => undefined)
        .finally(() => setTimeout(() => (reading = undefined), 0));
      return reading;
    };
    new Gauge({
      name: 'quiz_webhook_queue_depth',
      help: 'Webhook deliveries pending and outbox entries not yet dispatched (all instances)',
      registers,
      async collect() {
        const value = await read();
        if (value) this.set(value.depth);
      },
    });
    new Gauge({
      name: 'quiz_webhook_oldest_pending_age_seconds',
      help: 'Age of the oldest pending webhook delivery or undispatched outbox entry, in seconds (0: none)',
      registers,
      async collect() {
        const value = await read();
        if (value) this.set(value.oldestAgeSeconds);
      },
    });
  }

  /** Where the queue gauges read from (the database, once the app has one). */
  readQueueWith(reader: () => Promise<WebhookQueueReading>): void {
    this.queueReader = reader;
  }

  countDeliveries(outcome: 'delivered' | 'failed', count: number): void {
    if (count > 0) this.deliveries.inc({ outcome }, count);
  }

  countAttempt(outcome: 'delivered' | 'retry' | 'failed'): void {
    this.attempts.inc({ outcome });
  }
}

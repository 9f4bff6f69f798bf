import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { processMetricsText } from './metrics.process';
import { WebhookMetrics } from './metrics.webhooks';

/** How a request came: an API transport, the HTML pages, or anything else (probes, 404s). */
export type Transport = 'rest' | 'graphql' | 'web' | 'other';

/** Which limit refused a request (429). */
export type RateLimitName = 'api_key' | 'login' | 'session_join';

/** What the retention purge deletes (contract.md §14.5). */
export type RetentionPurged = 'answers' | 'attendances' | 'access_log';

/** What a pool gauge reads (db/pool-usage.ts gives it for MySQL/MariaDB). */
export interface PoolReading {
  pool: string;
  inUse: number;
  idle: number;
  waiting: number;
  limit: number;
}

interface Observer {
  observe(value: number): void;
}

/** From a millisecond at the scale of a request to the slowest statement worth telling apart. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The metrics of one app instance, in a registry of its own (several apps share a process in
 * the tests). Label values come from closed lists the callers map to (operation names of the
 * catalog, transports, statuses, data set kinds), so series stay bounded. Observers of each
 * label combination are made once and kept: a request costs one lookup and one observe().
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requests: Histogram<'transport' | 'operation' | 'status'>;
  private readonly statements: Histogram<'kind'>;
  private readonly refusals: Counter<'limit'>;
  private readonly rateLimitLeases: Counter;
  private readonly retentionPurged: Counter<'what'>;
  private readonly requestObservers = new Map<string, Map<string, Map<number, Observer>>>();
  private readonly statementObservers = new Map<string, Observer>();
  /** Webhook deliveries and their queue (metrics.webhooks.ts). */
  readonly webhooks: WebhookMetrics;

  /** `pools` reads the database pools at each scrape; none on SQLite. */
  constructor(pools?: () => readonly PoolReading[]) {
    const registers = [this.registry];
    this.requests = new Histogram({
      name: 'quiz_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by transport, operation (a catalog name, else other or unknown) and status',
      labelNames: ['transport', 'operation', 'status'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.statements = new Histogram({
      name: 'quiz_data_set_statement_duration_seconds',
      help: 'Time of the statements that compute and store a data set (getResults: computedResult), by kind of set',
      labelNames: ['kind'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.refusals = new Counter({
      name: 'quiz_rate_limit_refusals_total',
      help: 'Requests refused with 429 TooManyRequestsException, by limit (api_key, login, session_join)',
      labelNames: ['limit'],
      registers,
    });
    this.rateLimitLeases = new Counter({
      name: 'quiz_rate_limit_leases_total',
      help: "Slices of API keys' budgets asked of the database (one statement each); requests spend them in memory",
      registers,
    });
    this.retentionPurged = new Counter({
      name: 'quiz_retention_purged_rows_total',
      help: 'Rows the retention purge deleted (ANSWER_RETENTION_DAYS, ACCESS_LOG_RETENTION_DAYS), by what (answers, attendances, access_log)',
      labelNames: ['what'],
      registers,
    });
    // Every series from the start, so a scrape tells "nothing purged yet" from "no such metric".
    for (const what of ['answers', 'attendances', 'access_log'] as const)
      this.retentionPurged.inc({ what }, 0);
    this.webhooks = new WebhookMetrics(registers);
    if (pools) registerPoolGauges(registers, pools);
  }

  /** One answered request; `seconds` from its first byte in to its last byte out. */
  observeRequest(transport: Transport, operation: string, status: number, seconds: number): void {
    let byOperation = this.requestObservers.get(transport);
    if (!byOperation) {
      byOperation = new Map();
      this.requestObservers.set(transport, byOperation);
    }
    let byStatus = byOperation.get(operation);
    if (!byStatus) {
      byStatus = new Map();
      byOperation.set(operation, byStatus);
    }
    let observer = byStatus.get(status);
    if (!observer) {
      observer = this.requests.labels({ transport, operation, status: String(status) });
      byStatus.set(status, observer);
    }
    observer.observe(seconds);
  }

  /** The statements that made one data set of `kind` (its item type). */
  observeSetStatement(kind: string, seconds: number): void {
    let observer = this.statementObservers.get(kind);
    if (!observer) {
      observer = this.statements.labels({ kind });
      this.statementObservers.set(kind, observer);
    }
    observer.observe(seconds);
  }

  countRateLimitRefusal(limit: RateLimitName): void {
    this.refusals.inc({ limit });
  }

  countRateLimitLease(): void {
    this.rateLimitLeases.inc();
  }

  countRetentionPurge(what: RetentionPurged, rows: number): void {
    if (rows > 0) this.retentionPurged.inc({ what }, rows);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition text: this instance's metrics, then the process's (`withProcess`). */
  async text(withProcess: boolean): Promise<string> {
    const own = await this.registry.metrics();
    return withProcess ? `${own}${await processMetricsText()}` : own;
  }
}

/** Gauges of each pool, set from one reading at each scrape. */
function registerPoolGauges(registers: Registry[], pools: () => readonly PoolReading[]): void {
  const gauge = (name: string, help: string, value: (reading: PoolReading) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['pool'],
      registers,
      collect() {
        this.reset();
        for (const reading of pools()) this.set({ pool: reading.pool }, value(reading));
      },
    });
  gauge(
    'quiz_db_pool_connections_in_use',
    'Connections of the pool lent out (queries, batch_writes, batch_reads)',
    (reading) => reading.inUse,
  );
  gauge('quiz_db_pool_connections_idle', 'Open connections waiting in the pool', (r) => r.idle);
  gauge(
    'quiz_db_pool_requests_waiting',
    'Callers queued for a connection of the pool',
    (reading) => reading.waiting,
  );
  gauge('quiz_db_pool_connections_max', 'Most connections the pool opens', (r) => r.limit);
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import mysql from 'mysql2/promise';
import { Webhook } from 'standardwebhooks';
import { createSecretBox } from '../../../src/security/secret-box';
import { newWebhookSecret } from '../../../src/services/webhooks/webhook-signing';
import {
  DB,
  WEBHOOK_DRAIN_MS,
  WEBHOOK_REFLECT_TIMEOUT_MS,
  WEBHOOK_SECRET_KEY,
  mysqlUri,
} from './ingest-settings';

/**
 * The webhook side of the ingestion bench (BENCH_WEBHOOKS=1): a receiver on 127.0.0.1 answering
 * 204 at once, the teacher's endpoint pointing at it (enabled only for the "webhooks on" phases),
 * and the delivery latency of the batches acknowledged in such a phase.
 */

/** A batch acknowledged by the service: when, and the answers its outbox entry counts. */
export interface Ack {
  sessionId: number;
  atMs: number;
  answers: number;
}

/** An answers.recorded event as it arrived (its body read in full, its signature checked). */
interface Arrival {
  atMs: number;
  sessionId: number;
  answers: number;
}

export interface WebhookPhaseResult {
  /** Batches acknowledged in the phase (each wrote an outbox entry). */
  batches: number;
  /**
   * From each batch's acknowledgement to the arrival of the event that covers it: the first
   * whose session's received answers add up to the session's acknowledged answers through it.
   */
  latenciesMs: number[];
  /** From each batch's acknowledgement to the first event of its session that arrived after it. */
  firstAfterMs: number[];
  /** Batches no event covered within WEBHOOK_REFLECT_TIMEOUT_MS. */
  unreflected: number;
  /** Distinct answers.recorded events of the phase's sessions received. */
  events: number;
  /** Messages received again under a webhook-id already seen (retries). */
  duplicates: number;
  /** Messages whose signature did not verify, during the phase and its drain. */
  signatureFailures: number;
  /** How long the drain after the load waited. */
  drainMs: number;
  /**
   * Where the time goes, per event of the phase, from the service's own records (epoch ms):
   * its first outbox entry to its delivery written (coalescing and dispatch), that to the first
   * attempt's start (claim), and the attempt's duration (sign, send, answer).
   */
  stages: { dispatchMs: number[]; claimMs: number[]; sendMs: number[] };
}

export class WebhookReceiver {
  private arrivals: Arrival[] = [];
  private seen = new Set<string>();
  private duplicates = 0;
  private signatureFailures = 0;
  private lastArrivalMs = 0;
  private phaseStartedAt = 0;
  /** Messages received over the run, all types, and signature failures over the run. */
  readonly totals = { messages: 0, signatureFailures: 0 };

  private constructor(
    private readonly server: http.Server,
    private readonly db: mysql.Connection,
    private readonly endpointId: number,
  ) {}

  /** Starts the receiver and registers the teacher's endpoint for answers.recorded, disabled. */
  static async start(teacherId: number): Promise<WebhookReceiver> {
    const secret = newWebhookSecret();
    // The receiver is made once the endpoint exists, which needs the server's port first.
    const made: { receiver?: WebhookReceiver } = {};
    const server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const atMs = performance.now();
        response.writeHead(204).end();
        made.receiver?.receive(atMs, request.headers, Buffer.concat(chunks).toString(), secret);
      });
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const db = await mysql.createConnection({ uri: mysqlUri(DB) });
    // As insertWebhookEndpoint does: the row first, then its secret sealed with the row's id.
    const [inserted] = await db.query<mysql.ResultSetHeader>(
      `INSERT INTO webhook_endpoints (owner_id, url, events, secret_sealed, disabled_at, disabled_reason)
       VALUES (?, ?, 'answers.recorded', '', NOW(), 'bench: webhooks off')`,
      [teacherId, `http://127.0.0.1:${port}/hooks`],
    );
    const box = createSecretBox(Buffer.from(WEBHOOK_SECRET_KEY, 'hex'));
    await db.query('UPDATE webhook_endpoints SET secret_sealed = ? WHERE id = ?', [
      box.seal(secret, String(inserted.insertId)),
      inserted.insertId,
    ]);
    made.receiver = new WebhookReceiver(server, db, inserted.insertId);
    return made.receiver;
  }

  private receive(
    atMs: number,
    headers: http.IncomingHttpHeaders,
    body: string,
    secret: string,
  ): void {
    this.totals.messages += 1;
    this.lastArrivalMs = atMs;
    let event: { type?: string; data?: { sessionId?: number; answers?: number } };
    try {
      event = new Webhook(secret).verify(body, headers as Record<string, string>) as typeof event;
    } catch {
      this.signatureFailures += 1;
      this.totals.signatureFailures += 1;
      return;
    }
    const id = String(headers['webhook-id']);
    if (this.seen.has(id)) {
      this.duplicates += 1;
      return;
    }
    this.seen.add(id);
    if (event.type !== 'answers.recorded') return;
    this.arrivals.push({
      atMs,
      sessionId: Number(event.data?.sessionId),
      answers: Number(event.data?.answers),
    });
  }

  /** Enables the endpoint (addAnswers writes outbox entries) or disables it (none are written). */
  async setEnabled(on: boolean): Promise<void> {
    await this.db.query(
      on
        ? 'UPDATE webhook_endpoints SET disabled_at = NULL, disabled_reason = NULL, failing_since = NULL WHERE id = ?'
        : "UPDATE webhook_endpoints SET disabled_at = NOW(), disabled_reason = 'bench: webhooks off' WHERE id = ?",
      [this.endpointId],
    );
  }

  /** Forgets the events of earlier phases. */
  beginPhase(): void {
    this.phaseStartedAt = Date.now();
    this.arrivals = [];
    this.duplicates = 0;
    this.signatureFailures = 0;
  }

  /**
   * Waits for the queue to drain (every batch covered, or no event for WEBHOOK_DRAIN_MS.quiet,
   * or WEBHOOK_DRAIN_MS.max in all), then measures the phase's batches against what arrived.
   */
  async collect(acks: readonly Ack[]): Promise<WebhookPhaseResult> {
    const sessions = new Set(acks.map((ack) => ack.sessionId));
    const owed = (sessionId: number, list: readonly { sessionId: number; answers: number }[]) =>
      list.filter((item) => item.sessionId === sessionId).reduce((a, b) => a + b.answers, 0);
    const covered = () => [...sessions].every((id) => owed(id, this.arrivals) >= owed(id, acks));
    const started = performance.now();
    for (;;) {
      const now = performance.now();
      if (covered() || now - started >= WEBHOOK_DRAIN_MS.max) break;
      if (now - Math.max(started, this.lastArrivalMs) >= WEBHOOK_DRAIN_MS.quiet) break;
      await sleep(100);
    }
    const drainMs = performance.now() - started;
    const arrivals = this.arrivals.filter((arrival) => sessions.has(arrival.sessionId));
    return {
      batches: acks.length,
      ...latencies(acks, arrivals),
      events: arrivals.length,
      duplicates: this.duplicates,
      signatureFailures: this.signatureFailures,
      drainMs,
      stages: await this.stages(),
    };
  }

  /** The stages of the events written for the endpoint since the phase began. */
  private async stages(): Promise<WebhookPhaseResult['stages']> {
    const [rows] = await this.db.query<mysql.RowDataPacket[]>(
      `SELECT v.created_ms AS event_ms, d.created_ms AS delivery_ms,
              a.attempted_ms, a.duration_ms
         FROM webhook_deliveries d
         JOIN webhook_events v ON v.id = d.event_id
         JOIN webhook_attempts a ON a.id = (SELECT MIN(id) FROM webhook_attempts WHERE delivery_id = d.id)
        WHERE d.endpoint_id = ? AND v.created_ms >= ?`,
      [this.endpointId, this.phaseStartedAt],
    );
    const n = (value: unknown) => Number(value);
    return {
      dispatchMs: rows.map((row) => n(row.delivery_ms) - n(row.event_ms)),
      claimMs: rows.map((row) => n(row.attempted_ms) - n(row.delivery_ms)),
      sendMs: rows.map((row) => n(row.duration_ms)),
    };
  }

  async close(): Promise<void> {
    await this.db.query('DELETE FROM webhook_endpoints WHERE id = ?', [this.endpointId]);
    await this.db.end();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** Both latencies of every batch, session by session (a session's batches go one at a time). */
function latencies(
  acks: readonly Ack[],
  arrivals: readonly Arrival[],
): Pick<WebhookPhaseResult, 'latenciesMs' | 'firstAfterMs' | 'unreflected'> {
  const bySession = <T extends { sessionId: number; atMs: number }>(list: readonly T[]) => {
    const map = new Map<number, T[]>();
    for (const item of list) {
      const items = map.get(item.sessionId);
      if (items) items.push(item);
      else map.set(item.sessionId, [item]);
    }
    for (const items of map.values()) items.sort((a, b) => a.atMs - b.atMs);
    return map;
  };
  const received = bySession(arrivals);
  const result = { latenciesMs: [] as number[], firstAfterMs: [] as number[], unreflected: 0 };
  for (const [sessionId, batches] of bySession(acks)) {
    const events = received.get(sessionId) ?? [];
    let owed = 0;
    let got = 0;
    let next = 0;
    for (const ack of batches) {
      owed += ack.answers;
      while (got < owed && next < events.length) got += (events[next++] as Arrival).answers;
      const covering = got >= owed ? events[next - 1] : undefined;
      const latency = covering ? Math.max(0, covering.atMs - ack.atMs) : Infinity;
      if (latency > WEBHOOK_REFLECT_TIMEOUT_MS) result.unreflected += 1;
      else result.latenciesMs.push(latency);
      const after = events.find((event) => event.atMs > ack.atMs);
      if (after) result.firstAfterMs.push(after.atMs - ack.atMs);
    }
  }
  return result;
}

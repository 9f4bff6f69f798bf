import { setTimeout as sleep } from 'node:timers/promises';
import mysql from 'mysql2/promise';
import { procStatusKb } from '../results-bench.process';
import { makeSession, type Fixture } from './ingest-fixture';
import {
  BATCH,
  DB,
  PROBE_BATCH,
  PROBE_INTERVAL_MS,
  TRUNCATE,
  WRITERS,
  mysqlUri,
} from './ingest-settings';
import {
  answerKey,
  floorSink,
  RefusedBatch,
  serviceSink,
  type AnswerKey,
  type Sink,
  type Target,
} from './ingest-sinks';
import type { Ack, WebhookPhaseResult, WebhookReceiver } from './webhook-receiver';

/** One timed phase: WRITERS writers sending batches of BATCH to one target, and the probe. */

export interface PhaseResult {
  target: Target;
  /** The writers' pace in answers/s, when paced. */
  rate?: number;
  answers: number;
  /** Answers that were new rows (every one, unless a writer went round its session). */
  inserted: number;
  /** Writer batches of which some answers were not new rows: `writer:batch inserted/sent`. */
  notNew: string[];
  seconds: number;
  answersPerSecond: number;
  /** Acknowledgement times of the probe's batches. */
  probeMs: number[];
  /** Refused batches by status and type, and failures, by message. */
  errors: Map<string, number>;
  /** The service's RSS during the phase (service phases only), MB. */
  rss?: { peakMb: number; endMb: number };
  /** Delivery of the batches' events ("webhooks on" phases only). */
  webhooks?: WebhookPhaseResult;
}

/** A running build of the service. */
export interface Running {
  url: string;
  pid: number;
}

export interface PhaseContext {
  f: Fixture;
  service: Running;
  /** The compared build (BENCH_COMPARE_JS). */
  compare?: Running;
  /** The teacher's endpoint and its receiver (BENCH_WEBHOOKS=1). */
  webhooks?: WebhookReceiver;
}

/** The service a target sends to, if it is one. */
function runningOf(target: Target, ctx: PhaseContext): Running | undefined {
  if (target === 'service' || target === 'hooks') return ctx.service;
  return target === 'compare' ? ctx.compare : undefined;
}

function sinkFor(target: Target, ctx: PhaseContext): Promise<Sink> {
  const running = runningOf(target, ctx);
  return running
    ? Promise.resolve(serviceSink(running.url, ctx.f))
    : floorSink(target === 'floorTx');
}

let phaseNumber = 0;

/**
 * `rate`: the writers' answers per second in all, each writer sending a batch every
 * WRITERS × BATCH / rate seconds (at once when it is late); without it, back to back.
 */
export async function runPhase(
  target: Target,
  ctx: PhaseContext,
  seconds: number,
  rate?: number,
): Promise<PhaseResult> {
  phaseNumber += 1;
  const sessions: number[] = [];
  for (let writer = 0; writer <= WRITERS; writer += 1) {
    const title = `ingest ${phaseNumber} ${target} ${writer}`;
    sessions.push(await makeSession(ctx.service.url, ctx.f, title));
  }
  if (TRUNCATE) {
    const admin = await mysql.createConnection({ uri: mysqlUri(DB) });
    await admin.query('TRUNCATE TABLE answers');
    await admin.end();
  }
  const sinks = await Promise.all(sessions.map(() => sinkFor(target, ctx)));
  // Webhooks on: the teacher's endpoint enabled for this phase only, so addAnswers writes outbox entries.
  const hooks = target === 'hooks' ? ctx.webhooks : undefined;
  const acks: Ack[] = [];
  if (hooks) {
    hooks.beginPhase();
    await hooks.setEnabled(true);
  }
  const errors = new Map<string, number>();
  const totals = { answers: 0, inserted: 0 };
  const probeMs: number[] = [];
  const notNew: string[] = [];
  const rssKb: number[] = [];
  const pid = runningOf(target, ctx)?.pid;
  const sampler =
    pid === undefined ? undefined : setInterval(() => rssKb.push(procStatusKb(pid, 'VmRSS')), 250);
  const started = performance.now();
  const deadline = started + seconds * 1000;

  const send = async (sink: Sink, sessionId: number, keys: AnswerKey[]) => {
    try {
      const sent = await sink.send(sessionId, keys);
      if (hooks && sent.inserted > 0) {
        acks.push({ sessionId, atMs: performance.now(), answers: sent.received });
      }
      return sent;
    } catch (error) {
      const name = error instanceof RefusedBatch ? error.message : String(error).slice(0, 200);
      errors.set(name, (errors.get(name) ?? 0) + 1);
      if ([...errors.values()].reduce((a, b) => a + b, 0) > 100) throw error;
      return undefined;
    }
  };
  const intervalMs = rate ? (1000 * WRITERS * BATCH) / rate : 0;
  const writer = async (index: number) => {
    const sink = sinks[index] as Sink;
    const sessionId = sessions[index] as number;
    // Paced writers start spread over one interval.
    let next = started + (intervalMs * index) / WRITERS;
    for (let batch = 0; performance.now() < deadline; batch += 1) {
      const wait = next - performance.now();
      if (wait > 0) await sleep(wait);
      if (performance.now() >= deadline) break;
      next += intervalMs;
      const keys = Array.from({ length: BATCH }, (_, i) =>
        answerKey(ctx.f, batch * BATCH + i, 'byPupil'),
      );
      const sent = await send(sink, sessionId, keys);
      if (sent && sent.inserted !== sent.received) {
        notNew.push(`${index}:${batch} ${sent.inserted}/${sent.received}`);
      }
      if (sent) {
        totals.answers += sent.received;
        totals.inserted += sent.inserted;
      }
    }
  };
  const probe = async () => {
    const sink = sinks[WRITERS] as Sink;
    const sessionId = sessions[WRITERS] as number;
    for (let batch = 0; performance.now() < deadline; batch += 1) {
      const leaves = performance.now();
      const keys = Array.from({ length: PROBE_BATCH }, (_, i) =>
        answerKey(ctx.f, batch * PROBE_BATCH + i, 'byQuestion'),
      );
      if (await send(sink, sessionId, keys)) probeMs.push(performance.now() - leaves);
      const wait = leaves + PROBE_INTERVAL_MS - performance.now();
      if (wait > 0) await sleep(wait);
    }
  };
  try {
    await Promise.all([...sinks.slice(0, WRITERS).map((_, index) => writer(index)), probe()]);
  } finally {
    if (sampler) clearInterval(sampler);
    await Promise.all(sinks.map((sink) => sink.close()));
  }
  const elapsed = (performance.now() - started) / 1000;
  const endKb = pid === undefined ? 0 : procStatusKb(pid, 'VmRSS');
  let webhooks: WebhookPhaseResult | undefined;
  if (hooks) {
    try {
      webhooks = await hooks.collect(acks);
    } finally {
      await hooks.setEnabled(false);
    }
  }
  return {
    target,
    rate,
    ...totals,
    notNew,
    seconds: elapsed,
    answersPerSecond: totals.answers / elapsed,
    probeMs,
    errors,
    rss:
      pid === undefined
        ? undefined
        : { peakMb: Math.max(endKb, ...rssKb) / 1024, endMb: endKb / 1024 },
    webhooks,
  };
}

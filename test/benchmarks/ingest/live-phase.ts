import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import mysql from 'mysql2/promise';
import { procStatusKb } from '../results-bench.process';
import type { Fixture } from './ingest-fixture';
import type { Running } from './ingest-phase';
import {
  DB,
  LIVE_REFLECT_TIMEOUT_MS,
  LIVE_SECONDS,
  LIVE_SESSIONS,
  LIVE_WARM_UP,
  TRUNCATE,
  log,
  mysqlUri,
  percentile,
} from './ingest-settings';
import { RefusedBatch, serviceSink } from './ingest-sinks';
import { makeLiveSession, playClass, quizzesPerSession, type LiveSession } from './live-class';
import { cpuMeter } from './live-cpu';
import { LiveWatch } from './live-watch';

/**
 * One run of the live phase: LIVE_SESSIONS fresh sessions of the teacher, each followed by
 * `subscribers` sessionResults subscriptions (the teacher's, alike) and played by a class whose
 * classroom app writes through `writer`; the subscriptions are held by `watcher` (the same
 * instance, or a second one on the same database, so that the change reaches it through its
 * feed's poll). LIVE_WARM_UP seconds of play, then LIVE_SECONDS measured: what is acknowledged
 * in that window is counted, and the instances' CPU time over it.
 */

export type LivePath = 'local' | 'cross';

export const LIVE_PATH_LABEL: Record<LivePath, string> = {
  local: 'writes and subscriptions on one instance',
  cross: 'subscriptions on a second instance',
};

export interface LivePhaseResult {
  path: LivePath;
  /** Subscriptions per session. */
  subscribers: number;
  round: number;
  sessions: number;
  connections: number;
  quizzes: number;
  /** The measured window, s. */
  seconds: number;
  /**
   * From each counted batch's acknowledgement to the first message reflecting it, on every
   * subscription to its session (subscribers × batches values).
   */
  latenciesMs: number[];
  /** Counted (subscription, batch) pairs already reflected when acknowledged (latency 0). */
  beforeAck: number;
  batches: number;
  answers: number;
  inserted: number;
  /** Messages received in the window, over all subscriptions. */
  messages: number;
  errors: Map<string, number>;
  /**
   * Each instance's VmRSS over the run (peak, and at the end of the window, MB) and its CPU time
   * in the window (ms, and in cores); `subscriptions` marks the one holding the subscriptions.
   */
  rss: {
    name: string;
    subscriptions: boolean;
    peakMb: number;
    endMb: number;
    cpuMs: number;
    cores: number;
  }[];
  /** This process's CPU time in the window, in cores. */
  benchCores: number;
  /** The machine's 1-minute load average at the end of the window (a shared machine's noise). */
  loadAverage: number;
}

export interface LiveContext {
  f: Fixture;
  writer: Running;
  watcher: Running;
}

let runNumber = 0;

export async function runLivePhase(
  path: LivePath,
  ctx: LiveContext,
  subscribers: number,
  round: number,
): Promise<LivePhaseResult> {
  runNumber += 1;
  const { f, writer, watcher } = ctx;
  const quizzes = quizzesPerSession(LIVE_WARM_UP + LIVE_SECONDS);
  if (TRUNCATE) {
    const admin = await mysql.createConnection({ uri: mysqlUri(DB) });
    await admin.query('TRUNCATE TABLE answers');
    await admin.end();
  }
  const sessions: LiveSession[] = [];
  for (let index = 0; index < LIVE_SESSIONS; index += 1) {
    const title = `live ${runNumber} ${path} ${index}`;
    sessions.push(await makeLiveSession(writer.url, f, title, index, quizzes));
  }
  const watch = new LiveWatch(watcher.url, f);
  try {
    await watch.subscribe(
      sessions.map((session) => session.id),
      subscribers,
    );
  } catch (error) {
    await watch.close();
    throw error;
  }
  log(
    `live ${LIVE_PATH_LABEL[path]}, round ${round}: ${sessions.length} sessions × ${subscribers} ` +
      `subscriber${subscribers > 1 ? 's' : ''} over ${watch.connections()} connections; ` +
      `${LIVE_WARM_UP} s of warm-up, ${LIVE_SECONDS} s measured`,
  );

  const instances =
    writer.pid === watcher.pid
      ? [{ name: 'the instance', pid: writer.pid, subscriptions: true }]
      : [
          { name: 'writes', pid: writer.pid, subscriptions: false },
          { name: 'subscriptions', pid: watcher.pid, subscriptions: true },
        ];
  const rssKb = instances.map(() => [] as number[]);
  const sampleRss = () =>
    instances.forEach(({ pid }, i) => rssKb[i]?.push(procStatusKb(pid, 'VmRSS')));
  const sampler = setInterval(sampleRss, 250);
  const cpu = cpuMeter(instances.map(({ pid }) => pid));
  const sweeper = setInterval(() => watch.expire(performance.now()), 500);

  const sink = serviceSink(writer.url, f);
  const totals = { batches: 0, answers: 0, inserted: 0 };
  let lastAckAt = 0;
  const start = performance.now();
  watch.window = {
    from: start + LIVE_WARM_UP * 1000,
    to: start + (LIVE_WARM_UP + LIVE_SECONDS) * 1000,
  };
  let endKb: number[] = [];
  // The CPU time of exactly the measured window.
  const cpuStart = setTimeout(cpu.start, watch.window.from - start);
  let loadAverage = NaN;
  const cpuStop = setTimeout(() => {
    cpu.stop();
    loadAverage = os.loadavg()[0] ?? NaN;
  }, watch.window.to - start);
  try {
    await Promise.all(
      sessions.map((session, index) =>
        playClass(
          f,
          session,
          sink,
          { start, deadline: watch.window.to, seed: index + 1 },
          {
            acked: (sent, at) => {
              lastAckAt = at;
              watch.acked(session.id, sent.inserted, at);
              if (!watch.inWindow(at)) return;
              totals.batches += 1;
              totals.answers += sent.received;
              totals.inserted += sent.inserted;
            },
            failed: (error) =>
              watch.error(
                error instanceof RefusedBatch
                  ? `batch refused: ${error.message}`
                  : `batch failed: ${String(error).slice(0, 120)}`,
              ),
          },
        ),
      ),
    );
    cpu.stop();
    sampleRss();
    endKb = instances.map(({ pid }) => procStatusKb(pid, 'VmRSS'));
    // The last batches' messages, or their failure once LIVE_REFLECT_TIMEOUT_MS has passed.
    while (watch.waiting > 0 && performance.now() < lastAckAt + LIVE_REFLECT_TIMEOUT_MS + 100) {
      await sleep(50);
    }
    watch.expire(performance.now(), true);
    watch.check();
  } finally {
    clearInterval(sampler);
    clearTimeout(cpuStart);
    clearTimeout(cpuStop);
    clearInterval(sweeper);
    await sink.close();
    await watch.close();
  }
  const used = cpu.used();
  const cpuMs = instances.map((_, i) => used?.instancesMs[i] ?? NaN);
  const servingMs = cpuMs[instances.findIndex((instance) => instance.subscriptions)] ?? NaN;
  log(
    `live ${LIVE_PATH_LABEL[path]}, ${subscribers} per session: p95 ` +
      `${percentile(watch.latenciesMs, 95).toFixed(0)} ms over ${watch.latenciesMs.length} ` +
      `subscriber-batches; subscriptions' instance CPU ${(servingMs / totals.batches).toFixed(2)} ms ` +
      `per batch, ${(servingMs / watch.messages).toFixed(3)} ms per message` +
      (watch.errors.size ? `; errors ${[...watch.errors].join(', ')}` : ''),
  );
  return {
    path,
    subscribers,
    round,
    sessions: sessions.length,
    connections: watch.connections(),
    quizzes,
    seconds: LIVE_SECONDS,
    latenciesMs: watch.latenciesMs,
    beforeAck: watch.beforeAck,
    ...totals,
    messages: watch.messages,
    errors: watch.errors,
    rss: instances.map(({ name, subscriptions }, i) => ({
      name,
      subscriptions,
      peakMb: Math.max(...(rssKb[i] ?? [])) / 1024,
      endMb: (endKb[i] ?? NaN) / 1024,
      cpuMs: cpuMs[i] ?? NaN,
      cores: (cpuMs[i] ?? NaN) / (used?.ms ?? NaN),
    })),
    benchCores: (used?.ownMs ?? NaN) / (used?.ms ?? NaN),
    loadAverage,
  };
}

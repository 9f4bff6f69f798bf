import fs from 'node:fs';
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
import { LiveWatch } from './live-watch';

/**
 * One run of the live phase: LIVE_SESSIONS fresh sessions of the teacher, each followed by one
 * sessionResults subscription and played by a class whose classroom app writes through
 * `writer`; the subscriptions are held by `watcher` (the same instance, or a second one on the
 * same database, so that the change reaches it through its feed's poll). LIVE_WARM_UP seconds
 * of play, then LIVE_SECONDS measured: what is acknowledged in that window is counted.
 */

export type LivePath = 'local' | 'cross';

export const LIVE_PATH_LABEL: Record<LivePath, string> = {
  local: 'writes and subscriptions on one instance',
  cross: 'subscriptions on a second instance',
};

export interface LivePhaseResult {
  path: LivePath;
  sessions: number;
  connections: number;
  quizzes: number;
  /** The measured window, s. */
  seconds: number;
  /** From each counted batch's acknowledgement to the first message reflecting it. */
  latenciesMs: number[];
  /** Counted batches already reflected by a message when acknowledged (latency 0). */
  beforeAck: number;
  batches: number;
  answers: number;
  inserted: number;
  messages: number;
  errors: Map<string, number>;
  /**
   * Each instance's VmRSS over the run (peak, and at the end of the window, MB) and its CPU time
   * in the window, in cores.
   */
  rss: { name: string; peakMb: number; endMb: number; cores: number }[];
  /** This process's CPU time in the window, in cores. */
  benchCores: number;
}

/** CPU seconds a process has used (utime + stime of /proc/<pid>/stat, at 100 ticks a second). */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU time used by the instances and by this process between start() and stop(), in cores. */
function cpuMeter(pids: readonly number[]) {
  let from = { at: 0, pids: [] as number[], own: 0 };
  const read = () => {
    const own = process.cpuUsage();
    return {
      at: performance.now(),
      pids: pids.map(cpuSeconds),
      own: (own.user + own.system) / 1e6,
    };
  };
  return {
    start: () => void (from = read()),
    stop: () => {
      const to = read();
      const seconds = (to.at - from.at) / 1000;
      return {
        instances: to.pids.map((cpu, i) => (cpu - (from.pids[i] ?? 0)) / seconds),
        own: (to.own - from.own) / seconds,
      };
    },
  };
}

export interface LiveContext {
  f: Fixture;
  writer: Running;
  watcher: Running;
}

let runNumber = 0;

export async function runLivePhase(path: LivePath, ctx: LiveContext): Promise<LivePhaseResult> {
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
  await watch.subscribe(sessions.map((session) => session.id));
  log(
    `live ${LIVE_PATH_LABEL[path]}: ${sessions.length} sessions subscribed over ` +
      `${watch.connections()} connections; ${LIVE_WARM_UP} s of warm-up, ${LIVE_SECONDS} s measured`,
  );

  const instances =
    writer.pid === watcher.pid
      ? [{ name: 'the instance', pid: writer.pid }]
      : [
          { name: 'writes', pid: writer.pid },
          { name: 'subscriptions', pid: watcher.pid },
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
  const cpuStart = setTimeout(cpu.start, LIVE_WARM_UP * 1000);
  let cores = { instances: [] as number[], own: NaN };
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
              watch.tracker(session.id).acked(sent.inserted, at);
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
    cores = cpu.stop();
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
    clearInterval(sweeper);
    await sink.close();
    await watch.close();
  }
  log(
    `live ${LIVE_PATH_LABEL[path]}: p95 ${percentile(watch.latenciesMs, 95).toFixed(0)} ms over ` +
      `${watch.latenciesMs.length} batches` +
      (watch.errors.size ? `, errors ${[...watch.errors].join(', ')}` : ''),
  );
  return {
    path,
    sessions: sessions.length,
    connections: watch.connections(),
    quizzes,
    seconds: LIVE_SECONDS,
    latenciesMs: watch.latenciesMs,
    beforeAck: watch.beforeAck,
    ...totals,
    messages: watch.messages,
    errors: watch.errors,
    rss: instances.map(({ name }, i) => ({
      name,
      peakMb: Math.max(...(rssKb[i] ?? [])) / 1024,
      endMb: (endKb[i] ?? NaN) / 1024,
      cores: cores.instances[i] ?? NaN,
    })),
    benchCores: cores.own,
  };
}

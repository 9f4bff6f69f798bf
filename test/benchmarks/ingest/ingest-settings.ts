import os from 'node:os';
import path from 'node:path';
import type { GenerateOptions } from '../../../src/data/generate/synthetic-data';

/** What an ingestion run is set to: the environment's BENCH_* variables, read once (see ingest.bench.ts). */

const number = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number >= 0`);
  return value;
};

export const SERVER = process.env.BENCH_DATABASE_URL ?? 'mariadb://root@127.0.0.1:3306';
export const DB = 'quiz_ingest_bench';
export const ROOT = path.resolve(__dirname, '../../..');
export const BUILD_DIR = path.join(os.tmpdir(), 'quiz-ingest-bench-build');
/** A service built elsewhere (another commit, a variant) instead of compiling the sources. */
export const SERVICE_JS = process.env.BENCH_SERVICE_JS;
/** A second build (another commit, say) run beside this one, its phases interleaved with the others. */
export const COMPARE_JS = process.env.BENCH_COMPARE_JS;
/** The least ratio of this build's answers/s to the compared build's counted as "the same". */
export const COMPARE_RATIO = number('BENCH_COMPARE_RATIO', 0.95);
/** The floor phases (BENCH_FLOORS=0: none, when two builds are compared). */
export const FLOORS = process.env.BENCH_FLOORS !== '0';
/** Write the service's CPU profile (node --cpu-prof) into this folder. */
export const CPU_PROF_DIR = process.env.BENCH_CPU_PROF;
/** Node options of the service's processes, space-separated (`--max-old-space-size=512`). */
export const SERVICE_NODE_ARGS = (process.env.BENCH_SERVICE_NODE_ARGS ?? '')
  .split(' ')
  .filter(Boolean);

export const WRITERS = number('BENCH_WRITERS', 8);
export const BATCH = number('BENCH_BATCH', 500);
export const SECONDS = number('BENCH_SECONDS', 20);
export const ROUNDS = number('BENCH_ROUNDS', 3);
export const WARM_UP = number('BENCH_WARM_UP', 5);
export const PROBE_BATCH = number('BENCH_PROBE_BATCH', 30);
/** The pace of the second series of phases, in answers/s from all writers (0: no such series). */
export const PACED_RATE = number('BENCH_RATE', 30_000);
/** Which series run: `both`, `burst` (writers back to back) or `paced`. */
export const SERIES = process.env.BENCH_SERIES ?? 'both';
if (!['both', 'burst', 'paced'].includes(SERIES))
  throw new Error('BENCH_SERIES: both, burst or paced');
/** A probe batch leaves this long after the previous one was sent (at once if it took longer). */
export const PROBE_INTERVAL_MS = number('BENCH_PROBE_INTERVAL_MS', 50);
/** Empty the answers table before each phase, so every phase starts alike (BENCH_TRUNCATE=0 keeps it). */
export const TRUNCATE = process.env.BENCH_TRUNCATE !== '0';
export const RATE_LIMIT_POINTS = '1000000000';

export const TARGET = { answersPerSecond: 30_000, probeP99Ms: 50 };

/**
 * BENCH_WEBHOOKS=1: the target "service, webhooks on" beside "service" (off) in every round, the
 * teacher's endpoint enabled for the one and disabled for the other (default 0: not run).
 */
export const WEBHOOKS = process.env.BENCH_WEBHOOKS === '1';
/** The service's WEBHOOK_SECRET_KEY, fixed so that the bench seals the endpoint's secret itself. */
export const WEBHOOK_SECRET_KEY = '5e'.repeat(32);
/** A batch no event covers within this time after its acknowledgement is a failure. */
export const WEBHOOK_REFLECT_TIMEOUT_MS = 10_000;
/** After an "on" phase's load: wait until no event came for `quiet` ms, `max` ms at most. */
export const WEBHOOK_DRAIN_MS = { quiet: 3_000, max: 15_000 };
/** Issue 30: answers/s with webhooks on at least 0.90 of off; delivery p95 at most 2 s (paced). */
export const WEBHOOK_TARGET = { ratio: 0.9, p95Ms: 2_000 };

/** The live phase: `1` after the ingestion rounds (default), `only` (alone), `0` (none). */
export const LIVE = process.env.BENCH_LIVE ?? '1';
if (!['0', '1', 'only'].includes(LIVE)) throw new Error('BENCH_LIVE: 1, only or 0');
export const LIVE_SECONDS = number('BENCH_LIVE_SECONDS', 30);
/** Seconds of each live run played before its measures start (classes and subscriptions going). */
export const LIVE_WARM_UP = number('BENCH_LIVE_WARM_UP', 5);
export const LIVE_SESSIONS = number('BENCH_LIVE_SESSIONS', 100);
export const LIVE_PUPILS = number('BENCH_LIVE_PUPILS', 30);
/** Also run the live phase with the subscribers on a second instance (BENCH_LIVE_CROSS=0: not). */
export const LIVE_CROSS = process.env.BENCH_LIVE_CROSS !== '0';
/** A pupil's think time before each answer, uniform between these, in ms. */
export const LIVE_THINK_MS = { min: 2000, max: 8000 };
/** A classroom app sends a batch every second, give or take this many ms. */
export const LIVE_JITTER_MS = 150;
/** A batch no message reflects within this time after its acknowledgement is a failure. */
export const LIVE_REFLECT_TIMEOUT_MS = 10_000;
/** Subscriptions per WebSocket connection (the service's MAX_SUBSCRIPTIONS_PER_CONNECTION). */
export const LIVE_PER_CONNECTION = 5;
export const LIVE_TARGET = { p95Ms: 400, rssMb: 300 };

/** The seed data: pupils and quizzes to write answers for (the sessions are made by the run). */
export const GENERATE: GenerateOptions = {
  users: 2000,
  quizzes: 40,
  questions: 20,
  sessions: 20,
  participation: 0.01,
  seed: 1,
};
/** Each writer's session plays this many quizzes and names this many attendees. */
export const QUIZZES_PER_SESSION = 20;
export const PUPILS_PER_SESSION = 1000;

export const mysqlUri = (db = '') => `${SERVER.replace(/^mariadb:/, 'mysql:')}${db && `/${db}`}`;
export const log = (text: string) => process.stderr.write(`${text}\n`);
export const out = (text: string) => process.stdout.write(`${text}\n`);

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return NaN;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Nearest-rank percentile (0..100) of unsorted values. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/**
 * Ingestion throughput: addAnswers under sustained load from concurrent writers, with the
 * acknowledgement time of a small batch sent meanwhile, against the floor: the same statements
 * sent to MariaDB directly. Run with `npm run bench:ingest`; needs MariaDB on 127.0.0.1:3306
 * (BENCH_DATABASE_URL). `--help` lists the options.
 *
 * - Database quiz_ingest_bench, dropped and made again: generated 2,000 users (1,933 pupils),
 *   40 quizzes of 20 questions (seed 1); an API key bound to localhost and a token of the first
 *   teacher, who owns every session and writes every answer; a group of that teacher holding the
 *   1,000 pupils the sessions name (an owner names only users known to them, contract.md §9).
 * - The service: the current sources compiled by tsc into a temporary folder (BENCH_SERVICE_JS
 *   runs a build made elsewhere), in a child process, production mode, LOG_LEVEL=info (BENCH_LOG_LEVEL),
 *   RATE_LIMIT_POINTS=1e9 (every request is still counted against the key). RSS read from
 *   /proc/<pid>/status (VmRSS) every 250 ms of each service phase. BENCH_CPU_PROF=<dir> runs it
 *   under `node --cpu-prof` and leaves the profile there; BENCH_SERVICE_NODE_ARGS adds Node options
 *   (`--max-old-space-size=512`, as an operator's NODE_OPTIONS would).
 * - Writers: BENCH_WRITERS (8), each sending batches of BENCH_BATCH (500) answers back to back,
 *   each to its own session (20 quizzes, 1,000 pupils attending; a batch is 25 pupils × the 20
 *   questions of a quiz), every answer a new row. The probe: one batch of BENCH_PROBE_BATCH (30:
 *   one question answered by 30 pupils) every BENCH_PROBE_INTERVAL_MS (50) to a session of its
 *   own, timed from sending to the acknowledgement.
 * - Targets: the service (POST /addAnswers, JSON); the floor, through mysql2 connections set as
 *   the service's batch connections, with the upsert the service builds (upsertAnswers) alone;
 *   and the service's whole transaction (isolation level, attendees, upsert, change marker,
 *   COMMIT in one exchange), so that what the service adds to the database's own work shows.
 * - A phase: fresh sessions (addSession), the answers table emptied (TRUNCATE; BENCH_TRUNCATE=0
 *   keeps it), then BENCH_SECONDS (20) of load; answers/s = answers acknowledged / time until the
 *   last writer's last batch was answered. Writers send back to back (the throughput), and in a
 *   second series paced to BENCH_RATE (30,000) answers/s in all (the probe's times at the target
 *   rate, where the database is not saturated). Rounds: BENCH_ROUNDS (3), each running every
 *   phase once, their order rotated from round to round; medians. BENCH_WARM_UP (5) s of service
 *   load and of floor load come first and are not counted.
 * - BENCH_COMPARE_JS runs a second build (an earlier commit, compiled into a folder of its own)
 *   beside this one, as the target "compared build": its phases interleave with the others, so
 *   both builds are timed on the same machine at the same time. Its target: this build's answers/s
 *   over the compared build's, per round, median at least BENCH_COMPARE_RATIO (0.95). With
 *   BENCH_FLOORS=0 a round is the two builds alone, one right after the other: short phases and
 *   many rounds then pair them closely in time, which a shared machine's drifting load needs.
 * - The live phase (BENCH_LIVE: 1 after the rounds, the default; only; 0 none), the live target
 *   of the issue: BENCH_LIVE_SESSIONS (100) fresh sessions of the teacher, BENCH_LIVE_PUPILS (30)
 *   attending each, each session followed by BENCH_LIVE_SUBSCRIBERS (10) sessionResults
 *   subscriptions (nbAnswers and nbGoodAnswers; the same query, variables and teacher's token, as
 *   one teacher's screens, so that an instance shares one computation among them) over graphql-ws
 *   from this process, 5 subscriptions to a connection, a session's on different connections.
 *   The instances' LIVE_MAX_SUBSCRIPTIONS_PER_USER and _PER_KEY are raised to hold them all
 *   (unless set). A class plays in every session: pupils answer its questions one after the
 *   other, 2 to 8 s of thought before each; its classroom app sends about once a second (±150 ms,
 *   sessions de-phased) one addAnswers batch with the answers given since the last (one batch at
 *   a time). BENCH_LIVE_WARM_UP (5) s of play, then BENCH_LIVE_SECONDS (30) measured. For each
 *   batch acknowledged in that window and each subscription to its session: the time from its
 *   acknowledgement to the first message on that subscription whose items' nbAnswers add up to
 *   the session's count after it (the sum of the acknowledgements' `inserted`), 0 when a message
 *   came first; p50 / p95 / p99 / max over all of them, messages per subscription per second,
 *   batches/s, answers/s, errors (a refused batch, a subscription error, a batch not reflected
 *   within 10 s). CPU: the utime + stime (/proc/<pid>/stat) of the instance holding the
 *   subscriptions over the window, per batch and per message delivered; each path runs
 *   BENCH_LIVE_ROUNDS (2) rounds of a run with 1 subscriber per session and one with
 *   BENCH_LIVE_SUBSCRIBERS, their order swapped from round to round: latencies pooled, CPU the
 *   median of the rounds, and the median of the rounds' ratios (many over 1). Targets: p95 ≤
 *   150 ms on the writing instance, ≤ 400 ms across instances (with BENCH_LIVE_SUBSCRIBERS); CPU
 *   per message not growing with the subscribers (ratio ≤ 1); the service's VmRSS (sampled every
 *   250 ms) below 300 MB, peak and at the end; no error. Run with the subscriptions on the
 *   instance that takes the writes, then (BENCH_LIVE_CROSS=0: not) on a second instance started
 *   on the same database, which hears of the writes through its change feed's poll
 *   (LIVE_POLL_INTERVAL_MS, as set).
 * - BENCH_WEBHOOKS=1 (default 0: the run as without webhooks) adds the target "service, webhooks
 *   on" beside "service" (then: off) in both series, interleaved in the same rounds, on the same
 *   service process, started with WEBHOOK_ALLOWED_HOSTS=127.0.0.1 and a fixed WEBHOOK_SECRET_KEY.
 *   Before the rounds, the bench registers for the teacher one endpoint (answers.recorded) to a
 *   receiver of its own on 127.0.0.1 (node http, 204 at once), its secret sealed as the service
 *   seals it; the endpoint is enabled for the "on" phases only (disabled: addAnswers writes no
 *   outbox entry). Every message's signature is verified (standardwebhooks). For each batch
 *   acknowledged in an "on" phase: the time from its acknowledgement to the arrival of the event
 *   covering it (the first after which the answers of its session's events received add up to
 *   those acknowledged through it; also shown: the first event of its session arriving after the
 *   acknowledgement, which may not hold it), p50 / p95 / p99 / max, and batches not covered
 *   within 10 s (errors). After an "on" phase's load the bench waits until every batch is
 *   covered, or no event came for 3 s, or 15 s. Targets (issue 30): answers/s on at least 0.90 of
 *   off (back to back, median of the rounds' ratios); delivery p95 ≤ 2 s in the paced series; no
 *   signature failure.
 * - Exit code 1 when a batch was refused or failed, a live subscription failed, a webhook
 *   message failed its signature or a batch's event did not come within 10 s.
 */
import 'reflect-metadata';
import os from 'node:os';
import { buildService, startService, type Service } from './results-bench.process';
import { prepareFixture } from './ingest/ingest-fixture';
import { runPhase, type PhaseContext, type PhaseResult } from './ingest/ingest-phase';
import { report } from './ingest/ingest-report';
import {
  runLivePhase,
  type LiveContext,
  type LivePath,
  type LivePhaseResult,
} from './ingest/live-phase';
import { reportLive } from './ingest/live-report';
import {
  LIVE_ROUNDS,
  LIVE_SUBSCRIBER_COUNTS,
  raiseSubscriptionLimits,
} from './ingest/live-settings';
import {
  BUILD_DIR,
  COMPARE_JS,
  CPU_PROF_DIR,
  SERVICE_NODE_ARGS,
  FLOORS,
  DB,
  LIVE,
  LIVE_CROSS,
  PACED_RATE,
  ROUNDS,
  SECONDS,
  SERIES,
  SERVICE_JS,
  WARM_UP,
  WEBHOOK_SECRET_KEY,
  WEBHOOKS,
  log,
  out,
  percentile,
} from './ingest/ingest-settings';
import { TARGET_LABEL, type Target } from './ingest/ingest-sinks';
import { WebhookReceiver } from './ingest/webhook-receiver';
import { reportWebhooks } from './ingest/webhook-report';

/** What each round runs: every target back to back, then the services and the floor paced. */
const SERVICES: Target[] = [
  'service',
  ...(WEBHOOKS ? ['hooks' as const] : []),
  ...(COMPARE_JS ? ['compare' as const] : []),
];
const FLOOR: Target[] = FLOORS ? ['floor'] : [];
const CASES: { target: Target; rate?: number }[] = [
  ...(SERIES !== 'paced'
    ? [...SERVICES, ...FLOOR, ...(FLOORS ? ['floorTx' as const] : [])].map((target) => ({ target }))
    : []),
  ...(PACED_RATE > 0 && SERIES !== 'burst'
    ? [...SERVICES, ...FLOOR].map((target) => ({ target, rate: PACED_RATE }))
    : []),
];

async function main(): Promise<void> {
  const mainJs = SERVICE_JS ?? (await buildService(BUILD_DIR));
  const f = await prepareFixture();
  const nodeArgs = [
    ...SERVICE_NODE_ARGS,
    ...(CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`] : []),
  ];
  if (WEBHOOKS) {
    // Read by the service instances started below (startService passes the environment on).
    process.env.WEBHOOK_ALLOWED_HOSTS = '127.0.0.1';
    process.env.WEBHOOK_SECRET_KEY = WEBHOOK_SECRET_KEY;
  }
  // Read by the service instances too: the teacher holds every live subscription.
  if (LIVE !== '0') raiseSubscriptionLimits(process.env);
  const webhooks = WEBHOOKS ? await WebhookReceiver.start(f.teacherId) : undefined;
  const service: Service = await startService(mainJs, DB, nodeArgs);
  const compare = COMPARE_JS ? await startService(COMPARE_JS, DB) : undefined;
  const running = (s: Service) => ({ url: s.url, pid: s.child.pid as number });
  const ctx: PhaseContext = {
    f,
    service: running(service),
    compare: compare && running(compare),
    webhooks,
  };
  const idleMb = service.rss.currentMb();
  const results: PhaseResult[][] = [];
  const live: LivePhaseResult[] = [];
  let hwmMb: number;
  try {
    if (LIVE !== 'only') await ingestion(ctx, results);
    hwmMb = service.rss.overallPeakMb();
    if (LIVE !== '0') await livePhase(mainJs, nodeArgs, ctx, live);
  } finally {
    await service.stop();
    await compare?.stop();
    await webhooks?.close();
  }
  const ingestFailed =
    results.length > 0 && report(results, { idleMb, hwmMb, cpus: os.cpus().length });
  const webhooksFailed = webhooks !== undefined && reportWebhooks(results, webhooks.totals);
  const liveFailed = reportLive(live, Number(process.env.LIVE_POLL_INTERVAL_MS || 100));
  if (CPU_PROF_DIR) out(`\nCPU profile of the service written into ${CPU_PROF_DIR}`);
  if (ingestFailed || liveFailed || webhooksFailed) process.exitCode = 1;
}

/** The live phase: subscriptions on the instance that takes the writes, then on a second one. */
async function livePhase(
  mainJs: string,
  nodeArgs: string[],
  ctx: PhaseContext,
  live: LivePhaseResult[],
): Promise<void> {
  const local: LiveContext = { f: ctx.f, writer: ctx.service, watcher: ctx.service };
  await liveRounds('local', local, live);
  if (!LIVE_CROSS) return;
  const second = await startService(mainJs, DB, nodeArgs);
  try {
    const watcher = { url: second.url, pid: second.child.pid as number };
    await liveRounds('cross', { ...local, watcher }, live);
  } finally {
    await second.stop();
  }
}

/** A path's rounds: 1 subscriber per session and BENCH_LIVE_SUBSCRIBERS, the order swapped. */
async function liveRounds(
  path: LivePath,
  ctx: LiveContext,
  live: LivePhaseResult[],
): Promise<void> {
  for (let round = 1; round <= LIVE_ROUNDS; round += 1) {
    const counts = round % 2 ? LIVE_SUBSCRIBER_COUNTS : [...LIVE_SUBSCRIBER_COUNTS].reverse();
    for (const subscribers of counts) {
      live.push(await runLivePhase(path, ctx, subscribers, round));
    }
  }
}

/** The ingestion rounds: every case once per round, the order rotated. */
async function ingestion(ctx: PhaseContext, results: PhaseResult[][]): Promise<void> {
  if (WARM_UP > 0) {
    log(
      `warm-up: ${WARM_UP} s of load per service${FLOORS ? ' and of floor load' : ''} (not counted)`,
    );
    for (const target of SERVICES) await runPhase(target, ctx, WARM_UP);
    if (FLOORS) await runPhase('floor', ctx, WARM_UP);
  }
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = CASES.map((_, i) => CASES[(i + round) % CASES.length] as (typeof CASES)[0]);
    const phases: PhaseResult[] = [];
    for (const { target, rate } of order) {
      const result = await runPhase(target, ctx, SECONDS, rate);
      log(
        `round ${round + 1}: ${TARGET_LABEL[target]}${rate ? ` paced at ${rate}` : ''}: ` +
          `${Math.round(result.answersPerSecond)} answers/s, probe p99 ${percentile(result.probeMs, 99).toFixed(1)} ms` +
          (result.errors.size ? `, errors ${[...result.errors].join(', ')}` : ''),
      );
      phases.push(result);
    }
    results.push(phases);
  }
}

const HELP = `npm run bench:ingest  (options are environment variables)
  BENCH_DATABASE_URL       MariaDB server (default mariadb://root@127.0.0.1:3306); database ${DB}
  BENCH_WRITERS            concurrent writers (default 8), each to its own session
  BENCH_BATCH              answers per writer batch (default 500)
  BENCH_SECONDS            seconds per phase (default 20)
  BENCH_ROUNDS             rounds, each running every target once, interleaved (default 3)
  BENCH_WARM_UP            seconds of uncounted load first, service and floor (default 5)
  BENCH_PROBE_BATCH        answers per probe batch (default 30)
  BENCH_PROBE_INTERVAL_MS  a probe batch every this many ms (default 50)
  BENCH_RATE               the pace of the paced phases, answers/s from all writers (default 30000; 0: none)
  BENCH_SERIES             both (default), burst (writers back to back only) or paced (only)
  BENCH_TRUNCATE=0         keep the answers of earlier phases (default: emptied before each)
  BENCH_SERVICE_JS         a service built elsewhere (<build>/src/main.js), instead of the sources
  BENCH_COMPARE_JS         a second build run beside it (another commit compiled with tsc -p
                           .config/tsconfig.build.json --outDir <build>), its phases interleaved
  BENCH_COMPARE_RATIO      least ratio of this build's answers/s to the compared one's (default 0.95)
  BENCH_FLOORS=0           no floor phases (a comparison of two builds alone)
  BENCH_WEBHOOKS=1         also the target "service, webhooks on" (an endpoint of the teacher, to a
                           receiver of the bench), interleaved with "service" (off); default 0
  BENCH_CPU_PROF           a folder: run the service under node --cpu-prof, profile written there
  BENCH_LIVE               1 (default): the live phase after the ingestion rounds; only: it alone; 0: none
  BENCH_LIVE_SECONDS       seconds measured per live run (default 30)
  BENCH_LIVE_WARM_UP       seconds of play before them, not counted (default 5)
  BENCH_LIVE_SESSIONS      sessions played and subscribed to (default 100)
  BENCH_LIVE_PUPILS        pupils per session (default 30)
  BENCH_LIVE_SUBSCRIBERS   subscriptions per session, the teacher's, alike (default 10); each path
                           also runs with 1, to compare the CPU per batch and per message
  BENCH_LIVE_ROUNDS        rounds of those two runs per path, their order swapped (default 2)
  BENCH_LIVE_CROSS=0       no second run with the subscriptions on a second instance
  LIVE_POLL_INTERVAL_MS    passed to the service instances (default 100)
  LIVE_MAX_SUBSCRIPTIONS_PER_USER, LIVE_MAX_SUBSCRIPTIONS_PER_KEY
                           passed on; unless set, raised to hold sessions × subscribers (the
                           teacher holds every subscription, so that they share computations)`;

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  out(HELP);
} else {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}

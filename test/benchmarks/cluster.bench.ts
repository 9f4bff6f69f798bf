/**
 * getQuiz through two instances on two Galera nodes against one instance on one node, with the
 * certification conflicts the shared rate-limit row causes. Run with `npm run bench:cluster`;
 * needs root, Debian's `mariadb-server`, `galera-4` and `rsync` (test/helpers/galera.ts starts
 * the cluster on loopback ports in a temporary folder, and stops it at the end, on failure and
 * on SIGINT/SIGTERM). `--help` lists the options.
 *
 * - Cluster: BENCH_CLUSTER_SIZE (3) nodes. The database quiz_bench_cluster is created and
 *   migrated through node 1 and filled with the getQuiz benchmark's data (1,000 users, 50
 *   quizzes of 10 questions, seed 1); one API key bound to localhost; the first public quiz of
 *   10 questions.
 * - Service: the current sources compiled by tsc into os.tmpdir()/quiz-cluster-bench-build
 *   (BENCH_SERVICE_JS runs a build made elsewhere), two child processes: instance A with
 *   DATABASE_URL on node 1, B on node 2, the same database, MIGRATE_ON_START=false, production
 *   mode, LOG_LEVEL info into a pipe, RATE_LIMIT_POINTS=1e9 (nothing is refused, every request is
 *   still charged to the key, through the slices each instance leases of the key's one row in
 *   `rate_limits`), METRICS_TOKEN set (GET /metrics is read with it).
 * - Load: autocannon in child processes, GET /getQuiz?quizId=..&apiKey=.., the same key on
 *   both instances. BENCH_WARM_UP_SECONDS (5) on A and B at once first, not counted. Phases:
 *   "one node", BENCH_CONNECTIONS (50) on A alone; "two nodes", BENCH_CONNECTIONS on A and as
 *   many on B at once; each for BENCH_SECONDS (60). BENCH_ROUNDS (3) rounds of both phases, the
 *   first phase alternating from round to round.
 * - Per phase: req/s (summed over the loaded instances), p50 and p99 latency (two nodes: the
 *   slower instance's), errors (non-2xx, timeouts, connection errors); the delta of each
 *   instance's `quiz_rate_limit_leases_total`; and from each node's SHOW GLOBAL STATUS, read
 *   before the load and 2 s after it (so the slices given back once the key is idle count in
 *   the phase that leased them), the deltas of `wsrep_local_cert_failures` and
 *   `wsrep_local_bf_aborts` summed over the nodes (Galera may count one lost transaction in
 *   both). The only writes meanwhile are the leases of the key's rate-limit row, their
 *   give-backs, and each instance's flush of the key's last use (one UPDATE of its api_keys row
 *   every 30 s; the purges run every 10 min): a conflict is on one of those two rows. The nodes
 *   log their conflicts (SET GLOBAL wsrep_log_conflicts = ON): "on lease" counts the conflict
 *   victims they logged with a lease's statement (its comment tag "rate-limit lease", or naming
 *   rate_limits). Only a conflict caught in a node's InnoDB is logged with its statement (not
 *   always counted as a BF abort); one found at certification is logged by key hash only.
 * - Summary: medians over the rounds, two nodes / one node (ratio of the medians, and each
 *   round's), the instances' peak RSS (VmRSS sampled every 20 ms, and VmHWM), and the targets
 *   (issue: "a cluster row"): 0 certification conflicts (cert failures and BF aborts both 0) in
 *   every phase; two nodes' req/s at least 1.6 × one node's. Printed, never asserted: the exit
 *   code is 1 only when the bench itself fails.
 * - On a machine of few cores the nodes, both instances and autocannon share them: the ratio
 *   then measures that sharing as much as the service.
 */
import 'reflect-metadata';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startGaleraCluster, type GaleraCluster } from '../helpers/galera';
import { log, median, out } from './results-bench.config';
import { buildService } from './results-bench.process';
import { autocannon, type Measure } from './get-quiz-bench.load';
import {
  checkGetQuiz,
  DB,
  leasesOf,
  openCounterConnections,
  prepareClusterDatabase,
  startInstance,
  type Instance,
  type WsrepCounters,
} from './cluster-bench.nodes';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 5);
const CLUSTER_SIZE = Number(process.env.BENCH_CLUSTER_SIZE ?? 3);
const SERVICE_JS = process.env.BENCH_SERVICE_JS;
const BUILD_DIR = path.join(os.tmpdir(), 'quiz-cluster-bench-build');
/** After the load, before the counters are read: an idle key's slices are given back after 1 s. */
const SETTLE_MS = 2000;
const TARGET_RATIO = 1.6;

const HELP = `npm run bench:cluster  (options are environment variables)
  BENCH_SECONDS          seconds per phase (default 60)
  BENCH_ROUNDS           rounds of both phases, first phase alternating (default 3)
  BENCH_CONNECTIONS      autocannon connections per loaded instance (default 50)
  BENCH_WARM_UP_SECONDS  load on both instances before round 1, not counted (default 5)
  BENCH_CLUSTER_SIZE     Galera nodes (default 3, at least 2)
  DATABASE_POOL_SIZE     each instance's pool (default 10)
  BENCH_SERVICE_JS       a service built elsewhere, instead of compiling the sources
  BENCH_LOG_LEVEL        the instances' LOG_LEVEL (default info)`;

type PhaseName = 'one node' | 'two nodes';
const PHASES: PhaseName[] = ['one node', 'two nodes'];

interface PhaseResult {
  phase: PhaseName;
  round: number;
  rps: number;
  /** One per loaded instance: A, then B. */
  measures: Measure[];
  p50: number;
  p99: number;
  errors: number;
  certFailures: number;
  bfAborts: number;
  /** Conflict victims the nodes logged running a lease statement. */
  leaseVictims: number;
  /** Delta of quiz_rate_limit_leases_total of A and of B. */
  leases: number[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function runPhase(
  phase: PhaseName,
  round: number,
  instances: Instance[],
  requestPath: string,
  counters: () => Promise<WsrepCounters>,
): Promise<PhaseResult> {
  const loaded = phase === 'one node' ? instances.slice(0, 1) : instances;
  const before = await counters();
  const leasesBefore = await Promise.all(instances.map(leasesOf));
  const measures = await Promise.all(
    loaded.map((i) =>
      autocannon({ name: i.name, url: `${i.url}${requestPath}` }, CONNECTIONS, SECONDS),
    ),
  );
  await sleep(SETTLE_MS);
  const after = await counters();
  const leasesAfter = await Promise.all(instances.map(leasesOf));
  return {
    phase,
    round,
    rps: measures.reduce((sum, m) => sum + m.rps, 0),
    measures,
    p50: Math.max(...measures.map((m) => m.p50)),
    p99: Math.max(...measures.map((m) => m.p99)),
    errors: measures.reduce((sum, m) => sum + m.errors, 0),
    certFailures: after.certFailures - before.certFailures,
    bfAborts: after.bfAborts - before.bfAborts,
    leaseVictims: after.leaseVictims - before.leaseVictims,
    leases: leasesAfter.map((n, i) => n - (leasesBefore[i] as number)),
  };
}

function phaseLine(r: PhaseResult): string {
  const per = r.measures.map((m, i) => `${'AB'[i]} ${m.rps.toFixed(0)}`).join(' + ');
  return `round ${r.round}/${ROUNDS}, ${r.phase}: ${r.rps.toFixed(0)} req/s (${per}), p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.errors} errors, cert failures ${r.certFailures}, BF aborts ${r.bfAborts}, logged victims on a lease ${r.leaseVictims}, leases A ${r.leases[0]} B ${r.leases[1]}`;
}

const HEAD = `${'round'.padStart(5)}  ${'phase'.padEnd(10)}${'req/s'.padStart(8)}${'A req/s'.padStart(9)}${'B req/s'.padStart(9)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'errors'.padStart(8)}${'cert fail'.padStart(11)}${'BF aborts'.padStart(11)}${'on lease'.padStart(10)}${'leases A'.padStart(10)}${'leases B'.padStart(10)}`;

function row(label: string, phase: string, cells: (number | string)[]): string {
  const [rps, a, b, p50, p99, errors, cert, bf, lv, la, lb] = cells.map((c) =>
    typeof c === 'number' ? (Number.isInteger(c) ? String(c) : c.toFixed(1)) : c,
  ) as string[];
  return `${label.padStart(5)}  ${phase.padEnd(10)}${rps.padStart(8)}${a.padStart(9)}${b.padStart(9)}${p50.padStart(8)}${p99.padStart(8)}${errors.padStart(8)}${cert.padStart(11)}${bf.padStart(11)}${lv.padStart(10)}${la.padStart(10)}${lb.padStart(10)}`;
}

function printReport(
  results: PhaseResult[],
  instances: Instance[],
  startupMs: number,
  loadAverage: number,
): void {
  out(
    `\ngetQuiz through instances on Galera nodes (cluster of ${CLUSTER_SIZE}, synced in ${(startupMs / 1000).toFixed(1)} s): A on node 1, B on node 2, one API key; database pool ${process.env.DATABASE_POOL_SIZE ?? 10} per instance`,
  );
  out(
    `machine: ${os.cpus().length} cores shared by the nodes, the instances and autocannon; load average (1 min) before the rounds ${loadAverage.toFixed(1)}`,
  );
  out(
    `${ROUNDS} round(s) × ${SECONDS} s per phase, ${CONNECTIONS} connections per loaded instance, first phase alternating; counters read before the load and ${SETTLE_MS / 1000} s after it`,
  );
  out(HEAD);
  const rounded = (n: number) => Math.round(n);
  for (const r of results) {
    const [a, b] = r.measures;
    out(
      row(String(r.round), r.phase, [
        rounded(r.rps),
        a ? rounded(a.rps) : '',
        b ? rounded(b.rps) : '–',
        r.p50,
        r.p99,
        r.errors,
        r.certFailures,
        r.bfAborts,
        r.leaseVictims,
        r.leases[0] ?? 0,
        r.leases[1] ?? 0,
      ]),
    );
  }
  const of = (phase: PhaseName) => results.filter((r) => r.phase === phase);
  const med = (phase: PhaseName, f: (r: PhaseResult) => number) => median(of(phase).map(f));
  const sum = (phase: PhaseName, f: (r: PhaseResult) => number) =>
    of(phase).reduce((s, r) => s + f(r), 0);
  out('medians over the rounds (errors, cert failures, BF aborts, on lease: sums):');
  for (const phase of PHASES) {
    out(
      row('med', phase, [
        rounded(med(phase, (r) => r.rps)),
        rounded(med(phase, (r) => r.measures[0]?.rps ?? 0)),
        phase === 'one node' ? '–' : rounded(med(phase, (r) => r.measures[1]?.rps ?? 0)),
        med(phase, (r) => r.p50),
        med(phase, (r) => r.p99),
        sum(phase, (r) => r.errors),
        sum(phase, (r) => r.certFailures),
        sum(phase, (r) => r.bfAborts),
        sum(phase, (r) => r.leaseVictims),
        med(phase, (r) => r.leases[0] ?? 0),
        med(phase, (r) => r.leases[1] ?? 0),
      ]),
    );
  }
  const ratio = med('two nodes', (r) => r.rps) / med('one node', (r) => r.rps);
  const perRound = Array.from({ length: ROUNDS }, (_, i) => {
    const [one, two] = PHASES.map((p) => of(p).find((r) => r.round === i + 1));
    return one && two ? (two.rps / one.rps).toFixed(2) : '?';
  });
  out(`two nodes / one node: ${ratio.toFixed(2)} (per round: ${perRound.join(', ')})`);
  const details = results
    .filter((r) => r.errors > 0)
    .map(
      (r) =>
        `round ${r.round}, ${r.phase}: ${r.measures
          .flatMap((m, i) => Object.entries(m.statuses).map(([s, n]) => `${'AB'[i]} ${s} × ${n}`))
          .join(', ')}`,
    );
  if (details.length > 0)
    out(`errors by status (socket = timeouts and connection errors):\n  ${details.join('\n  ')}`);
  out(
    `instances' peak RSS: ${instances.map((i) => `${i.name} ${i.rss.overallPeakMb().toFixed(0)} MB`).join(', ')}`,
  );
  const certFailures = results.reduce((s, r) => s + r.certFailures, 0);
  const bfAborts = results.reduce((s, r) => s + r.bfAborts, 0);
  const leaseVictims = results.reduce((s, r) => s + r.leaseVictims, 0);
  const verdict = (met: boolean) => (met ? 'met' : 'MISSED');
  out('targets:');
  out(
    `  0 certification conflicts on the rate-limit row, all phases: cert failures ${certFailures}, BF aborts ${bfAborts}; logged victims on a lease ${leaseVictims} → ${verdict(certFailures === 0 && bfAborts === 0)}`,
  );
  out(
    `  two nodes' req/s ≥ ${TARGET_RATIO} × one node's: ${ratio.toFixed(2)} × → ${verdict(ratio >= TARGET_RATIO)}`,
  );
}

let clusterStart: Promise<GaleraCluster> | undefined;
/** Set by SIGINT/SIGTERM: what fails after it is the shutdown's doing, not worth printing. */
let signalled = false;
const instances: Instance[] = [];
let shutdown: Promise<void> | undefined;

/** Stops the instances, then the cluster (also one still starting); once, whoever asks first. */
function stopAll(): Promise<void> {
  shutdown ??= (async () => {
    await Promise.all(instances.map((i) => i.stop().catch(() => undefined)));
    const cluster = await clusterStart?.catch(() => undefined);
    await cluster?.stop();
  })();
  return shutdown;
}

/**
 * The autocannon processes of a phase a signal interrupted: this process's children running
 * autocannon, by pid (the nodes and the instances are stopped by stopAll).
 */
function stopLoadProcesses(): void {
  const task = `/proc/${process.pid}/task`;
  const read = (file: string) => {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      // No /proc, or a child that ended meanwhile.
      return '';
    }
  };
  const children = (fs.existsSync(task) ? fs.readdirSync(task) : [])
    .flatMap((tid) => read(`${task}/${tid}/children`).split(' '))
    .filter(Boolean)
    .map(Number);
  for (const pid of children) {
    if (!read(`/proc/${pid}/cmdline`).includes('autocannon')) continue;
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // It ended meanwhile.
    }
  }
}

async function main(): Promise<void> {
  if (CLUSTER_SIZE < 2) throw new Error('BENCH_CLUSTER_SIZE: at least 2 nodes');
  const mainJs = SERVICE_JS ?? (await buildService(BUILD_DIR));
  log(`starting a Galera cluster of ${CLUSTER_SIZE} nodes`);
  clusterStart = startGaleraCluster({ size: CLUSTER_SIZE });
  const cluster = await clusterStart;
  log(`cluster synced in ${(cluster.state.startupMs / 1000).toFixed(1)} s`);
  const { apiKey, quizId } = await prepareClusterDatabase(cluster.urls()[0] as string);
  log(`${DB}: generated through node 1; quiz ${quizId}`);
  const urls = cluster.urls(DB);
  for (const [i, name] of ['A', 'B'].entries()) {
    instances.push(await startInstance(name, mainJs, urls[i] as string));
  }
  const getQuizPath = `/getQuiz?quizId=${quizId}&apiKey=${apiKey}`;
  for (const i of instances) await checkGetQuiz(`${i.url}${getQuizPath}`, i.name);
  const counters = await openCounterConnections(
    cluster.urls(),
    cluster.state.nodes.map((node) => path.join(node.dir, 'error.log')),
  );
  const results: PhaseResult[] = [];
  // Other processes of the machine included: what the figures shared the cores with.
  const [loadAverage] = os.loadavg() as [number];
  try {
    const total = WARM_UP_SECONDS + ROUNDS * 2 * (SECONDS + SETTLE_MS / 1000 + 1);
    log(`warm-up ${WARM_UP_SECONDS} s, then about ${Math.ceil(total / 60)} min`);
    await Promise.all(
      instances.map((i) =>
        autocannon({ name: i.name, url: `${i.url}${getQuizPath}` }, CONNECTIONS, WARM_UP_SECONDS),
      ),
    );
    await sleep(SETTLE_MS);
    for (let round = 1; round <= ROUNDS; round += 1) {
      const order = round % 2 === 1 ? PHASES : [...PHASES].reverse();
      for (const phase of order) {
        const result = await runPhase(phase, round, instances, getQuizPath, counters.read);
        log(phaseLine(result));
        results.push(result);
      }
    }
  } finally {
    await counters.close();
  }
  printReport(results, instances, cluster.state.startupMs, loadAverage);
}

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  out(HELP);
} else {
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) return;
    signalled = true;
    log(`${signal}: stopping the load, the instances and the cluster`);
    stopLoadProcesses();
    void stopAll().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  main()
    .then(stopAll)
    .catch(async (error: unknown) => {
      if (signalled) return;
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      await stopAll().catch(() => undefined);
      process.exit(1);
    });
}

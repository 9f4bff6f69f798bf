/**
 * getResults throughput on tier M: 32 clients in a closed loop (each sends its next request once
 * its previous one is answered) for BENCH_THROUGHPUT_SECONDS, through REST and GraphQL, against
 * the floor's statement run the same way by 32 mysql2 connections. The service keeps its own pool
 * and admission control, so what it cannot take shows as errors (503) rather than being hidden.
 * Targets interleave over BENCH_THROUGHPUT_ROUNDS rounds in a rotated order; medians.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import mysql from 'mysql2/promise';
import {
  log,
  median,
  mysqlUri,
  out,
  SHAPE_LABEL,
  THROUGHPUT_CONNECTIONS,
  THROUGHPUT_ROUNDS,
  THROUGHPUT_SECONDS,
  TRANSPORT_LABEL,
  type Case,
  type Tier,
  type Transport,
} from './results-bench.config';
import { floorRun } from './results-bench.floor';
import type { Service } from './results-bench.process';
import {
  graphqlRequest,
  httpRequest,
  restRequest,
  type HttpRequest,
} from './results-bench.requests';
import type { Prepared } from './results-bench.tiers';

const USERS = 100;
const QUIZZES = 10;
const SHAPE = 'byUser';
/** Load per target before the first round: JIT of the concurrent paths, sockets, buffer pool. */
const WARM_UP_SECONDS = 2;

/** One call of a target; answers undefined when it succeeded, else what failed (a status, a code). */
type Call = (worker: number) => Promise<string | undefined>;

interface Run {
  rps: number;
  latencies: number[];
  statuses: Map<string, number>;
}

export interface ThroughputRow {
  transport: Transport;
  rps: number;
  minRps: number;
  maxRps: number;
  p50: number;
  p99: number;
  errors: number;
  statuses: Map<string, number>;
  ratio: number;
}

export interface ThroughputReport {
  tier: string;
  rows: ThroughputRow[];
}

/**
 * `concurrency` workers each calling again as soon as their call ends, until the deadline. Calls
 * still running then are awaited and counted: the rate is successes over the time until the last
 * one ends, and the next target starts on an idle service.
 */
async function closedLoop(concurrency: number, seconds: number, call: Call): Promise<Run> {
  const start = performance.now();
  const deadline = start + seconds * 1000;
  const latencies: number[] = [];
  const statuses = new Map<string, number>();
  let ok = 0;
  const worker = async (w: number): Promise<void> => {
    while (performance.now() < deadline) {
      const began = performance.now();
      let failure: string | undefined;
      try {
        failure = await call(w);
      } catch (error) {
        failure = String((error as { code?: unknown }).code ?? 'exception');
      }
      latencies.push(performance.now() - began);
      if (failure === undefined) ok += 1;
      else statuses.set(failure, (statuses.get(failure) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  return { rps: ok / ((performance.now() - start) / 1000), latencies, statuses };
}

/** Each run gets its own agent: sockets left idle by the other targets' runs are not reused. */
function httpCall(request: HttpRequest, graphql: boolean): () => { call: Call; done: () => void } {
  return () => {
    const via = new http.Agent({ keepAlive: true, maxSockets: THROUGHPUT_CONNECTIONS });
    const call: Call = async () => {
      const res = await httpRequest(request, via);
      if (res.status !== 200) return String(res.status);
      if (graphql && (JSON.parse(res.body) as { errors?: unknown }).errors) return '200 + errors';
      return undefined;
    };
    return { call, done: () => via.destroy() };
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
}

export async function benchThroughput(
  tier: Tier,
  p: Prepared,
  service: Service,
  compared?: Service,
): Promise<ThroughputReport> {
  const c: Case = {
    userSetId: p.userSets.get(USERS) as number,
    quizSetId: p.quizSets.get(QUIZZES) as number,
    shape: SHAPE,
  };
  const conns = await Promise.all(
    Array.from({ length: THROUGHPUT_CONNECTIONS }, () =>
      mysql.createConnection({ uri: mysqlUri(tier.db), timezone: 'Z' }),
    ),
  );
  const targets = new Map<Transport, () => { call: Call; done: () => void }>([
    [
      'floor',
      () => ({
        call: async (w) => {
          await floorRun(conns[w] as mysql.Connection, c, p.requesterId);
          return undefined;
        },
        done: () => undefined,
      }),
    ],
    ['REST', httpCall(restRequest(service, p, c), false)],
    ['GraphQL', httpCall(graphqlRequest(service, p, c), true)],
  ]);
  if (compared) {
    targets.set('compareREST', httpCall(restRequest(compared, p, c), false));
    targets.set('compareGraphQL', httpCall(graphqlRequest(compared, p, c), true));
  }
  const order = [...targets.keys()];
  const runs = new Map<Transport, Run[]>(order.map((t) => [t, []]));
  const measure = async (t: Transport, seconds: number): Promise<Run> => {
    const { call, done } = (targets.get(t) as () => { call: Call; done: () => void })();
    try {
      return await closedLoop(THROUGHPUT_CONNECTIONS, seconds, call);
    } finally {
      done();
    }
  };
  try {
    for (const t of order) await measure(t, Math.min(WARM_UP_SECONDS, THROUGHPUT_SECONDS));
    for (let round = 0; round < THROUGHPUT_ROUNDS; round += 1) {
      const k = round % order.length;
      for (const t of [...order.slice(k), ...order.slice(0, k)]) {
        const run = await measure(t, THROUGHPUT_SECONDS);
        runs.get(t)?.push(run);
        const errors = [...run.statuses.values()].reduce((a, b) => a + b, 0);
        log(
          `tier ${tier.name} throughput round ${round + 1}/${THROUGHPUT_ROUNDS}, ${TRANSPORT_LABEL[t]}: ${run.rps.toFixed(1)} req/s, ${errors} errors`,
        );
      }
    }
  } finally {
    await Promise.all(conns.map((conn) => conn.end()));
  }
  const floorRps = median((runs.get('floor') ?? []).map((r) => r.rps));
  const rows = order.map((t): ThroughputRow => {
    const list = runs.get(t) ?? [];
    const rates = list.map((r) => r.rps);
    const statuses = new Map<string, number>();
    for (const r of list)
      for (const [s, n] of r.statuses) statuses.set(s, (statuses.get(s) ?? 0) + n);
    const sortedRuns = list.map((r) => [...r.latencies].sort((a, b) => a - b));
    return {
      transport: t,
      rps: median(rates),
      minRps: Math.min(...rates),
      maxRps: Math.max(...rates),
      p50: median(sortedRuns.map((s) => percentile(s, 50))),
      p99: median(sortedRuns.map((s) => percentile(s, 99))),
      errors: [...statuses.values()].reduce((a, b) => a + b, 0),
      statuses,
      ratio: median(rates) / floorRps,
    };
  });
  return { tier: tier.name, rows };
}

export function printThroughput(report: ThroughputReport): void {
  out(
    `\ngetResults throughput, tier ${report.tier}, ${USERS} users × ${QUIZZES} quizzes, ${SHAPE_LABEL[SHAPE]}: ${THROUGHPUT_CONNECTIONS} connections in a closed loop, ${THROUGHPUT_ROUNDS} round(s) × ${THROUGHPUT_SECONDS} s per target, interleaved, order rotated; medians over rounds, errors summed`,
  );
  out(
    `floor SQL = the same statement on ${THROUGHPUT_CONNECTIONS} mysql2 connections; the service keeps its own pool (DATABASE_POOL_SIZE, default 10) and admission control`,
  );
  out(
    `${'transport'.padEnd(19)}${'req/s'.padStart(8)}${'min–max'.padStart(14)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'errors'.padStart(8)}${'× floor'.padStart(9)}`,
  );
  for (const r of report.rows) {
    out(
      `${TRANSPORT_LABEL[r.transport].padEnd(19)}${r.rps.toFixed(1).padStart(8)}${`${r.minRps.toFixed(1)}–${r.maxRps.toFixed(1)}`.padStart(14)}${r.p50.toFixed(1).padStart(9)}${r.p99.toFixed(1).padStart(9)}${String(r.errors).padStart(8)}${r.ratio.toFixed(2).padStart(9)}`,
    );
  }
  for (const r of report.rows.filter((row) => row.errors > 0)) {
    out(
      `  errors of ${TRANSPORT_LABEL[r.transport]}: ${[...r.statuses].map(([s, n]) => `${s} × ${n}`).join(', ')}`,
    );
  }
}

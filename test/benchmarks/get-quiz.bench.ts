/**
 * getQuiz throughput: REST and GraphQL against the floor, a bare Express + mysql2 handler that
 * does what the contract asks of any implementation (API key found by its hash in the same
 * database, unrevoked, bound to the caller's host; the request counted against the key's rate
 * limit in that database, one upsert; then the quiz, its author, tags and questions, as JSON). Run with `npm run bench:get-quiz`; needs MariaDB on 127.0.0.1:3306.
 *
 * - Data: generated (1,000 users, 50 quizzes of 10 questions, seed 1) into quiz_bench_get_quiz,
 *   dropped and made again every run; an API key bound to localhost; the first public quiz with
 *   10 questions. GraphQL asks for every field of the quiz and its questions.
 * - The service runs in a child process, the current sources compiled by tsc into its own
 *   folder (os.tmpdir()/quiz-get-quiz-bench-build), logging one line per request at LOG_LEVEL
 *   info (BENCH_LOG_LEVEL) into a pipe, with RATE_LIMIT_POINTS too large to be spent
 *   (every request is still charged). BENCH_SERVICE_JS runs a build made elsewhere instead, and
 *   BENCH_COMPARE_JS a second build beside it, as the rows "REST (compare)", "GraphQL (compare)".
 *   The floor runs in the benchmark's process with the service's pool size (DATABASE_POOL_SIZE).
 * - Load: autocannon in a child process, at 10 and at 100 connections (BENCH_CONNECTIONS).
 * - Method: first BENCH_WARM_UP_SECONDS (3) of load per target and connection count; then
 *   BENCH_ROUNDS (5) rounds, each running every target at every connection count for
 *   BENCH_SECONDS (5) after 1 s of autocannon warm-up on fresh connections. The order of the
 *   targets rotates from round to round, so none is always first (or right after the floor).
 *   Every row is measured in the same run on the same machine state, so the ratios hold even
 *   when the absolute figures drift with the machine's load.
 * - Reported per connection count and target: median req/s over the rounds (with min–max),
 *   medians of the rounds' p50 and p99 latencies, errors summed over the rounds (non-2xx answers,
 *   timeouts, connection errors; detailed by status below the table), req/s against the floor's
 *   at the same connection count and against the second floor's (the same handler without the
 *   count's write: the reads any implementation does once counting writes nothing per request),
 *   and GraphQL against REST. The row "GraphQL floor (Apollo)" (.graphql-floor) serves the same
 *   reads through Apollo Server, executed by the service's compiled executor, over a schema
 *   written by hand: its GraphQL/REST, against the second floor, is how close to REST a GraphQL
 *   answer through Apollo Server comes on this machine.
 * - `--help` prints the options. Modules: get-quiz-bench.config (options), .data (database),
 *   .floor, .graphql-floor, .load (autocannon); the service's process comes from
 *   results-bench.process.
 */
import 'reflect-metadata';
import { log, median, mysqlUri, out } from './results-bench.config';
import { buildService, startService, type Service } from './results-bench.process';
import {
  BUILD_DIR,
  COMPARE_JS,
  CONNECTIONS,
  DB,
  GRAPHQL_QUERY,
  HELP,
  POOL_SIZE,
  ROUNDS,
  RUN_WARM_UP_SECONDS,
  SECONDS,
  SERVICE_JS,
  WARM_UP_SECONDS,
} from './get-quiz-bench.config';
import { prepareDatabase } from './get-quiz-bench.data';
import { startFloor } from './get-quiz-bench.floor';
import { startGraphQLFloor } from './get-quiz-bench.graphql-floor';
import { autocannon, type Measure, type Target } from './get-quiz-bench.load';

const FLOOR = 'floor (Express + mysql2)';
const NO_WRITE_FLOOR = 'floor, no count write';
const GRAPHQL_FLOOR = 'GraphQL floor (Apollo)';

/** The row a GraphQL row is compared with: REST of the same build, or the REST floor's. */
function restRowOf(name: string): string | undefined {
  if (name === GRAPHQL_FLOOR) return NO_WRITE_FLOOR;
  return name.startsWith('GraphQL') ? name.replace('GraphQL', 'REST') : undefined;
}

function serviceTargets(
  service: Service,
  suffix: string,
  apiKey: string,
  quizId: number,
): Target[] {
  return [
    { name: `REST${suffix}`, url: `${service.url}/getQuiz?quizId=${quizId}&apiKey=${apiKey}` },
    {
      name: `GraphQL${suffix}`,
      url: `${service.url}/graphql?apiKey=${apiKey}`,
      body: JSON.stringify({ query: GRAPHQL_QUERY, variables: { id: String(quizId) } }),
    },
  ];
}

/** One request per target before any load: a target that answers errors is not measured. */
async function check(target: Target): Promise<void> {
  const res = await fetch(
    target.url,
    target.body
      ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: target.body }
      : undefined,
  );
  const text = await res.text();
  const json = JSON.parse(text) as {
    questions?: unknown[];
    data?: { getQuiz?: { questions?: unknown[] } };
    errors?: unknown[];
  };
  const questions = json.questions ?? json.data?.getQuiz?.questions;
  if (res.status !== 200 || json.errors !== undefined || questions?.length !== 10) {
    throw new Error(`${target.name}: ${res.status} ${text.slice(0, 500)}`);
  }
}

/** The targets in another order for each round and connection count. */
function rotated<T>(items: T[], by: number): T[] {
  const k = by % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

function printTable(quizId: number, targets: Target[], samples: Map<string, Measure[]>): void {
  out(
    `\ngetQuiz, quiz ${quizId} (10 questions), MariaDB; database pools: service ${POOL_SIZE}, floor ${POOL_SIZE} connections`,
  );
  out(
    `${ROUNDS} round(s) × ${SECONDS} s per target and connection count (after ${RUN_WARM_UP_SECONDS} s autocannon warm-up each; ${WARM_UP_SECONDS} s per target first), interleaved, order rotated per round; medians over rounds, errors summed`,
  );
  out(
    `${'conns'.padStart(5)}  ${'target'.padEnd(26)}${'req/s'.padStart(8)}${'min–max'.padStart(14)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'errors'.padStart(8)}${'× floor'.padStart(9)}${'× no-write'.padStart(11)}${'GraphQL/REST'.padStart(14)}`,
  );
  const details: string[] = [];
  for (const c of CONNECTIONS) {
    const of = (name: string) => samples.get(`${c}|${name}`) ?? [];
    const rps = (name: string) => median(of(name).map((m) => m.rps));
    const floorRps = rps(FLOOR);
    const noWriteRps = rps(NO_WRITE_FLOOR);
    for (const t of targets) {
      const runs = of(t.name);
      const values = runs.map((m) => m.rps);
      const errors = runs.reduce((sum, m) => sum + m.errors, 0);
      const rest = restRowOf(t.name);
      const vsRest = rest ? (rps(t.name) / rps(rest)).toFixed(2) : '';
      const range = `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
      out(
        `${String(c).padStart(5)}  ${t.name.padEnd(26)}${rps(t.name).toFixed(0).padStart(8)}${range.padStart(14)}${median(
          runs.map((m) => m.p50),
        )
          .toFixed(1)
          .padStart(8)}${median(runs.map((m) => m.p99))
          .toFixed(1)
          .padStart(
            8,
          )}${String(errors).padStart(8)}${(rps(t.name) / floorRps).toFixed(2).padStart(9)}${(rps(t.name) / noWriteRps).toFixed(2).padStart(11)}${vsRest.padStart(14)}`.trimEnd(),
      );
      if (errors > 0) {
        const byStatus = new Map<string, number>();
        for (const m of runs) {
          for (const [s, n] of Object.entries(m.statuses))
            byStatus.set(s, (byStatus.get(s) ?? 0) + n);
        }
        details.push(
          `${c} connections, ${t.name}: ${[...byStatus].map(([s, n]) => `${s} × ${n}`).join(', ')}`,
        );
      }
    }
  }
  if (details.length > 0)
    out(`errors by status (socket = timeouts and connection errors):\n  ${details.join('\n  ')}`);
}

async function main(): Promise<void> {
  // BENCH_SERVICE_JS: a service already built elsewhere (to measure a variant), else the sources.
  const mainJs = SERVICE_JS ?? (await buildService(BUILD_DIR));
  const { apiKey, quizId } = await prepareDatabase();
  log(`${DB}: generated; quiz ${quizId}`);
  const service = await startService(mainJs, DB);
  const compared = COMPARE_JS ? await startService(COMPARE_JS, DB) : undefined;
  const floor = await startFloor(mysqlUri(DB), POOL_SIZE);
  const readsOnly = await startFloor(mysqlUri(DB), POOL_SIZE, { counting: false });
  const apolloFloor = await startGraphQLFloor(mysqlUri(DB), POOL_SIZE);
  const samples = new Map<string, Measure[]>();
  const targets: Target[] = [
    { name: FLOOR, url: `${floor.url}/getQuiz?quizId=${quizId}&apiKey=${apiKey}` },
    { name: NO_WRITE_FLOOR, url: `${readsOnly.url}/getQuiz?quizId=${quizId}&apiKey=${apiKey}` },
    {
      name: GRAPHQL_FLOOR,
      url: `${apolloFloor.url}/graphql?apiKey=${apiKey}`,
      body: JSON.stringify({ query: GRAPHQL_QUERY, variables: { id: String(quizId) } }),
    },
    ...serviceTargets(service, '', apiKey, quizId),
    ...(compared ? serviceTargets(compared, ' (compare)', apiKey, quizId) : []),
  ];
  try {
    for (const t of targets) await check(t);
    const total =
      CONNECTIONS.length *
      targets.length *
      (WARM_UP_SECONDS + ROUNDS * (SECONDS + RUN_WARM_UP_SECONDS));
    log(
      `${targets.length} targets × ${CONNECTIONS.join(', ')} connections: about ${Math.ceil(total / 60)} min`,
    );
    for (const c of CONNECTIONS) {
      for (const t of targets) await autocannon(t, c, WARM_UP_SECONDS);
    }
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [i, c] of CONNECTIONS.entries()) {
        for (const t of rotated(targets, round + i)) {
          const m = await autocannon(t, c, SECONDS, RUN_WARM_UP_SECONDS);
          const key = `${c}|${t.name}`;
          samples.set(key, [...(samples.get(key) ?? []), m]);
          log(
            `round ${round + 1}/${ROUNDS}, ${c} connections, ${t.name}: ${m.rps.toFixed(0)} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms, ${m.errors} errors`,
          );
        }
      }
    }
  } finally {
    await floor.close();
    await readsOnly.close();
    await apolloFloor.close();
    await service.stop();
    await compared?.stop();
  }
  printTable(quizId, targets, samples);
}

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  out(HELP);
} else {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}

/**
 * Mixed load: reads, set making and writes from many connections at once, with status counts,
 * latency percentiles and the service's memory. Run with `npm run bench:load`; needs MariaDB on
 * 127.0.0.1:3306 (BENCH_DATABASE_URL).
 *
 * - Database quiz_load_bench, dropped and made again each run; BENCH_KEEP_DB=1 reuses it when it
 *   is loaded and keeps it at the end. Migrations and data go through the operator CLI
 *   (db:migrate, generate: 2,000 users, 100 quizzes of 10 questions, 200 sessions, 5%, seed 1).
 * - The service: the current sources compiled by tsc into a temporary folder (BENCH_SERVICE_JS
 *   runs a build made elsewhere), in a child process, production mode, LOG_LEVEL=warn, with
 *   RATE_LIMIT_POINTS=100000000: this measures capacity, not the per-key limiter; 429 answers
 *   are still counted apart. RSS read from /proc/<pid>/status every 500 ms.
 * - Requester: the first generated teacher, with an API key bound to localhost (CLI key:create)
 *   and an access token from the login page, as a browser gets one.
 * - Load: autocannon in this process, BENCH_CONNECTIONS (100) connections for BENCH_DURATION
 *   (60) s, after BENCH_WARM_UP (5) s at 10 connections that are not counted. Each request is
 *   drawn at random by the weights of KINDS: 60% reads, 25% set making, 15% writes.
 * - Exit code 1 on any 5xx, GraphQL server error, connection error or timeout.
 */
import mysql from 'mysql2/promise';
import { prepareDatabase, prepareFixture } from './load/load-fixture';
import { report, type Rss } from './load/load-report';
import { buildService, rssMb, startService, stopService } from './load/load-service';
import { CONNECTIONS, DURATION, KEEP_DB, WARM_UP, DB, log, mysqlUri } from './load/load-settings';
import { KINDS, load, type Stats } from './load/load-workload';

async function main(): Promise<void> {
  const mainJs = await buildService();
  await prepareDatabase(mainJs);
  const service = await startService(mainJs);
  const pid = service.child.pid as number;
  try {
    const f = await prepareFixture(mainJs, service.url);
    const rss: Rss = { start: rssMb(pid), peak: 0, end: 0 };
    const sampler = setInterval(() => (rss.peak = Math.max(rss.peak, rssMb(pid))), 500);
    if (WARM_UP > 0) await load(service.url, f, 10, WARM_UP);
    const empty = () => ({ ms: [], statuses: new Map(), graphqlErrors: new Map() });
    const stats: Stats = new Map(KINDS.map(([name]) => [name, empty()]));
    log(`load: ${CONNECTIONS} connections for ${DURATION} s`);
    const result = await load(service.url, f, CONNECTIONS, DURATION, stats);
    clearInterval(sampler);
    rss.end = rssMb(pid);
    rss.peak = Math.max(rss.peak, rss.end);
    if (report(result, stats, rss)) {
      log(`last lines the service logged:\n${service.logTail.join('\n')}`);
      process.exitCode = 1;
    }
  } finally {
    await stopService(service);
    if (!KEEP_DB) {
      const admin = await mysql.createConnection({ uri: mysqlUri() });
      await admin.query(`DROP DATABASE IF EXISTS ${DB}`);
      await admin.end();
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

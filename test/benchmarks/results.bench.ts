/**
 * getResults latency: REST and GraphQL against the same computation written by hand as one SQL
 * SELECT run through mysql2 (the floor), on generated tiers, with the service's peak RSS.
 * Run with `npm run bench:results`; needs MariaDB on 127.0.0.1:3306 (BENCH_DATABASE_URL).
 *
 * - Tiers: S (1,000 users, 50 quizzes of 20 questions, 100 sessions, 20% participation), M
 *   (10,000 users, 500 quizzes of 20 questions, 1,000 sessions, 1% participation, about 1M
 *   answers) and L (100,000 users, 2,000 quizzes of 20 questions, 10,000 sessions, 0.26%
 *   participation, about 10M answers), seed 1, in quiz_bench_tier_s / _m / _l (dropped and
 *   generated again, unless BENCH_REUSE=1 and they hold the tier already). S and M run by
 *   default; L with BENCH_TIERS=S,M,L (or L): generating it takes a few minutes (a load into the
 *   empty database, its answers as one LOAD DATA, with a progress bar on stderr), so
 *   BENCH_REUSE=1 keeps it for later runs.
 * - The service runs in a child process at LOG_LEVEL info (BENCH_LOG_LEVEL), one log line per
 *   request into a pipe (the current sources compiled by tsc into a temporary
 *   folder, started with node) so that its RSS can be read from /proc: VmHWM and VmRSS, peak over
 *   the run, and peak during the 10,000 users × 100 quizzes case (VmHWM reset through clear_refs).
 * - Requester: the first user (a teacher) with an API key and an access token. Every session of
 *   the benchmark database is made its own (UPDATE sessions SET owner_id), so detailed results
 *   hold every attempt of the sets, as the floor does.
 * - Sets are written in SQL, owned by the requester: users pupils first then teachers (teachers
 *   make no attempts), by id, the first 100 / 1,000 / 10,000; quizzes the first 10 / 100 by id
 *   (tier S: 10 / 50, and no 10,000-user set).
 * - Shapes, with resultTypes nbGoodAnswers,percentile and numberOfItemsPerPage 50: detailed;
 *   aggregated by user with [average]; aggregated by quiz with [average].
 * - Transports: REST GET /getResults, GraphQL getResults (items' ids and numbers only), and the
 *   floor: a hand-written SELECT of the same rows (attempts GROUP BY, percentile window,
 *   aggregation) through mysql2, reading every row back. The service writes every row into the
 *   data set and returns a page of 50, so the floor reading them all is the fair equivalent.
 *   A diagnostic row times the service's own INSERT … SELECT run alone through mysql2 (rolled
 *   back), to split the time between the statement and the rest of the request.
 * - The fixed cost of a request: getResults of a user set without members, per transport. It
 *   authenticates, writes and commits a set and crosses HTTP like any request, and computes
 *   nothing. A missed target is reported with its lower bound, the fixed cost plus the
 *   service's statement alone, against the floor. Beside it, timed in the same loop, what no
 *   durable set goes below on this machine: an HTTP round trip to the service (GET /livez) and
 *   one exchange with MariaDB committing a row (results-bench.fixed-floor).
 * - BENCH_TIERS=S,M,L picks the tiers; BENCH_SERVICE_JS runs a service built elsewhere (a variant).
 * - BENCH_COMPARE_JS runs a second build beside this one (an earlier commit, built with tsc into
 *   a folder of its own), as the rows "REST (compare)" and "GraphQL (compare)": its requests
 *   interleave with the others, so both builds are timed on the same machine at the same time,
 *   on the same database, and each case checks that it lists the same items; "(compare stmt)" is
 *   its INSERT … SELECT alone, built by its own compiled modules (they need a node_modules beside
 *   the build: a symbolic link to this project's will do). Then a table of
 *   every cell on both builds with their ratio (the median of the runs' ratios, run i of both
 *   builds being in the same round: steadier than the ratio of medians on a shared machine), and
 *   the target at tier M: every REST and GraphQL ratio within BENCH_COMPARE_RATIO (1.03).
 * - BENCH_ANONYMOUS=1 adds, to the aggregated shapes, the request of an anonymous requester (the
 *   API key alone, on copies of the sets owned by the key), REST, on both builds: information
 *   only, as under the requester scope (contract.md §7) such a request reads no answer.
 * - The requester scope (aggregates count the attempts in sessions the requester owns and the
 *   requester's own): the run checks that every answer of the tier is in the requester's, so the
 *   floor needs no scope and a build without it computes over the same attempts. Surveys have no
 *   score: the floor's nbGoodAnswers and percentile are null on survey quizzes, as the service's.
 * - The service is first warmed by BENCH_WARM_UP (40) requests per transport on the smallest case
 *   (a fresh process runs its first requests unoptimized); then, per case, 1 warm-up and
 *   BENCH_RUNS (9) sequential runs per transport, interleaved (the order rotated from run to
 *   run); medians.
 * - EXPLAIN of the service's statement (resultsInsertStatement: the results query as the set
 *   store writes it) for a 100-user set on tier M, with a check that answers is read through an
 *   ix_answers_* index, never scanned whole.
 * - Throughput (tier M, BENCH_THROUGHPUT=0 skips it): the 100 users × 10 quizzes set, avg by
 *   user, requested by 32 connections in a closed loop for BENCH_THROUGHPUT_SECONDS (10) per
 *   target, REST, GraphQL and the floor's statement on 32 mysql2 connections, interleaved over
 *   BENCH_THROUGHPUT_ROUNDS (3) rounds in a rotated order after 2 s of warm-up per target;
 *   medians of requests per second (successes only), latency p50/p99, errors by status (the
 *   service's pool and admission control apply: what they turn away shows as 503).
 * - Once two tiers or more ran, the growth table: the median of every cell several tiers share
 *   (users × quizzes, shape, REST / GraphQL / floor) with one column per tier and the factor
 *   from one tier to the next, then each tier's answers and the service's RSS.
 * - Targets: at tier M, for every service row, its median minus the floor's at most 1.5 ms plus
 *   1 µs per row the request writes (the result set's items), and the service's statement alone
 *   within 1.1× the floor; the throughput at 32 connections at least 0.7× the floor's; RSS <
 *   300 MB during 10,000 × 100. At tier L the 10,000 × 100 rows answered (a failed or timed-out
 *   request stops the run) within 1.2× their floor, and RSS < 300 MB during them.
 * - Item analysis (tier M, before its throughput; BENCH_STATISTICS=0 skips it, =only runs it
 *   alone on tier M): getQuestionStatistics and getQuizStatistics for 100 × 10, 1,000 × 100 and
 *   10,000 × 100, through REST, GraphQL, their floors (statistics-bench.floor: one hand-written
 *   SELECT per operation computing every item from answers, questions, quizzes and the two sets,
 *   all rows read back) and the service's INSERT … SELECT statements alone (rolled back), after
 *   BENCH_WARM_UP requests per transport and operation, BENCH_RUNS interleaved runs, medians.
 *   Not timed: per case and operation, every item of a new set (all pages by REST, the first
 *   page by GraphQL) against the floor's rows, and one line saying whether they agree. RSS peak
 *   during the part (VmHWM reset); EXPLAIN of the service's statements at 1,000 × 100.
 *   Targets: at 1,000 × 100 every service row within 1.3× its floor; RSS < 300 MB.
 * - `--help` prints these options. Modules: results-bench.config (options, tiers, shapes),
 *   .tiers (databases), .process (the service and its RSS), .requests (REST, GraphQL), .floor
 *   (the floor and the service's statement alone), .explain, .tier-run (one tier's cases),
 *   .throughput (the concurrent row), .growth (the growth table), .targets, .compared (this build
 *   against BENCH_COMPARE_JS), .statistics (the
 *   item analysis part, with statistics-bench.floor, .requests, .compare and .service-sql).
 */
import 'reflect-metadata';
import {
  ONLY_TIERS,
  out,
  PAGE_SIZE,
  RESULT_TYPES,
  RUNS,
  SHAPE_LABEL,
  TIERS,
  TRANSPORT_LABEL,
  WARM_UP,
} from './results-bench.config';
import { buildService } from './results-bench.process';
import { printComparedBuild } from './results-bench.compared';
import { printGrowth } from './results-bench.growth';
import { printStatistics, runStatisticsOnly, STATISTICS } from './results-bench.statistics';
import { agent } from './results-bench.requests';
import { printTierLTargets, printTierMTargets } from './results-bench.targets';
import { benchTier, type TierReport } from './results-bench.tier-run';
import { printThroughput } from './results-bench.throughput';

async function main(): Promise<void> {
  // BENCH_SERVICE_JS: a service already built elsewhere (to compare a variant), else the sources.
  const mainJs = process.env.BENCH_SERVICE_JS ?? (await buildService());
  if (STATISTICS === 'only') {
    await runStatisticsOnly(mainJs);
    agent.destroy();
    return;
  }
  const reports: TierReport[] = [];
  for (const tier of TIERS.filter((t) => ONLY_TIERS.includes(t.name))) {
    reports.push(await benchTier(tier, mainJs, tier.name === 'M'));
  }
  agent.destroy();

  out(
    `\ngetResults, resultTypes ${RESULT_TYPES.join(',')}, numberOfItemsPerPage ${PAGE_SIZE}, medians of ${RUNS} sequential runs after 1 warm-up per case (${WARM_UP} warm-up requests per transport first), MariaDB`,
  );
  out(
    'floor SQL = the same rows by one hand-written SELECT through mysql2, all rows read back; (service stmt) = the service INSERT … SELECT alone through mysql2 (diagnostic)',
  );
  out(
    `${'tier'.padEnd(5)}${'users × quizzes'.padEnd(17)}${'shape'.padEnd(13)}${'transport'.padEnd(16)}${'median ms'.padStart(10)}${'× floor'.padStart(9)}`,
  );
  for (const report of reports) {
    for (const r of report.rows) {
      out(
        `${r.tier.padEnd(5)}${`${r.users} × ${r.quizzes}`.padEnd(17)}${SHAPE_LABEL[r.shape].padEnd(13)}${TRANSPORT_LABEL[r.transport].padEnd(16)}${r.medianMs.toFixed(1).padStart(10)}${r.ratio.toFixed(2).padStart(9)}`,
      );
    }
  }
  out('');
  for (const report of reports) {
    out(
      `tier ${report.tier.name} (${report.answers} answers): service RSS at start ${report.idleMb.toFixed(0)} MB, peak over the run ${report.peakMb.toFixed(0)} MB${
        report.bigCaseMb
          ? `, peak during 10,000 × 100 ${report.bigCaseMb.mb.toFixed(0)} MB (${report.bigCaseMb.exact ? 'VmHWM after clear_refs' : 'VmRSS samples'})`
          : ''
      }`,
    );
    out(
      `tier ${report.tier.name} fixed cost of a request (getResults of an empty user set: authentication, a set written and committed, HTTP): REST ${report.fixedMs.REST.toFixed(1)} ms, GraphQL ${report.fixedMs.GraphQL.toFixed(1)} ms; ` +
        `what no durable set goes below here: an HTTP round trip (GET /livez) ${report.fixedFloorMs.httpMs.toFixed(2)} ms + one exchange committing a row ${report.fixedFloorMs.commitMs.toFixed(2)} ms = ${(report.fixedFloorMs.httpMs + report.fixedFloorMs.commitMs).toFixed(2)} ms`,
    );
    for (const m of report.mismatches) out(`MISMATCH service vs floor: ${m}`);
  }
  for (const report of reports) if (report.throughput) printThroughput(report.throughput);
  printGrowth(reports);
  printComparedBuild(reports);
  printTierMTargets(reports);
  printTierLTargets(reports);
  for (const report of reports) if (report.statistics) printStatistics(report.statistics);
}

const HELP = `npm run bench:results  (options are environment variables)
  BENCH_DATABASE_URL  MariaDB server (default mariadb://root@127.0.0.1:3306)
  BENCH_TIERS         tiers to run among S, M and L (default S,M; L: 100,000 users, 2,000
                      quizzes, about 10M answers, a few minutes to generate)
  BENCH_REUSE=1       keep quiz_bench_tier_* when it holds the tier already (worth it for L)
  BENCH_RUNS          timed runs per case and transport (default 9)
  BENCH_WARM_UP       warm-up requests per transport (default 40)
  BENCH_THROUGHPUT=0  skip the throughput row of tier M
  BENCH_THROUGHPUT_SECONDS  seconds per throughput run (default 10)
  BENCH_THROUGHPUT_ROUNDS   throughput rounds (default 3)
  BENCH_SERVICE_JS    a service built elsewhere, instead of compiling the sources
  BENCH_COMPARE_JS    a second build whose requests interleave with this one's
  BENCH_COMPARE_RATIO the largest ratio to the compared build at tier M (default 1.03)
  BENCH_ANONYMOUS=1   also the aggregated requests of the API key alone (REST, both builds)
  BENCH_STATISTICS    the item analysis part of tier M (getQuestionStatistics and
                      getQuizStatistics against their floors): 1 (default) runs it before the
                      throughput, 0 skips it, only runs it alone on tier M`;

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  out(HELP);
} else {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}

/** One tier of the benchmark: every case, every transport, interleaved; medians and memory. */
import mysql from 'mysql2/promise';
import {
  COMPARE_JS,
  log,
  median,
  mysqlUri,
  RUNS,
  SHAPE_LABEL,
  SHAPES,
  cellSelected,
  THROUGHPUT,
  timed,
  WARM_UP,
  type Case,
  type Row,
  type Shape,
  type Tier,
  type Transport,
} from './results-bench.config';
import { explainTierM } from './results-bench.explain';
import {
  compare,
  comparedInsertStatement,
  floorRun,
  stmtRun,
  type StatementOf,
} from './results-bench.floor';
import { openFixedFloor, type FixedFloorMs } from './results-bench.fixed-floor';
import { startService } from './results-bench.process';
import { benchStatistics, STATISTICS, type StatisticsReport } from './results-bench.statistics';
import {
  graphqlGetResults,
  restGetResults,
  type PageItem,
  type ServicePage,
} from './results-bench.requests';
import { benchThroughput, type ThroughputReport } from './results-bench.throughput';
import { prepareTier, type Prepared } from './results-bench.tiers';

export interface TierReport {
  tier: Tier;
  rows: Row[];
  mismatches: string[];
  peakMb: number;
  bigCaseMb?: { mb: number; exact: boolean };
  idleMb: number;
  answers: number;
  explainOk?: boolean;
  /** Median of a request on the empty user set, per transport: what no request goes below. */
  fixedMs: Record<'REST' | 'GraphQL', number>;
  /** Medians of what the fixed cost cannot go below here (results-bench.fixed-floor). */
  fixedFloorMs: FixedFloorMs;
  /** Tier M only: requests per second under 32 concurrent connections. */
  throughput?: ThroughputReport;
  /** Tier M only: getQuestionStatistics and getQuizStatistics (BENCH_STATISTICS=0 skips them). */
  statistics?: StatisticsReport;
}

/** The aggregated case on the API key's copies of the sets (BENCH_ANONYMOUS=1), else none. */
function anonymousCase(p: Prepared, users: number, quizzes: number, shape: Shape): Case | null {
  if (!p.anonymous || shape === 'detailed') return null;
  return {
    userSetId: p.anonymous.userSets.get(users) as number,
    quizSetId: p.anonymous.quizSets.get(quizzes) as number,
    shape,
  };
}

/** Whether two builds' first pages list the same items (ids), out of as many: else how not. */
function sameItems(page: ServicePage, other: ServicePage): string | undefined {
  if (page.totalNumberOfItems !== other.totalNumberOfItems) {
    return `${other.totalNumberOfItems} items, this build ${page.totalNumberOfItems}`;
  }
  const key = (item: PageItem) => `${item.userId}/${item.quizId}/${item.sessionId}`;
  const index = page.items.findIndex((item, i) => key(item) !== key(other.items[i] ?? {}));
  return index < 0 ? undefined : `item ${index + 1}: ${key(other.items[index] ?? {})}`;
}

export async function benchTier(tier: Tier, mainJs: string, explain: boolean): Promise<TierReport> {
  const p = await prepareTier(tier);
  const conn = await mysql.createConnection({ uri: mysqlUri(tier.db), timezone: 'Z' });
  const explainOk = explain ? await explainTierM(conn, p) : undefined;
  const service = await startService(mainJs, tier.db);
  const compared = COMPARE_JS ? await startService(COMPARE_JS, tier.db) : undefined;
  const comparedStatement: StatementOf | undefined = COMPARE_JS
    ? await comparedInsertStatement(COMPARE_JS)
    : undefined;
  const idleMb = service.rss.currentMb();
  const rows: Row[] = [];
  const mismatches: string[] = [];
  let bigCaseMb: { mb: number; exact: boolean } | undefined;
  const fixedMs = { REST: NaN, GraphQL: NaN };
  const fixedFloorMs = { httpMs: NaN, commitMs: NaN };
  let throughput: ThroughputReport | undefined;
  let statistics: StatisticsReport | undefined;
  try {
    // The first requests of a fresh process run unoptimized code: warm it before timing anything.
    const smallest: Case = {
      userSetId: p.userSets.get(tier.userSizes[0] as number) as number,
      quizSetId: p.quizSets.get(tier.quizSizes[0] as number) as number,
      shape: 'detailed',
    };
    for (let i = 0; i < WARM_UP; i += 1) {
      const shape = SHAPES[i % SHAPES.length] as Shape;
      for (const warmed of compared ? [service, compared] : [service]) {
        await restGetResults(warmed, p, { ...smallest, shape });
        await graphqlGetResults(warmed, p, { ...smallest, shape });
      }
    }
    // The fixed cost of a request: results of an empty user set still authenticate, write and
    // commit a set, and go through HTTP and the transport, but compute nothing.
    const empty: Case = { ...smallest, userSetId: p.emptyUserSetId };
    const fixedTimes = { REST: [] as number[], GraphQL: [] as number[] };
    const floorTimes = { httpMs: [] as number[], commitMs: [] as number[] };
    const fixedFloor = await openFixedFloor(service, tier.db);
    try {
      for (let i = 0; i < 3 * RUNS; i += 1) {
        fixedTimes.REST.push((await timed(() => restGetResults(service, p, empty))).ms);
        fixedTimes.GraphQL.push((await timed(() => graphqlGetResults(service, p, empty))).ms);
        const { httpMs, commitMs } = await fixedFloor.run();
        floorTimes.httpMs.push(httpMs);
        floorTimes.commitMs.push(commitMs);
      }
    } finally {
      await fixedFloor.close();
    }
    fixedMs.REST = median(fixedTimes.REST);
    fixedMs.GraphQL = median(fixedTimes.GraphQL);
    fixedFloorMs.httpMs = median(floorTimes.httpMs);
    fixedFloorMs.commitMs = median(floorTimes.commitMs);
    log(
      `tier ${tier.name} fixed cost (empty user set): REST ${fixedMs.REST.toFixed(1)} ms, GraphQL ${fixedMs.GraphQL.toFixed(1)} ms; ` +
        `its floor: HTTP round trip ${fixedFloorMs.httpMs.toFixed(2)} ms + one committed exchange ${fixedFloorMs.commitMs.toFixed(2)} ms`,
    );
    for (const users of tier.userSizes) {
      for (const quizzes of tier.quizSizes) {
        const big = users === 10000 && quizzes === 100;
        if (big) service.rss.startWindow();
        for (const shape of SHAPES) {
          if (!cellSelected(users, quizzes, shape)) continue;
          const c: Case = {
            userSetId: p.userSets.get(users) as number,
            quizSetId: p.quizSets.get(quizzes) as number,
            shape,
          };
          const runners: Partial<Record<Transport, () => Promise<number>>> = {
            floor: async () => (await timed(() => floorRun(conn, c, p.requesterId))).ms,
            REST: async () => (await timed(() => restGetResults(service, p, c))).ms,
            GraphQL: async () => (await timed(() => graphqlGetResults(service, p, c))).ms,
            stmt: () => stmtRun(conn, c, p.requesterId),
          };
          if (compared) {
            runners.compareREST = async () =>
              (await timed(() => restGetResults(compared, p, c))).ms;
            runners.compareGraphQL = async () =>
              (await timed(() => graphqlGetResults(compared, p, c))).ms;
          }
          if (comparedStatement) {
            runners.compareStmt = () => stmtRun(conn, c, p.requesterId, comparedStatement);
          }
          const anonymous = anonymousCase(p, users, quizzes, shape);
          if (anonymous) {
            runners.anonREST = async () =>
              (await timed(() => restGetResults(service, p, anonymous, true))).ms;
            if (compared) {
              runners.compareAnonREST = async () =>
                (await timed(() => restGetResults(compared, p, anonymous, true))).ms;
            }
          }
          const transports = Object.keys(runners) as Transport[];
          // Warm-up (every runner once), and a check that the floor computes the service's rows
          // (and the compared build the same items).
          const floorRows = await floorRun(conn, c, p.requesterId);
          const restPage = await restGetResults(service, p, c);
          const comparedPage = compared && (await restGetResults(compared, p, c));
          const skip = ['floor', 'REST', ...(compared ? ['compareREST'] : [])];
          for (const t of transports) if (!skip.includes(t)) await runners[t]?.();
          const label = `tier ${tier.name} ${users}×${quizzes} ${SHAPE_LABEL[shape]}`;
          const problem = compare(c, restPage, floorRows);
          if (problem) mismatches.push(`${label}: ${problem}`);
          const apart = comparedPage && sameItems(restPage, comparedPage);
          if (apart) mismatches.push(`${label}, compared build: ${apart}`);
          const times = new Map<Transport, number[]>(transports.map((t) => [t, []]));
          for (let i = 0; i < RUNS; i += 1) {
            // Rotated from run to run, so that no target always follows the same one.
            for (let j = 0; j < transports.length; j += 1) {
              const t = transports[(i + j) % transports.length] as Transport;
              const runner = runners[t];
              if (runner) times.get(t)?.push(await runner());
            }
          }
          const floorMs = median(times.get('floor') ?? []);
          for (const t of transports) {
            const ms = median(times.get(t) ?? []);
            rows.push({
              tier: tier.name,
              users,
              quizzes,
              shape,
              transport: t,
              medianMs: ms,
              ratio: ms / floorMs,
              resultRows: floorRows.length,
              runsMs: times.get(t),
            });
          }
          log(
            `tier ${tier.name} ${users}×${quizzes} ${SHAPE_LABEL[shape]} (${floorRows.length} rows): ${transports
              .map((t) => `${t} ${median(times.get(t) ?? []).toFixed(1)} ms`)
              .join(', ')}`,
          );
        }
        if (big) bigCaseMb = service.rss.windowPeakMb();
      }
    }
    // Before the throughput row: its 32 concurrent requests leave the heap larger than any
    // sequential request does, which would count in the statistics part's RSS.
    if (tier.name === 'M' && STATISTICS !== '0') {
      statistics = await benchStatistics(tier, p, service, conn);
    }
    if (tier.name === 'M' && THROUGHPUT) {
      throughput = await benchThroughput(tier, p, service, compared);
    }
  } finally {
    await conn.end();
  }
  const peakMb = service.rss.overallPeakMb();
  await service.stop();
  await compared?.stop();
  return {
    tier,
    rows,
    mismatches,
    peakMb,
    bigCaseMb,
    idleMb,
    answers: p.answers,
    explainOk,
    fixedMs,
    fixedFloorMs,
    throughput,
    statistics,
  };
}

/**
 * The statistics part of the results benchmark (tier M): getQuestionStatistics and
 * getQuizStatistics through REST and GraphQL against their floors (statistics-bench.floor.ts)
 * and the service's statements alone, interleaved, medians; the service's RSS during the part;
 * a check that the floor computes the service's items; EXPLAIN of the service's statements.
 */
import mysql from 'mysql2/promise';
import {
  log,
  median,
  mysqlUri,
  out,
  PAGE_SIZE,
  RUNS,
  timed,
  TIERS,
  WARM_UP,
  type Tier,
} from './results-bench.config';
import { startService, type Service } from './results-bench.process';
import { prepareTier, type Prepared } from './results-bench.tiers';
import { compareStatistics } from './statistics-bench.compare';
import {
  statisticsFloorRun,
  type StatisticsCase,
  type StatisticsOperation,
} from './statistics-bench.floor';
import {
  graphqlStatistics,
  OPERATION_NAME,
  restAllItems,
  restStatistics,
} from './statistics-bench.requests';
import { explainStatistics, statisticsStmtRun } from './statistics-bench.service-sql';

/** BENCH_STATISTICS: '1' (default) runs the part at tier M, '0' skips it, 'only' runs it alone. */
export const STATISTICS = process.env.BENCH_STATISTICS ?? '1';
const OPERATIONS: StatisticsOperation[] = ['question', 'quiz'];
/** Users × quizzes; the target is on 1,000 × 100, the others show how the cost grows. */
const CASES: [number, number][] = [
  [100, 10],
  [1000, 100],
  [10000, 100],
];
const TARGET = { users: 1000, quizzes: 100, ratio: 1.3, rssMb: 300 };

type StatisticsTransport = 'floor' | 'REST' | 'GraphQL' | 'stmt';
const LABEL: Record<StatisticsTransport, string> = {
  floor: 'floor SQL',
  REST: 'REST',
  GraphQL: 'GraphQL',
  stmt: '(service stmt)',
};

export interface StatisticsRow {
  users: number;
  quizzes: number;
  operation: StatisticsOperation;
  transport: StatisticsTransport;
  medianMs: number;
  ratio: number;
  /** Items of the set (the floor's rows). */
  items: number;
}

export interface StatisticsReport {
  answers: number;
  rows: StatisticsRow[];
  /** One line per case and operation: whether the floor's rows are the service's items. */
  checks: { agree: boolean; line: string }[];
  rssMb: { mb: number; exact: boolean };
  /** RSS when the part began (its window cannot go below it). */
  startMb: number;
  explainOk: boolean;
}

async function check(
  service: Service,
  p: Prepared,
  operation: StatisticsOperation,
  c: StatisticsCase,
  rows: mysql.RowDataPacket[],
  label: string,
): Promise<{ agree: boolean; line: string }> {
  const all = await restAllItems(service, p, operation, c);
  const graphql = await graphqlStatistics(service, p, operation, c);
  const problems = [
    compareStatistics(operation, all.totalNumberOfItems, all.items, rows),
    compareStatistics(operation, graphql.totalNumberOfItems, graphql.items, rows),
  ];
  const [rest, gql] = problems;
  const agree = !rest && !gql;
  return {
    agree,
    line: `CHECK floor vs service, ${label} ${OPERATION_NAME[operation]} (${rows.length} items: all pages by REST, the first ${graphql.items.length} by GraphQL): ${
      agree
        ? 'AGREE'
        : `DISAGREE${rest ? ` — REST: ${rest}` : ''}${gql ? ` — GraphQL: ${gql}` : ''}`
    }`,
  };
}

/** The part on a prepared tier whose service runs: every case, operation and transport. */
export async function benchStatistics(
  tier: Tier,
  p: Prepared,
  service: Service,
  conn: mysql.Connection,
): Promise<StatisticsReport> {
  const caseOf = ([users, quizzes]: [number, number]): StatisticsCase => ({
    userSetId: p.userSets.get(users) as number,
    quizSetId: p.quizSets.get(quizzes) as number,
  });
  const cases = CASES.filter(([u, q]) => p.userSets.has(u) && p.quizSets.has(q));
  // The statistics code of a fresh process runs unoptimized: warm it on the smallest case.
  const smallest = caseOf(cases[0] as [number, number]);
  for (let i = 0; i < WARM_UP; i += 1) {
    for (const operation of OPERATIONS) {
      await restStatistics(service, p, operation, smallest);
      await graphqlStatistics(service, p, operation, smallest);
    }
  }
  const rows: StatisticsRow[] = [];
  const checks: StatisticsReport['checks'] = [];
  service.rss.startWindow();
  const startMb = service.rss.currentMb();
  for (const [users, quizzes] of cases) {
    const c = caseOf([users, quizzes]);
    const label = `tier ${tier.name} ${users} × ${quizzes}`;
    for (const operation of OPERATIONS) {
      const runners: Record<StatisticsTransport, () => Promise<number>> = {
        floor: async () =>
          (await timed(() => statisticsFloorRun(conn, operation, c, p.requesterId))).ms,
        REST: async () => (await timed(() => restStatistics(service, p, operation, c))).ms,
        GraphQL: async () => (await timed(() => graphqlStatistics(service, p, operation, c))).ms,
        stmt: () => statisticsStmtRun(conn, operation, c, p.requesterId),
      };
      const transports = Object.keys(runners) as StatisticsTransport[];
      // Not timed: the check (every item), which also warms each transport once.
      const floorRows = await statisticsFloorRun(conn, operation, c, p.requesterId);
      const checked = await check(service, p, operation, c, floorRows, label);
      checks.push(checked);
      log(checked.line);
      await runners.stmt();
      const times = new Map<StatisticsTransport, number[]>(transports.map((t) => [t, []]));
      for (let i = 0; i < RUNS; i += 1) {
        for (const t of transports) times.get(t)?.push(await runners[t]());
      }
      const floorMs = median(times.get('floor') ?? []);
      for (const t of transports) {
        const ms = median(times.get(t) ?? []);
        rows.push({
          users,
          quizzes,
          operation,
          transport: t,
          medianMs: ms,
          ratio: ms / floorMs,
          items: floorRows.length,
        });
      }
      log(
        `${label} ${OPERATION_NAME[operation]} (${floorRows.length} items): ${transports
          .map((t) => `${t} ${median(times.get(t) ?? []).toFixed(1)} ms`)
          .join(', ')}`,
      );
    }
  }
  const rssMb = service.rss.windowPeakMb();
  const target = caseOf([TARGET.users, TARGET.quizzes]);
  const explainOk = await explainStatistics(
    conn,
    target,
    p.requesterId,
    `tier ${tier.name}, ${TARGET.users} users × ${TARGET.quizzes} quizzes`,
  );
  return { answers: p.answers, rows, checks, rssMb, startMb, explainOk };
}

export function printStatistics(report: StatisticsReport): void {
  out(
    `\ngetQuestionStatistics and getQuizStatistics, tier M (${report.answers} answers), numberOfItemsPerPage ${PAGE_SIZE}, medians of ${RUNS} sequential runs after 1 warm-up per case (${WARM_UP} warm-up requests per transport and operation first), MariaDB`,
  );
  out(
    'floor SQL = the same items by one hand-written SELECT through mysql2, all rows read back; (service stmt) = the service INSERT … SELECT statements alone through mysql2, rolled back (diagnostic)',
  );
  out(
    `${'users × quizzes'.padEnd(17)}${'operation'.padEnd(23)}${'transport'.padEnd(16)}${'median ms'.padStart(10)}${'× floor'.padStart(9)}${'items'.padStart(7)}`,
  );
  for (const r of report.rows) {
    out(
      `${`${r.users} × ${r.quizzes}`.padEnd(17)}${OPERATION_NAME[r.operation].padEnd(23)}${LABEL[r.transport].padEnd(16)}${r.medianMs.toFixed(1).padStart(10)}${r.ratio.toFixed(2).padStart(9)}${String(r.items).padStart(7)}`,
    );
  }
  for (const { line } of report.checks) out(line);
  const measured = report.rows.filter(
    (r) =>
      r.users === TARGET.users &&
      r.quizzes === TARGET.quizzes &&
      (r.transport === 'REST' || r.transport === 'GraphQL'),
  );
  if (measured.length === 0) return;
  const missed = measured.filter((r) => r.ratio > TARGET.ratio);
  const stmtRatio = (operation: StatisticsOperation) =>
    report.rows.find(
      (s) =>
        s.users === TARGET.users &&
        s.quizzes === TARGET.quizzes &&
        s.operation === operation &&
        s.transport === 'stmt',
    )?.ratio ?? NaN;
  out(
    `\nTARGET tier M statistics ${TARGET.users} × ${TARGET.quizzes} ≤ ${TARGET.ratio}× floor: ${
      missed.length === 0 ? 'MET' : `MISSED in ${missed.length} of ${measured.length}`
    }${measured
      .map(
        (r) =>
          `\n  ${OPERATION_NAME[r.operation]} ${r.transport}: ${r.medianMs.toFixed(1)} ms, ${r.ratio.toFixed(2)}× floor` +
          (r.ratio > TARGET.ratio
            ? ` (the service's statements alone: ${stmtRatio(r.operation).toFixed(2)}×)`
            : ''),
      )
      .join('')}`,
  );
  out(
    `TARGET tier M RSS < ${TARGET.rssMb} MB during the statistics part: ${
      report.rssMb.mb < TARGET.rssMb ? 'MET' : 'MISSED'
    } (${report.rssMb.mb.toFixed(0)} MB, ${report.rssMb.exact ? 'VmHWM after clear_refs' : 'VmRSS samples'}; ${report.startMb.toFixed(0)} MB when it began)`,
  );
  out(
    `TARGET no full scan of answers in the service's statistics statements (EXPLAIN above): ${report.explainOk ? 'MET' : 'MISSED'}`,
  );
  const disagree = report.checks.filter((c) => !c.agree).length;
  out(
    `CHECK floor vs service: ${disagree === 0 ? `AGREE in all ${report.checks.length}` : `DISAGREE in ${disagree} of ${report.checks.length}`}`,
  );
}

/** BENCH_STATISTICS=only: tier M prepared, the service started, this part alone. */
export async function runStatisticsOnly(mainJs: string): Promise<void> {
  const tier = TIERS.find((t) => t.name === 'M') as Tier;
  const p = await prepareTier(tier);
  const conn = await mysql.createConnection({ uri: mysqlUri(tier.db), timezone: 'Z' });
  const service = await startService(mainJs, tier.db);
  try {
    const report = await benchStatistics(tier, p, service, conn);
    printStatistics(report);
  } finally {
    await conn.end();
    await service.stop();
  }
}

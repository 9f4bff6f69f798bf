/**
 * getResults latency: REST and GraphQL against the same computation written by hand as one SQL
 * SELECT run through mysql2 (the floor), on two generated tiers, with the service's peak RSS.
 * Run with `npm run bench:results`; needs MariaDB on 127.0.0.1:3306 (BENCH_DATABASE_URL).
 *
 * - Tiers: S (1,000 users, 50 quizzes of 20 questions, 100 sessions, 20% participation) and M
 *   (10,000 users, 500 quizzes of 20 questions, 1,000 sessions, 1% participation, about 1M
 *   answers), seed 1, in quiz_bench_tier_s / quiz_bench_tier_m (dropped and generated again,
 *   unless BENCH_REUSE=1 and they hold the tier already).
 * - The service runs in a child process (the current sources compiled by tsc into a temporary
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
 *   service's statement alone, against the floor.
 * - BENCH_TIERS=S,M picks the tiers; BENCH_SERVICE_JS runs a service built elsewhere (a variant).
 * - BENCH_COMPARE_JS runs a second build beside this one (an earlier commit, built with tsc into
 *   a folder of its own), as the rows "REST (compare)" and "GraphQL (compare)": its requests
 *   interleave with the others, so both builds are timed on the same machine at the same time.
 * - The service is first warmed by BENCH_WARM_UP (40) requests per transport on the smallest case
 *   (a fresh process runs its first requests unoptimized); then, per case, 1 warm-up and
 *   BENCH_RUNS (9) sequential runs per transport, interleaved; medians.
 * - EXPLAIN of the service's statement (from resultsInsertStatement) for a 100-user set on tier M,
 *   with a check that answers is read through an ix_answers_* index, never scanned whole.
 */
import 'reflect-metadata';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import { loadConfig } from '../../src/config/config';
import { generateData, type GenerateOptions } from '../../src/data/generate/synthetic-data';
import { loadData } from '../../src/data/import/bulk-loader';
import { openDatabase } from '../../src/db/data-source';
import type { ResultsRequest } from '../../src/services/results/result-parameters';
import { resultsInsertStatement } from '../../src/services/results/results.sql';
import { createTestApiKey, createTestToken } from '../helpers/credentials';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'mariadb://root@127.0.0.1:3306';
const REUSE = process.env.BENCH_REUSE === '1';
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
/** Requests per transport that warm the service (JIT, pools) before anything is timed. */
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 40);
const ONLY_TIERS = (process.env.BENCH_TIERS ?? 'S,M').split(',').map((t) => t.trim());
/** A second build (of an earlier commit, say) whose requests interleave with this build's. */
const COMPARE_JS = process.env.BENCH_COMPARE_JS;
const ROOT = path.resolve(__dirname, '../..');
const BUILD_DIR = path.join(os.tmpdir(), 'quiz-results-bench-build');
const PAGE_SIZE = 50;
const RESULT_TYPES = ['nbGoodAnswers', 'percentile'] as const;
const FAR_FUTURE = '2099-12-31 00:00:00';
const run = promisify(execFile);

interface Tier {
  name: 'S' | 'M';
  db: string;
  generate: GenerateOptions;
  userSizes: number[];
  quizSizes: number[];
}

const TIERS: Tier[] = [
  {
    name: 'S',
    db: 'quiz_bench_tier_s',
    generate: {
      users: 1000,
      quizzes: 50,
      questions: 20,
      sessions: 100,
      participation: 0.2,
      seed: 1,
    },
    userSizes: [100, 1000],
    quizSizes: [10, 50],
  },
  {
    name: 'M',
    db: 'quiz_bench_tier_m',
    generate: {
      users: 10000,
      quizzes: 500,
      questions: 20,
      sessions: 1000,
      participation: 0.01,
      seed: 1,
    },
    userSizes: [100, 1000, 10000],
    quizSizes: [10, 100],
  },
];

type Shape = 'detailed' | 'byUser' | 'byQuiz';
const SHAPES: Shape[] = ['detailed', 'byUser', 'byQuiz'];
const SHAPE_LABEL: Record<Shape, string> = {
  detailed: 'detailed',
  byUser: 'avg by user',
  byQuiz: 'avg by quiz',
};

type Transport = 'floor' | 'REST' | 'GraphQL' | 'stmt' | 'compareREST' | 'compareGraphQL';
const TRANSPORT_LABEL: Record<Transport, string> = {
  compareREST: 'REST (compare)',
  compareGraphQL: 'GraphQL (compare)',
  floor: 'floor SQL',
  REST: 'REST',
  GraphQL: 'GraphQL',
  stmt: '(service stmt)',
};

interface Row {
  tier: string;
  users: number;
  quizzes: number;
  shape: Shape;
  transport: Transport;
  medianMs: number;
  ratio: number;
}

const log = (text: string) => process.stderr.write(`${text}\n`);
const out = (text: string) => process.stdout.write(`${text}\n`);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

// ---------------------------------------------------------------------------------------------
// Databases

function mysqlUri(db?: string): string {
  return `${SERVER.replace(/^mariadb:/, 'mysql:')}${db ? `/${db}` : ''}`;
}

async function tierIsLoaded(tier: Tier): Promise<boolean> {
  const admin = await mysql.createConnection({ uri: mysqlUri() });
  try {
    const [dbs] = await admin.query<mysql.RowDataPacket[]>('SHOW DATABASES LIKE ?', [tier.db]);
    if (dbs.length === 0) return false;
    const [users] = await admin.query<mysql.RowDataPacket[]>(
      `SELECT (SELECT COUNT(*) FROM ${tier.db}.users) AS users, (SELECT COUNT(*) FROM ${tier.db}.answers) AS answers`,
    );
    return Number(users[0]?.users) === tier.generate.users && Number(users[0]?.answers) > 0;
  } catch {
    return false;
  } finally {
    await admin.end();
  }
}

interface Prepared {
  requesterId: number;
  apiKey: string;
  token: string;
  userSets: Map<number, number>;
  quizSets: Map<number, number>;
  /** A user set without members: its results cost only what every request costs. */
  emptyUserSetId: number;
  answers: number;
}

/** Generates the tier (unless reused), then the requester, its credentials and its sets. */
async function prepareTier(tier: Tier): Promise<Prepared> {
  const reuse = REUSE && (await tierIsLoaded(tier));
  if (!reuse) {
    const admin = await mysql.createConnection({ uri: mysqlUri() });
    await admin.query(`DROP DATABASE IF EXISTS ${tier.db}`);
    await admin.query(
      `CREATE DATABASE ${tier.db} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
    await admin.end();
  }
  const config = loadConfig({ DATABASE_URL: `${SERVER}/${tier.db}`, NODE_ENV: 'test' });
  const dataSource = await openDatabase(config.database);
  try {
    if (!reuse) {
      const { ms } = await timed(() => loadData(dataSource, generateData(tier.generate).source));
      log(`tier ${tier.name}: generated and loaded in ${(ms / 1000).toFixed(1)} s`);
    } else {
      log(`tier ${tier.name}: reusing ${tier.db}`);
    }
    const [{ id: requesterId }] = (await dataSource.query('SELECT MIN(id) AS id FROM users')) as {
      id: number;
    }[];
    // The requester owns every session: detailed results then hold every attempt of the sets.
    await dataSource.query('UPDATE sessions SET owner_id = ?', [requesterId]);
    const key = await createTestApiKey(dataSource, 'localhost');
    const token = await createTestToken(dataSource, requesterId, key.id);

    const makeSet = async (itemType: 'user' | 'quiz', size: number): Promise<number> => {
      const inserted = (await dataSource.query(
        `INSERT INTO data_sets (item_type, owner_user_id, owner_api_key_id, total_number_of_items,
                                number_of_items_per_page, parameters, expires_at)
         VALUES (?, ?, NULL, 0, ?, NULL, ?)`,
        [itemType, requesterId, PAGE_SIZE, FAR_FUTURE],
      )) as { insertId: number };
      const id = inserted.insertId;
      const members =
        itemType === 'user'
          ? `SELECT id FROM users ORDER BY can_create_private_quizzes, id LIMIT ${size}`
          : `SELECT id FROM quizzes ORDER BY id LIMIT ${size}`;
      await dataSource.query(
        `INSERT INTO data_set_items (data_set_id, position, item_id)
         SELECT ?, ROW_NUMBER() OVER (ORDER BY m.id), m.id FROM (${members}) m`,
        [id],
      );
      await dataSource.query(
        `UPDATE data_sets SET total_number_of_items =
           (SELECT COUNT(*) FROM data_set_items WHERE data_set_id = ?) WHERE id = ?`,
        [id, id],
      );
      return id;
    };
    const userSets = new Map<number, number>();
    for (const size of tier.userSizes) userSets.set(size, await makeSet('user', size));
    const emptyUserSetId = await makeSet('user', 0);
    const quizSets = new Map<number, number>();
    for (const size of tier.quizSizes) quizSets.set(size, await makeSet('quiz', size));
    // Fresh statistics, as InnoDB would compute them in the background after the load.
    await dataSource.query('ANALYZE TABLE answers, data_set_items, data_sets, sessions, quizzes');
    const [{ n }] = (await dataSource.query('SELECT COUNT(*) AS n FROM answers')) as {
      n: number;
    }[];
    return {
      requesterId,
      apiKey: key.secret,
      token,
      userSets,
      quizSets,
      emptyUserSetId,
      answers: Number(n),
    };
  } finally {
    await dataSource.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// The service in a child process, and its memory

async function buildService(): Promise<string> {
  const tsc = path.join(ROOT, 'node_modules/.bin/tsc');
  const { ms } = await timed(() =>
    run(
      tsc,
      [
        '-p',
        path.join(ROOT, '.config/tsconfig.build.json'),
        '--outDir',
        BUILD_DIR,
        '--tsBuildInfoFile',
        path.join(BUILD_DIR, '.tsbuildinfo'),
      ],
      { cwd: ROOT },
    ),
  );
  log(`service compiled into ${BUILD_DIR} in ${(ms / 1000).toFixed(1)} s`);
  return path.join(BUILD_DIR, 'src/main.js');
}

function procStatusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) : 0;
}

/** Peak RSS of a process: VmHWM (exact), backed by VmRSS samples; windows reset VmHWM. */
class RssMonitor {
  private overallKb = 0;
  private windowKb = 0;
  private readonly timer: NodeJS.Timeout;
  private clearRefsWorks = true;

  constructor(private readonly pid: number) {
    this.timer = setInterval(() => this.sample(), 20);
    this.timer.unref();
  }

  private sample(): void {
    try {
      const rss = procStatusKb(this.pid, 'VmRSS');
      this.overallKb = Math.max(this.overallKb, rss);
      this.windowKb = Math.max(this.windowKb, rss);
    } catch {
      // The process is gone.
    }
  }

  /** Starts a window: its peak is read by windowPeakMb. */
  startWindow(): void {
    this.overallKb = Math.max(this.overallKb, procStatusKb(this.pid, 'VmHWM'));
    try {
      fs.writeFileSync(`/proc/${this.pid}/clear_refs`, '5');
    } catch {
      this.clearRefsWorks = false;
    }
    this.windowKb = procStatusKb(this.pid, 'VmRSS');
  }

  windowPeakMb(): { mb: number; exact: boolean } {
    const hwm = this.clearRefsWorks ? procStatusKb(this.pid, 'VmHWM') : 0;
    return { mb: Math.max(this.windowKb, hwm) / 1024, exact: this.clearRefsWorks };
  }

  overallPeakMb(): number {
    this.overallKb = Math.max(this.overallKb, procStatusKb(this.pid, 'VmHWM'));
    return this.overallKb / 1024;
  }

  currentMb(): number {
    return procStatusKb(this.pid, 'VmRSS') / 1024;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

interface Service {
  url: string;
  child: ChildProcess;
  rss: RssMonitor;
  stop: () => Promise<void>;
}

async function startService(mainJs: string, db: string): Promise<Service> {
  const child = spawn(process.execPath, [mainJs], {
    cwd: ROOT,
    env: {
      ...process.env,
      // The compiled files live outside the project: their packages come from its node_modules.
      NODE_PATH: path.join(ROOT, 'node_modules'),
      DATABASE_URL: `${SERVER}/${db}`,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: '0',
      COOKIE_SECRET: 'b'.repeat(32),
      SEED_DEMO: 'false',
      MIGRATE_ON_START: 'false',
      // Every request is still counted against the key; the budget is only too large to be spent.
      RATE_LIMIT_POINTS: '1000000000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match) resolve(match[1] as string);
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`service exited with ${code}: ${text}`)));
  });
  const pid = child.pid as number;
  const rss = new RssMonitor(pid);
  return {
    url,
    child,
    rss,
    stop: async () => {
      rss.stop();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Requests

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function httpRequest(
  url: string,
  options: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: options.method, headers: options.headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

interface Case {
  userSetId: number;
  quizSetId: number;
  shape: Shape;
}

interface PageItem {
  userId?: string | null;
  quizId?: string | null;
  sessionId?: string | null;
  nbGoodAnswers?: number | null;
  percentile?: number | null;
}

interface ServicePage {
  totalNumberOfItems: number;
  items: PageItem[];
}

function aggregationOf(shape: Shape): { functions: string[]; groupBy: string } | null {
  return shape === 'detailed'
    ? null
    : { functions: ['average'], groupBy: shape === 'byUser' ? 'user' : 'quiz' };
}

async function restGetResults(service: Service, p: Prepared, c: Case): Promise<ServicePage> {
  const query = new URLSearchParams({
    apiKey: p.apiKey,
    accessToken: p.token,
    userSetId: String(c.userSetId),
    quizSetId: String(c.quizSetId),
    resultTypes: RESULT_TYPES.join(','),
    numberOfItemsPerPage: String(PAGE_SIZE),
  });
  const aggregation = aggregationOf(c.shape);
  if (aggregation) {
    query.set('aggregationFunctions', aggregation.functions.join(','));
    query.set('groupBy', aggregation.groupBy);
  }
  const res = await httpRequest(`${service.url}/getResults?${query.toString()}`, { method: 'GET' });
  if (res.status !== 200) throw new Error(`REST getResults ${res.status}: ${res.body}`);
  return JSON.parse(res.body) as ServicePage;
}

const GRAPHQL_QUERY = `query Results($u: ID!, $q: ID!, $rt: [ResultType!], $af: [AggregationFunction!], $gb: GroupBy, $n: Int) {
  getResults(userSetId: $u, quizSetId: $q, resultTypes: $rt, aggregationFunctions: $af, groupBy: $gb, numberOfItemsPerPage: $n) {
    dataSetId totalNumberOfItems numberOfPages
    items { ... on ComputedResult { id userId quizId sessionId aggregationFunction nbGoodAnswers percentile } }
  }
}`;

async function graphqlGetResults(service: Service, p: Prepared, c: Case): Promise<ServicePage> {
  const aggregation = aggregationOf(c.shape);
  const body = JSON.stringify({
    query: GRAPHQL_QUERY,
    variables: {
      u: String(c.userSetId),
      q: String(c.quizSetId),
      rt: RESULT_TYPES,
      af: aggregation?.functions ?? null,
      gb: aggregation?.groupBy ?? null,
      n: PAGE_SIZE,
    },
  });
  const res = await httpRequest(`${service.url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': p.apiKey,
      authorization: `Bearer ${p.token}`,
    },
    body,
  });
  const json = JSON.parse(res.body) as { data?: { getResults: ServicePage }; errors?: unknown };
  if (res.status !== 200 || json.errors || !json.data) {
    throw new Error(`GraphQL getResults ${res.status}: ${res.body}`);
  }
  return json.data.getResults;
}

// ---------------------------------------------------------------------------------------------
// The floor: the same rows, written by hand

/**
 * Attempts of the user set on the quiz set (user, quiz, session, good answers), each with its
 * percentile among the attempts on its quiz: 100 × (below + tied/2) / all.
 */
const FLOOR_VALUED = `
  SELECT t.user_id, t.quiz_id, t.session_id, t.nb_good,
         100 * (RANK() OVER (PARTITION BY t.quiz_id ORDER BY t.nb_good) - 1
                + COUNT(*) OVER (PARTITION BY t.quiz_id, t.nb_good) / 2)
             / COUNT(*) OVER (PARTITION BY t.quiz_id) AS pct
    FROM (SELECT a.user_id, a.quiz_id, a.session_id, COALESCE(SUM(a.good), 0) AS nb_good
            FROM answers a
           WHERE a.user_id IN (SELECT item_id FROM data_set_items WHERE data_set_id = ?)
             AND a.quiz_id IN (SELECT item_id FROM data_set_items WHERE data_set_id = ?)
           GROUP BY a.user_id, a.quiz_id, a.session_id) t`;

function floorStatement(c: Case, requesterId: number): { sql: string; params: number[] } {
  const sets = [c.userSetId, c.quizSetId];
  if (c.shape === 'detailed') {
    return {
      sql: `SELECT v.user_id, v.quiz_id, v.session_id,
                   ROUND(v.nb_good, 2) AS nbGoodAnswers, ROUND(v.pct, 2) AS percentile
              FROM (${FLOOR_VALUED}) v
             WHERE v.session_id IN (SELECT s.id FROM sessions s WHERE s.owner_id = ?)
                OR v.user_id = ?
             ORDER BY v.user_id, v.quiz_id, v.session_id`,
      params: [...sets, requesterId, requesterId],
    };
  }
  const key = c.shape === 'byUser' ? 'user_id' : 'quiz_id';
  return {
    sql: `SELECT g.item_id AS ${key}, 'average' AS aggregation_function,
                 ROUND(AVG(v.nb_good), 2) AS nbGoodAnswers, ROUND(AVG(v.pct), 2) AS percentile
            FROM data_set_items g
            LEFT JOIN (${FLOOR_VALUED}) v ON v.${key} = g.item_id
           WHERE g.data_set_id = ?
           GROUP BY g.item_id
           ORDER BY g.item_id`,
    params: [...sets, c.shape === 'byUser' ? c.userSetId : c.quizSetId],
  };
}

async function floorRun(
  conn: mysql.Connection,
  c: Case,
  requesterId: number,
): Promise<mysql.RowDataPacket[]> {
  const { sql, params } = floorStatement(c, requesterId);
  const [rows] = await conn.query<mysql.RowDataPacket[]>(sql, params);
  return rows;
}

/** The service's own statement alone, rolled back (not timed): how much of a request is the SQL. */
function serviceRequest(c: Case): ResultsRequest {
  const aggregation = aggregationOf(c.shape);
  return {
    userSetId: c.userSetId,
    quizSetId: c.quizSetId,
    resultTypes: [...RESULT_TYPES],
    aggregation: aggregation
      ? { functions: ['average'], groupBy: aggregation.groupBy as 'user' | 'quiz' }
      : null,
    includeQuizzes: 'answered',
    sessionIds: null,
  };
}

const SCRATCH_SET_ID = 2_000_000_000;

async function stmtRun(conn: mysql.Connection, c: Case, requesterId: number): Promise<number> {
  const { sql, params } = resultsInsertStatement('mysql', serviceRequest(c), SCRATCH_SET_ID, {
    kind: 'ownedSessionsOrSelf',
    userId: requesterId,
  });
  // As the service runs it: READ COMMITTED, so that reading the answers takes no locks.
  await conn.query('SET TRANSACTION ISOLATION LEVEL READ COMMITTED');
  await conn.query('START TRANSACTION');
  try {
    const { ms } = await timed(() => conn.query(sql, params));
    return ms;
  } finally {
    await conn.query('ROLLBACK');
  }
}

/** The first page of the service against the floor's first rows: the same computation? */
function compare(c: Case, page: ServicePage, floor: mysql.RowDataPacket[]): string | undefined {
  if (page.totalNumberOfItems !== floor.length) {
    return `service ${page.totalNumberOfItems} items, floor ${floor.length} rows`;
  }
  const close = (a: unknown, b: unknown) =>
    a === null || b === null || a === undefined ? a == b : Math.abs(Number(a) - Number(b)) < 0.011;
  for (const [i, item] of page.items.entries()) {
    const row = floor[i] as mysql.RowDataPacket;
    const ids =
      c.shape === 'detailed'
        ? [
            [item.userId, row.user_id],
            [item.quizId, row.quiz_id],
            [item.sessionId, row.session_id],
          ]
        : c.shape === 'byUser'
          ? [[item.userId, row.user_id]]
          : [[item.quizId, row.quiz_id]];
    for (const [a, b] of ids) {
      if (String(a) !== String(b)) return `item ${i + 1}: id ${String(a)} vs ${String(b)}`;
    }
    if (!close(item.nbGoodAnswers, row.nbGoodAnswers) || !close(item.percentile, row.percentile)) {
      return `item ${i + 1}: values ${item.nbGoodAnswers}/${item.percentile} vs ${row.nbGoodAnswers}/${row.percentile}`;
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// EXPLAIN

interface ExplainRow {
  id: number | null;
  select_type: string;
  table: string | null;
  type: string | null;
  possible_keys: string | null;
  key: string | null;
  key_len: string | null;
  ref: string | null;
  rows: number | null;
  Extra: string | null;
}

function printExplain(title: string, rows: ExplainRow[]): boolean {
  out(`\n${title}`);
  out(
    `${'id'.padEnd(3)} ${'select_type'.padEnd(16)} ${'table'.padEnd(14)} ${'type'.padEnd(7)} ${'key'.padEnd(28)} ${'ref'.padEnd(28)} ${'rows'.padStart(8)}  Extra`,
  );
  for (const r of rows) {
    out(
      `${String(r.id ?? '').padEnd(3)} ${String(r.select_type).padEnd(16)} ${String(r.table ?? '').padEnd(14)} ${String(r.type ?? '').padEnd(7)} ${String(r.key ?? '').padEnd(28)} ${String(
        r.ref ?? '',
      )
        .slice(0, 28)
        .padEnd(28)} ${String(r.rows ?? '').padStart(8)}  ${r.Extra ?? ''}`,
    );
  }
  // The answers table appears under its alias `a`.
  const answers = rows.filter((r) => r.table === 'a');
  const byIndex =
    answers.length > 0 &&
    answers.every(
      (r) =>
        ['ref', 'range', 'eq_ref'].includes(String(r.type)) &&
        /^ix_answers_/.test(String(r.key ?? '')),
    );
  out(
    answers.length === 0
      ? 'CHECK: answers not found in the plan'
      : byIndex
        ? `CHECK: answers read by index (${answers.map((r) => `type ${r.type}, key ${r.key}`).join('; ')}) — no full scan`
        : `CHECK: FULL SCAN of answers (${answers.map((r) => `type ${r.type}, key ${r.key ?? 'none'}`).join('; ')})`,
  );
  return byIndex;
}

async function explainTierM(conn: mysql.Connection, p: Prepared): Promise<boolean> {
  const userSetId = p.userSets.get(100) as number;
  let ok = true;
  for (const quizzes of [10, 100]) {
    const quizSetId = p.quizSets.get(quizzes) as number;
    for (const shape of SHAPES) {
      const c = { userSetId, quizSetId, shape };
      const { sql, params } = resultsInsertStatement('mysql', serviceRequest(c), SCRATCH_SET_ID, {
        kind: 'ownedSessionsOrSelf',
        userId: p.requesterId,
      });
      const [rows] = await conn.query<mysql.RowDataPacket[]>(`EXPLAIN ${sql}`, params);
      ok =
        printExplain(
          `EXPLAIN service INSERT … SELECT (resultsInsertStatement), tier M, 100 users × ${quizzes} quizzes, ${SHAPE_LABEL[shape]}:`,
          rows as ExplainRow[],
        ) && ok;
    }
  }
  // The attempts stage alone, as the service writes its FROM / JOIN.
  const [rows] = await conn.query<mysql.RowDataPacket[]>(
    `EXPLAIN SELECT a.user_id, a.quiz_id, a.session_id, SUM(CASE WHEN a.good = 1 THEN 1 ELSE 0 END)
       FROM answers a
      WHERE a.user_id IN (SELECT us.item_id FROM data_set_items us WHERE us.data_set_id = ?)
        AND a.quiz_id IN (SELECT qs.item_id FROM data_set_items qs WHERE qs.data_set_id = ?)
      GROUP BY a.user_id, a.quiz_id, a.session_id`,
    [userSetId, p.quizSets.get(100)],
  );
  ok =
    printExplain(
      'EXPLAIN attempts SELECT alone (the FROM/WHERE of the service, replicated), tier M, 100 users × 100 quizzes:',
      rows as ExplainRow[],
    ) && ok;
  return ok;
}

// ---------------------------------------------------------------------------------------------

interface TierReport {
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
}

async function benchTier(tier: Tier, mainJs: string, explain: boolean): Promise<TierReport> {
  const p = await prepareTier(tier);
  const conn = await mysql.createConnection({ uri: mysqlUri(tier.db), timezone: 'Z' });
  const explainOk = explain ? await explainTierM(conn, p) : undefined;
  const service = await startService(mainJs, tier.db);
  const compared = COMPARE_JS ? await startService(COMPARE_JS, tier.db) : undefined;
  const idleMb = service.rss.currentMb();
  const rows: Row[] = [];
  const mismatches: string[] = [];
  let bigCaseMb: { mb: number; exact: boolean } | undefined;
  const fixedMs = { REST: NaN, GraphQL: NaN };
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
    for (let i = 0; i < 3 * RUNS; i += 1) {
      fixedTimes.REST.push((await timed(() => restGetResults(service, p, empty))).ms);
      fixedTimes.GraphQL.push((await timed(() => graphqlGetResults(service, p, empty))).ms);
    }
    fixedMs.REST = median(fixedTimes.REST);
    fixedMs.GraphQL = median(fixedTimes.GraphQL);
    log(
      `tier ${tier.name} fixed cost (empty user set): REST ${fixedMs.REST.toFixed(1)} ms, GraphQL ${fixedMs.GraphQL.toFixed(1)} ms`,
    );
    for (const users of tier.userSizes) {
      for (const quizzes of tier.quizSizes) {
        const big = users === 10000 && quizzes === 100;
        if (big) service.rss.startWindow();
        for (const shape of SHAPES) {
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
          const transports = Object.keys(runners) as Transport[];
          // Warm-up (every runner once), and a check that the floor computes the service's rows.
          const floorRows = await floorRun(conn, c, p.requesterId);
          const restPage = await restGetResults(service, p, c);
          for (const t of transports) if (t !== 'floor' && t !== 'REST') await runners[t]?.();
          const problem = compare(c, restPage, floorRows);
          if (problem) {
            mismatches.push(
              `tier ${tier.name} ${users}×${quizzes} ${SHAPE_LABEL[shape]}: ${problem}`,
            );
          }
          const times = new Map<Transport, number[]>(transports.map((t) => [t, []]));
          for (let i = 0; i < RUNS; i += 1) {
            for (const t of transports) {
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
  };
}

async function main(): Promise<void> {
  // BENCH_SERVICE_JS: a service already built elsewhere (to compare a variant), else the sources.
  const mainJs = process.env.BENCH_SERVICE_JS ?? (await buildService());
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
      `tier ${report.tier.name} fixed cost of a request (getResults of an empty user set: authentication, a set written and committed, HTTP): REST ${report.fixedMs.REST.toFixed(1)} ms, GraphQL ${report.fixedMs.GraphQL.toFixed(1)} ms`,
    );
    for (const m of report.mismatches) out(`MISMATCH service vs floor: ${m}`);
  }
  const m = reports.find((r) => r.tier.name === 'M');
  if (m) {
    const service = m.rows.filter((r) => r.transport === 'REST' || r.transport === 'GraphQL');
    const missed = service.filter((r) => r.ratio > 1.5);
    // No request of a case can take less than the fixed cost plus the service's statement alone.
    const lowerBound = (r: Row): number => {
      const stmt = m.rows.find(
        (s) =>
          s.transport === 'stmt' &&
          s.users === r.users &&
          s.quizzes === r.quizzes &&
          s.shape === r.shape,
      );
      return (
        (m.fixedMs[r.transport as 'REST' | 'GraphQL'] + (stmt?.medianMs ?? 0)) /
        (r.medianMs / r.ratio)
      );
    };
    out(
      `\nTARGET ≤ 1.5× floor at tier M: ${missed.length === 0 ? 'MET' : `MISSED in ${missed.length} of ${service.length}`}` +
        missed
          .map((r) => {
            const bound = lowerBound(r);
            return `\n  ${r.users} × ${r.quizzes} ${SHAPE_LABEL[r.shape]} ${r.transport}: ${r.ratio.toFixed(2)}× (fixed cost + statement alone: ${bound.toFixed(2)}×${bound > 1.5 ? ', above the target' : ''})`;
          })
          .join(''),
    );
    if (m.explainOk !== undefined) {
      out(
        `TARGET no full scan of answers for a 100-user set (EXPLAIN above): ${m.explainOk ? 'MET' : 'MISSED'}`,
      );
    }
    if (m.bigCaseMb) {
      out(
        `TARGET RSS < 300 MB during 10,000 × 100: ${m.bigCaseMb.mb < 300 ? 'MET' : 'MISSED'} (${m.bigCaseMb.mb.toFixed(0)} MB)`,
      );
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

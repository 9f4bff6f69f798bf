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
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'mariadb://root@127.0.0.1:3306';
const DB = 'quiz_load_bench';
const KEEP_DB = process.env.BENCH_KEEP_DB === '1';
const DURATION = Number(process.env.BENCH_DURATION ?? 60);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 5);
const ROOT = path.resolve(__dirname, '../..');
const BUILD_DIR = path.join(os.tmpdir(), 'quiz-load-bench-build');
const GENERATE = '--users 2000 --quizzes 100 --questions 10 --sessions 200 --participation 5%';
const TEACHER = { email: 'user1@generated.test', password: 'load-bench-password' };
const RATE_LIMIT_POINTS = '100000000';
const run = promisify(execFile);
const mysqlUri = (db = '') => `${SERVER.replace(/^mariadb:/, 'mysql:')}${db && `/${db}`}`;
const log = (text: string) => process.stderr.write(`${text}\n`);
const out = (text: string) => process.stdout.write(`${text}\n`);

// autocannon ships no types: the little of its API used here.
type Req = { method: string; path: string; headers: Record<string, string>; body?: string };
type Context = Record<string, unknown>;
type Hist = Record<'mean' | 'p50' | 'p97_5' | 'p99' | 'total', number>;
type Result = {
  requests: Hist;
  latency: Hist;
  statusCodeStats: Record<string, { count: number }>;
  errors: number;
  timeouts: number;
  duration: number;
};
type OnLatency = (client: unknown, status: number, bytes: number, ms: number) => void;
type Autocannon = (
  options: object,
  done: (error: Error | null, result: Result) => void,
) => { on: (event: 'response', listener: OnLatency) => void };
const autocannon = createRequire(__filename)('autocannon') as Autocannon;

// ---------------------------------------------------------------------------------------------
// Service, CLI and memory

const baseEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  // The compiled files live outside the project: their packages come from its node_modules.
  NODE_PATH: path.join(ROOT, 'node_modules'),
  DATABASE_URL: `${SERVER}/${DB}`,
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  COOKIE_SECRET: 'l'.repeat(32),
});

async function buildService(): Promise<string> {
  if (process.env.BENCH_SERVICE_JS) return process.env.BENCH_SERVICE_JS;
  const started = Date.now();
  const tsc = path.join(ROOT, 'node_modules/.bin/tsc');
  const config = path.join(ROOT, '.config/tsconfig.build.json');
  const info = path.join(BUILD_DIR, '.tsbuildinfo');
  const args = ['-p', config, '--outDir', BUILD_DIR, '--tsBuildInfoFile', info];
  // tsc reports on stdout, which the error's message leaves out.
  await run(tsc, args, { cwd: ROOT }).catch((error: { stdout?: string }) => {
    throw new Error(`the service does not compile:\n${error.stdout}`);
  });
  log(`service compiled into ${BUILD_DIR} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return path.join(BUILD_DIR, 'src/main.js');
}

/** Runs an operator command of the build; resolves to its stdout (stderr shows progress). */
function cli(mainJs: string, args: string[]): Promise<string> {
  const cliJs = path.join(path.dirname(mainJs), 'cli/main.js');
  const child = spawn(process.execPath, [cliJs, ...args], {
    cwd: ROOT,
    env: baseEnv(),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve(text) : reject(new Error(`cli ${args[0]} exited with ${code}: ${text}`)),
    ),
  );
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024;
}

/** logTail: the last lines the service logged, shown when something failed. */
type Service = { url: string; child: ChildProcess; logTail: string[] };

async function startService(mainJs: string): Promise<Service> {
  const child = spawn(process.execPath, [mainJs], {
    cwd: ROOT,
    env: {
      ...baseEnv(),
      HOST: '127.0.0.1',
      PORT: '0',
      SEED_DEMO: 'false',
      MIGRATE_ON_START: 'false',
      RATE_LIMIT_POINTS,
      RATE_LIMIT_WINDOW_SECONDS: '60',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const logTail: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('service did not start in 60 s')), 60_000);
    // Read stdout to the end of the run: a full pipe would block the service's logging.
    child.stdout?.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        logTail.push(line.slice(0, 500));
        if (logTail.length > 10) logTail.shift();
        const match = /listening on (http:\/\/\S+)/.exec(line);
        if (match) resolve(match[1] as string);
      }
    });
    child.once('exit', (code) => reject(new Error(`service exited with ${code}: ${logTail}`)));
    child.once('exit', () => clearTimeout(timer));
  }).catch((error: unknown) => {
    child.kill('SIGTERM');
    throw error;
  });
  return { url, child, logTail };
}

async function stopService(service: Service): Promise<void> {
  if (service.child.exitCode !== null) return;
  const exited = new Promise((resolve) => service.child.once('exit', resolve));
  service.child.kill('SIGTERM');
  await exited;
}

// ---------------------------------------------------------------------------------------------
// Data, credentials and the sets that requests read

interface Fixture {
  apiKey: string;
  token: string;
  quizIds: number[];
  userIds: number[];
  sessionIds: number[];
  tags: string[];
  /** A session's user set and quiz set, for getResults. */
  pairs: { userSetId: string; quizSetId: string }[];
  paged: { dataSetId: string; numberOfPages: number };
}

async function prepareDatabase(mainJs: string): Promise<void> {
  const admin = await mysql.createConnection({ uri: mysqlUri() });
  try {
    const count = admin.query<mysql.RowDataPacket[]>(`SELECT COUNT(*) AS n FROM ${DB}.users`);
    const users = await count.then(([rows]) => Number(rows[0]?.n)).catch(() => 0);
    if (KEEP_DB && users > 0) {
      log(`reusing ${DB} (BENCH_KEEP_DB=1): ${(await cli(mainJs, ['db:migrate'])).trim()}`);
      return;
    }
    await admin.query(`DROP DATABASE IF EXISTS ${DB}`);
    await admin.query(`CREATE DATABASE ${DB} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await admin.end();
  }
  log((await cli(mainJs, ['db:migrate'])).trim());
  const options = [...GENERATE.split(' '), '--seed', '1', '--teacher-password', TEACHER.password];
  log((await cli(mainJs, ['generate', ...options])).trim());
}

/** The login page's flow: the form (CSRF cookie and field), the POST, the redirect's token. */
async function logIn(url: string, apiKey: string): Promise<string> {
  const query = new URLSearchParams({ apiKey, redirectURL: 'http://localhost/bench' });
  const page = `${url}/authentication/login.php?${query}`;
  const form = await fetch(page);
  const html = await form.text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  const cookie = form.headers.getSetCookie().map((c) => c.split(';')[0]);
  if (!csrf || cookie.length === 0) throw new Error(`login form ${form.status}: ${html}`);
  const posted = await fetch(page, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookie.join('; ') },
    body: new URLSearchParams({ csrf, ...TEACHER }).toString(),
  });
  const location = posted.headers.get('location');
  const issued = location && new URL(location).searchParams.get('accessToken');
  if (!issued) throw new Error(`login ${posted.status}: ${await posted.text()}`);
  return (JSON.parse(issued) as { token: string }).token;
}

async function prepareFixture(mainJs: string, url: string): Promise<Fixture> {
  const created = await cli(mainJs, ['key:create', '--host', 'localhost', '--label', 'load']);
  const apiKey = created.trim().split('\n').pop() as string;
  const token = await logIn(url, apiKey);
  const conn = await mysql.createConnection({ uri: mysqlUri(DB) });
  const column = async <T>(sql: string, as: (v: unknown) => T) =>
    (await conn.query<mysql.RowDataPacket[]>(sql))[0].map((r) => as(r.v));
  const quizIds = await column("SELECT id v FROM quizzes WHERE visibility = 'public'", Number);
  const userIds = await column('SELECT id v FROM users', Number);
  const sessionIds = await column('SELECT id v FROM sessions', Number);
  const tags = await column('SELECT DISTINCT tag v FROM quiz_tags', String);
  await conn.end();

  const make = async (operation: string, params: Record<string, string>) => {
    const query = new URLSearchParams({ apiKey, accessToken: token, ...params });
    const res = await fetch(`${url}/${operation}?${query}`);
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${operation} ${res.status}: ${body}`);
    return JSON.parse(body) as { dataSetId: string; numberOfPages: number };
  };
  const pairs = [];
  for (const sessionId of sessionIds.slice(0, 10).map(String)) {
    const userSet = await make('getUserSet', { sessionId });
    const quizSet = await make('getQuizSet', { sessionId });
    pairs.push({ userSetId: userSet.dataSetId, quizSetId: quizSet.dataSetId });
  }
  // The players of a quiz, 10 a page: getDataSetPage reads any of its pages.
  const paged = await make('getUserSet', { quizId: `${quizIds[0]}`, numberOfItemsPerPage: '10' });
  return { apiKey, token, quizIds, userIds, sessionIds, tags, pairs, paged };
}

// ---------------------------------------------------------------------------------------------
// The workload

const GRAPHQL_GET_QUIZ = `query ($id: ID!) { getQuiz(quizId: $id) { id title visibility survey tags creationDate lastChangeDate nbQuestions author { id firstName lastName pictureURL } questions { position type title media { type url } ... on MultipleChoicesOneGoodAnswerQuestion { propositions } ... on MultipleChoicesSeveralGoodAnswersQuestion { propositions } ... on FreeAnswerTextQuestion { tolerance caseSensitive } ... on FreeAnswerNumberQuestion { tolerance } } } }`;
const GRAPHQL_GET_RESULTS = `query ($u: ID!, $q: ID!) { getResults(userSetId: $u, quizSetId: $q, resultTypes: [nbGoodAnswers, percentile], aggregationFunctions: [average], groupBy: user) { dataSetId totalNumberOfItems items { ... on ComputedResult { id userId aggregationFunction nbGoodAnswers percentile } } } }`;

/** Kind of request, group, weight (they sum to 100: the share of requests drawn). */
const KINDS = [
  ['REST getQuiz', 'read', 18],
  ['REST getUser', 'read', 14],
  ['REST getDataSetPage', 'read', 12],
  ['GraphQL getQuiz', 'read', 16],
  ['REST getUserSet', 'set making', 7],
  ['REST getQuizSet', 'set making', 6],
  ['REST getResults', 'set making', 7],
  ['GraphQL getResults', 'set making', 5],
  ['REST addQuiz', 'write', 15],
] as const;
type KindName = (typeof KINDS)[number][0];

let seed = 1;
/** mulberry32: the same draws every run. */
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

function rest(f: Fixture, operation: string, params: Record<string, string | number>): Req {
  const query = new URLSearchParams({ apiKey: f.apiKey, accessToken: f.token });
  for (const [name, value] of Object.entries(params)) query.set(name, String(value));
  return { method: 'GET', path: `/${operation}?${query}`, headers: {} };
}

function post(path: string, headers: Record<string, string>, body: object): Req {
  return {
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

function graphql(f: Fixture, query: string, variables: Record<string, string>): Req {
  const headers = { 'x-api-key': f.apiKey, authorization: `Bearer ${f.token}` };
  return post('/graphql', headers, { query, variables });
}

/** A valid quiz: title 3 to 250 characters, at least two distinct tags, three questions. */
const newQuiz = (n: number) => ({
  title: `Load test quiz ${n}`,
  visibility: 'public',
  survey: false,
  tags: ['load', `bench-${n % 50}`],
  questions: [
    {
      title: 'Larger?',
      type: 'MultipleChoicesOneGoodAnswer',
      propositions: ['2', '1'],
      goodAnswer: 0,
    },
    { title: '0.5 is 1/2', type: 'TrueFalse', goodAnswer: true },
    { title: '3 x 0.25', type: 'FreeAnswerNumber', tolerance: 0, goodAnswer: 0.75 },
  ],
});

function request(kind: KindName, f: Fixture, n: number): Req {
  const { userSetId, quizSetId } = pick(f.pairs);
  switch (kind) {
    case 'REST getQuiz':
      return rest(f, 'getQuiz', { quizId: pick(f.quizIds) });
    case 'REST getUser':
      return rest(f, 'getUser', { userId: pick(f.userIds) });
    case 'REST getDataSetPage': {
      const pageIndex = 1 + Math.floor(random() * Math.max(1, f.paged.numberOfPages));
      return rest(f, 'getDataSetPage', { dataSetId: f.paged.dataSetId, pageIndex });
    }
    case 'GraphQL getQuiz':
      return graphql(f, GRAPHQL_GET_QUIZ, { id: String(pick(f.quizIds)) });
    case 'REST getUserSet':
      return rest(f, 'getUserSet', { sessionId: pick(f.sessionIds) });
    case 'REST getQuizSet':
      return rest(f, 'getQuizSet', { tag: pick(f.tags) });
    case 'REST getResults': {
      const shape = { aggregationFunctions: 'average', groupBy: 'quiz' };
      const resultTypes = 'nbGoodAnswers,percentile';
      return rest(f, 'getResults', { userSetId, quizSetId, resultTypes, ...shape });
    }
    case 'GraphQL getResults':
      return graphql(f, GRAPHQL_GET_RESULTS, { u: userSetId, q: quizSetId });
    case 'REST addQuiz': {
      const query = new URLSearchParams({ apiKey: f.apiKey, accessToken: f.token });
      return post(`/addQuiz?${query}`, {}, { quiz: newQuiz(n) });
    }
  }
}

/** graphqlErrors: GraphQL answers resolver failures with 200 and errors[]; their codes. */
type KindStats = {
  ms: number[];
  statuses: Map<number, number>;
  graphqlErrors: Map<string, number>;
};
const bump = <K>(map: Map<K, number>, key: K, n = 1) => map.set(key, (map.get(key) ?? 0) + n);

/** One autocannon run of the mix; with `stats`, each response counted under its kind. */
function load(url: string, f: Fixture, connections: number, seconds: number, stats?: Stats) {
  let made = 0;
  // autocannon calls onResponse and then emits 'response' with the latency, synchronously.
  let last: KindStats | undefined;
  const setupRequest = (_req: Req, context: Context): Req => {
    let draw = random() * 100;
    const kind = KINDS.find(([, , weight]) => (draw -= weight) < 0) ?? KINDS[0];
    context.kind = kind[0];
    return request(kind[0], f, (made += 1));
  };
  const onResponse = (status: number, body: string, context: Context) => {
    last = stats?.get(context.kind as KindName);
    if (!last) return;
    bump(last.statuses, status);
    if (String(context.kind).startsWith('GraphQL') && body.includes('"errors"')) {
      const { errors } = JSON.parse(body) as { errors?: { extensions?: { code?: string } }[] };
      for (const e of errors ?? []) bump(last.graphqlErrors, e.extensions?.code ?? 'UNKNOWN');
    }
  };
  const options = { url, connections, duration: seconds, requests: [{ setupRequest, onResponse }] };
  return new Promise<Result>((resolve, reject) => {
    const tracker = autocannon(options, (error, result) =>
      error ? reject(error) : resolve(result),
    );
    tracker.on('response', (_client, _status, _bytes, ms) => last?.ms.push(ms));
  });
}

// ---------------------------------------------------------------------------------------------
// Report

type Stats = Map<KindName, KindStats>;
type Rss = { start: number; peak: number; end: number };

/** Classes of statuses counted apart: 429 is not among the 4xx. */
const CLASSES: [string, (status: number) => boolean][] = [
  ['2xx', (s) => s >= 200 && s < 300],
  ['4xx', (s) => s >= 400 && s < 500 && s !== 429],
  ['429', (s) => s === 429],
  ['5xx', (s) => s >= 500],
];
const tally = (statuses: Map<number, number>, test: (status: number) => boolean) =>
  [...statuses].reduce((sum, [status, n]) => sum + (test(status) ? n : 0), 0);

const percentile = (sorted: number[], p: number) =>
  sorted.length ? (sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] as number) : NaN;
const WIDTHS = [21, 7, 8, 8, 8, 8, 8, 6, 6, 6];
const cells = (values: (string | number)[]) =>
  values.map((v, i) => String(v)[i ? 'padStart' : 'padEnd'](WIDTHS[i] ?? 8)).join('');
const counts = (map: Map<string | number, number>) =>
  [...map].map(([key, n]) => `${key}×${n}`).join(', ');

/** Prints the tables; true when the run failed (5xx, GraphQL server errors, connection errors). */
function report(result: Result, stats: Stats, rss: Rss): boolean {
  const statuses = new Map<number, number>();
  for (const [s, v] of Object.entries(result.statusCodeStats)) statuses.set(Number(s), v.count);
  const server = tally(statuses, (s) => s >= 500);
  const gqlErrors = new Map<string, number>();
  for (const s of stats.values()) for (const [code, n] of s.graphqlErrors) bump(gqlErrors, code, n);
  const gqlServer = ['INTERNAL_SERVER_ERROR', 'SERVICE_UNAVAILABLE'].reduce(
    (sum, code) => sum + (gqlErrors.get(code) ?? 0),
    0,
  );
  const failed = server > 0 || gqlServer > 0 || result.errors > 0;
  const share = (group: string) => KINDS.reduce((sum, k) => sum + (k[1] === group ? k[2] : 0), 0);
  const { latency: l } = result;
  const non2xx = new Map([...statuses].filter(([s]) => s < 200 || s >= 300));

  out(
    [
      `\nMixed load: ${CONNECTIONS} connections for ${result.duration} s, after ${WARM_UP} s of warm-up at 10 (not counted)`,
      `Machine: ${os.cpus().length} CPUs shared by the service, MariaDB and autocannon`,
      `Service: production build, LOG_LEVEL=warn, RATE_LIMIT_POINTS=${RATE_LIMIT_POINTS} per 60 s: the per-key limiter is out of the way (this measures capacity, not the limit); 429s are counted apart`,
      `Data: generate ${GENERATE} --seed 1; requester ${TEACHER.email} (API key bound to localhost, access token from the login page)`,
      `Mix: reads ${share('read')}%, set making ${share('set making')}%, writes ${share('write')}%\n`,
    ].join('\n'),
  );
  const rows: [string, string | number][] = [
    ['requests/s (mean)', result.requests.mean.toFixed(1)],
    ['requests answered', result.requests.total],
    ['latency p50 / p97.5 / p99 (ms)', `${l.p50} / ${l.p97_5} / ${l.p99}`],
    ...CLASSES.map(([label, test]): [string, number] => [label, tally(statuses, test)]),
    ['non-2xx by status (all)', counts(non2xx) || '-'],
    ['GraphQL errors in 200 answers', counts(gqlErrors) || '0'],
    ['connection errors / timeouts', `${result.errors - result.timeouts} / ${result.timeouts}`],
    [
      'service RSS start / peak / end (MB)',
      [rss.start, rss.peak, rss.end].map(Math.round).join(' / '),
    ],
  ];
  for (const [label, value] of rows) out(`${label.padEnd(36)}${value}`);

  out(
    `\n${cells(['kind', 'share', 'count', 'p50 ms', 'p97.5', 'p99', '2xx', '4xx', '429', '5xx'])}  GraphQL errors`,
  );
  for (const [name] of KINDS) {
    const s = stats.get(name) as KindStats;
    const sorted = s.ms.sort((a, b) => a - b);
    const p = (q: number) => percentile(sorted, q).toFixed(0);
    const share = `${((100 * sorted.length) / Math.max(1, result.requests.total)).toFixed(1)}%`;
    const byClass = CLASSES.map(([, test]) => tally(s.statuses, test));
    const row = [name, share, sorted.length, p(50), p(97.5), p(99), ...byClass];
    out(`${cells(row)}  ${counts(s.graphqlErrors)}`);
  }
  const verdict = failed
    ? 'FAILED: 5xx, GraphQL server errors, connection errors or timeouts'
    : 'OK: no 5xx, no connection error, no timeout';
  out(`\nRESULT: ${verdict}`);
  return failed;
}

// ---------------------------------------------------------------------------------------------

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

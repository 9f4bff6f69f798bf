import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import { createTestApiKey } from '../helpers/credentials';
import { BACKENDS, openBackend, type Backend } from '../helpers/database';
import { ONE_PUBLIC_QUIZ } from '../helpers/fixtures';
import { graphql } from '../helpers/graphql';
import { startTestApp, type TestApp } from '../helpers/app';
import { loginThroughPage } from '../helpers/browser';

/**
 * Prometheus `/metrics`: after real requests on both transports, the scrape holds
 * their counts and durations by transport, operation and status, the data set statements of
 * getResults, the rate-limit refusal, the pool gauges (MySQL/MariaDB) and the process metrics.
 */

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of an exposition text (comments skipped). */
function parseExposition(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not an exposition line: ${line}`);
      const labels: Record<string, string> = {};
      for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
        labels[pair[1] as string] = pair[2] as string;
      }
      return { name: match[1] as string, labels, value: Number(match[3]) };
    });
}

/** The samples of `name` whose labels include `labels`. */
function samplesOf(samples: Sample[], name: string, labels: Record<string, string> = {}) {
  return samples.filter(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([label, value]) => sample.labels[label] === value),
  );
}

/** The one sample of `name` with exactly `labels`; undefined when absent. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string>) {
  const found = samples.filter(
    (sample) =>
      sample.name === name &&
      Object.keys(sample.labels).length === Object.keys(labels).length &&
      Object.entries(labels).every(([label, value]) => sample.labels[label] === value),
  );
  expect(found.length).toBeLessThanOrEqual(1);
  return found[0]?.value;
}

/** Count, sum and buckets of one histogram series, checked to be a well-formed histogram. */
function histogram(samples: Sample[], name: string, labels: Record<string, string>) {
  const count = valueOf(samples, `${name}_count`, labels);
  const sum = valueOf(samples, `${name}_sum`, labels);
  const buckets = samplesOf(samples, `${name}_bucket`, labels)
    .map((sample) => ({ le: sample.labels.le as string, value: sample.value }))
    .sort((a, b) => Number(a.le) - Number(b.le));
  if (count !== undefined) {
    expect(buckets.at(-1)).toEqual({ le: '+Inf', value: count });
    // Cumulative: each bucket holds at least the one below it.
    buckets.reduce((below, bucket) => {
      expect(bucket.value).toBeGreaterThanOrEqual(below);
      return bucket.value;
    }, 0);
  }
  return { count, sum, buckets };
}

const REQUESTS = 'quiz_http_request_duration_seconds';
const STATEMENTS = 'quiz_data_set_statement_duration_seconds';
const POINTS = 40;

describe.each(BACKENDS)('/metrics on %s', (backend: Backend) => {
  let dataSource: DataSource;
  let closeDatabase: () => Promise<void>;
  let app: TestApp;
  let quizId: string;
  let userId: string;
  let apiKey: string;
  let spentKey: string;

  beforeAll(async () => {
    ({ dataSource, close: closeDatabase } = await openBackend(backend, 'metrics'));
    const ids = await loadData(dataSource, ONE_PUBLIC_QUIZ);
    quizId = String(ids.quizzes.q);
    userId = String(ids.users.t);
    apiKey = (await createTestApiKey(dataSource, 'localhost')).secret;
    spentKey = (await createTestApiKey(dataSource, 'localhost')).secret;
    app = await startTestApp(dataSource, {
      RATE_LIMIT_POINTS: String(POINTS),
      LOGIN_MAX_FAILURES_PER_ACCOUNT: '1',
    });
  });

  afterAll(async () => {
    await app?.close();
    await closeDatabase?.();
  });

  const scrape = async () => {
    const res = await app.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseExposition(await res.text());
  };

  it('counts and times the requests of both transports by operation and status, the set statements of getResults, and a rate-limit refusal', async () => {
    const before = await scrape();
    // Nothing was asked yet but the scrape, which is not counted.
    expect(samplesOf(before, `${REQUESTS}_count`)).toEqual([]);

    const started = performance.now();
    const sent: [string, number][] = [];
    const send = async (path: string, status: number) => {
      const res = await app.get(path);
      const body = (await res.json()) as Record<string, unknown>;
      sent.push([path, res.status]);
      expect([path, res.status]).toEqual([path, status]);
      return body;
    };
    await send(`/getQuiz?quizId=${quizId}&apiKey=${apiKey}`, 200);
    await send(`/getQuiz?quizId=${quizId}&apiKey=${apiKey}`, 200);
    await send(`/getQuiz?quizId=987654&apiKey=${apiKey}`, 404);
    await send(`/getQuiz?apiKey=${apiKey}`, 400);
    await send(`/noSuchOperation?apiKey=${apiKey}`, 404);
    const users = await send(`/getUserSet?userId=${userId}&apiKey=${apiKey}`, 200);
    const quizzes = await send(`/getQuizSet?tag=a&apiKey=${apiKey}`, 200);
    await send(
      `/getResults?userSetId=${String(users.dataSetId)}&quizSetId=${String(quizzes.dataSetId)}&aggregationFunctions=average&groupBy=user&resultTypes=nbGoodAnswers&apiKey=${apiKey}`,
      200,
    );
    await send('/healthz', 200);
    const ok = await graphql(app.url, `{ getQuiz(quizId: "${quizId}") { id title } }`, {
      headers: { 'x-api-key': apiKey },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.errors).toBeUndefined();
    const broken = await graphql(app.url, '{ getQuiz(quizId: ', {
      headers: { 'x-api-key': apiKey },
    });
    expect(broken.status).toBe(400);
    // The other key spends its whole budget; the next request is refused.
    for (let spent = 0; spent < POINTS; spent += 1) {
      await send(`/getQuiz?quizId=${quizId}&apiKey=${spentKey}`, 200);
    }
    await send(`/getQuiz?quizId=${quizId}&apiKey=${spentKey}`, 429);
    // The login page (web): a failed login, then one refused by the account's failure limit.
    for (const status of [401, 429]) {
      const login = await loginThroughPage(
        app.url,
        apiKey,
        'http://localhost/',
        'nobody@school.example',
        'wrong',
      );
      expect(login.res.status).toBe(status);
      sent.push(['login page', 200], ['login form', status]);
    }
    const elapsedSeconds = (performance.now() - started) / 1000;

    const after = await scrape();
    const rest = (operation: string, status: string) =>
      histogram(after, REQUESTS, { transport: 'rest', operation, status });
    const getQuizOk = rest('getQuiz', '200');
    expect(getQuizOk.count).toBe(2 + POINTS);
    expect(getQuizOk.sum).toBeGreaterThan(0);
    // The server's time of a request is within what the client waited for all of them.
    expect(getQuizOk.sum).toBeLessThan(elapsedSeconds);
    expect(rest('getQuiz', '404').count).toBe(1);
    expect(rest('getQuiz', '400').count).toBe(1);
    expect(rest('getQuiz', '429').count).toBe(1);
    expect(rest('other', '404').count).toBe(1);
    for (const operation of ['getUserSet', 'getQuizSet', 'getResults']) {
      const { count, sum } = rest(operation, '200');
      expect([operation, count]).toEqual([operation, 1]);
      expect(sum).toBeGreaterThan(0);
    }
    const graphQLOk = histogram(after, REQUESTS, {
      transport: 'graphql',
      operation: 'getQuiz',
      status: '200',
    });
    expect(graphQLOk.count).toBe(1);
    expect(graphQLOk.sum).toBeGreaterThan(0);
    expect(
      histogram(after, REQUESTS, { transport: 'graphql', operation: 'unknown', status: '400' })
        .count,
    ).toBe(1);
    expect(
      histogram(after, REQUESTS, { transport: 'other', operation: 'other', status: '200' }).count,
    ).toBe(1);
    // Every request sent is in one series, and nothing else is (the scrapes are not).
    const counted = samplesOf(after, `${REQUESTS}_count`).reduce((n, s) => n + s.value, 0);
    expect(counted).toBe(sent.length + 2);

    // One statement set per data set made: the two sets and the results.
    for (const kind of ['user', 'quiz', 'computedResult']) {
      const statement = histogram(after, STATEMENTS, { kind });
      expect([kind, statement.count]).toEqual([kind, 1]);
      expect(statement.sum).toBeGreaterThan(0);
      expect(statement.sum).toBeLessThan(elapsedSeconds);
    }
    expect(valueOf(after, 'quiz_rate_limit_refusals_total', { limit: 'api_key' })).toBe(1);
    expect(valueOf(after, 'quiz_rate_limit_refusals_total', { limit: 'login' })).toBe(1);
    const web = (status: string) =>
      histogram(after, REQUESTS, { transport: 'web', operation: 'other', status }).count;
    expect([web('200'), web('401'), web('429')]).toEqual([2, 1, 1]);
  });

  it('serves the process metrics, and the pool gauges where there are pools', async () => {
    const samples = await scrape();
    expect(samplesOf(samples, 'process_cpu_user_seconds_total')).toHaveLength(1);
    expect(samplesOf(samples, 'nodejs_eventloop_lag_seconds')).toHaveLength(1);
    const gauges = (pool: string) => ({
      inUse: valueOf(samples, 'quiz_db_pool_connections_in_use', { pool }),
      idle: valueOf(samples, 'quiz_db_pool_connections_idle', { pool }),
      waiting: valueOf(samples, 'quiz_db_pool_requests_waiting', { pool }),
      max: valueOf(samples, 'quiz_db_pool_connections_max', { pool }),
    });
    if (backend === 'SQLite') {
      expect(samples.filter((sample) => sample.name.startsWith('quiz_db_pool_'))).toEqual([]);
      return;
    }
    // The test database's pools hold 5 connections each. The queries' pool and the batch pool
    // of writes (the sets) opened connections and kept them; nobody waits between requests.
    for (const pool of ['queries', 'batch_writes', 'batch_charges', 'batch_reads']) {
      const { inUse, idle, waiting, max } = gauges(pool);
      expect([pool, max, waiting]).toEqual([pool, 5, 0]);
      expect(inUse).toBeGreaterThanOrEqual(0);
      expect(idle).toBeGreaterThanOrEqual(0);
      expect((inUse as number) + (idle as number)).toBeLessThanOrEqual(5);
      if (pool !== 'batch_reads') expect((inUse as number) + (idle as number)).toBeGreaterThan(0);
    }
  });
});

describe('/metrics protection', () => {
  let dataSource: DataSource;
  let closeDatabase: () => Promise<void>;
  const TOKEN = 'a-scrape-token-of-some-length';

  beforeAll(async () => {
    ({ dataSource, close: closeDatabase } = await openBackend('SQLite', 'metrics_token'));
  });

  afterAll(async () => {
    await closeDatabase?.();
  });

  it('asks for the bearer token when METRICS_TOKEN is set, and logs a served scrape at debug only', async () => {
    const app = await startTestApp(dataSource, { METRICS_TOKEN: TOKEN });
    try {
      const refused = await app.get('/metrics');
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(await refused.json()).toEqual({
        type: 'UnauthorizedOperationException',
        message: 'Unauthorized operation: metrics (a valid bearer token is required)',
        operation: 'metrics',
        reason: 'a valid bearer token is required',
      });
      const wrong = await app.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}x` } });
      expect(wrong.status).toBe(401);
      const served = await app.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(served.status).toBe(200);
      expect(await served.text()).toContain('# TYPE quiz_http_request_duration_seconds histogram');
      await app.close();
      // The token never reaches the log.
      const scrapes = app.logs
        .records()
        .filter((record) => (record.req as { url?: string } | undefined)?.url === '/metrics')
        .map((record) => [(record.res as { statusCode: number }).statusCode, record.level]);
      expect(scrapes).toEqual([
        [401, 'warn'],
        [401, 'warn'],
        [200, 'debug'],
      ]);
      expect(app.logs.text).not.toContain(TOKEN);
    } finally {
      await app.close();
    }
  });

  it('is not served with METRICS_ENABLED=false', async () => {
    const app = await startTestApp(dataSource, { METRICS_ENABLED: 'false' });
    try {
      const res = await app.get('/metrics');
      expect(res.status).toBe(404);
      expect(((await res.json()) as { type: string }).type).toBe('UnsupportedRequestException');
    } finally {
      await app.close();
    }
  });
});

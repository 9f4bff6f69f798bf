import { loadData } from '../../src/data/import/bulk-loader';
import { ONE_PUBLIC_QUIZ } from '../helpers/fixtures';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';
import { graphql } from '../helpers/graphql';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process';

/**
 * The per-key budget of contract.md §11, leased from the database in slices: two service
 * processes on one database share it, both transports refuse past it with 429 and Retry-After,
 * and the client is told its budget in the RateLimit headers (exact with one instance; with two,
 * what the other holds unspent counts as spent).
 */

const POINTS = 30;
const WINDOW_SECONDS = 10;

const budget = (res: Response) => ({
  limit: res.headers.get('ratelimit-limit'),
  remaining: res.headers.get('ratelimit-remaining'),
});

describe('rate limits per API key', () => {
  let close: () => Promise<void>;
  let count: (table: string) => Promise<number>;
  let first: ServiceProcess;
  let second: ServiceProcess;
  let quizId: string;
  let userId: string;
  let leased: (key: string) => Promise<number>;
  const keys = { shared: '', sharedId: 0, costs: '', other: '', burst: '', burstId: 0 };
  let token: string;

  beforeAll(async () => {
    const opened = await openTestDatabase('rate_limits');
    const { db, dataSource } = opened;
    close = opened.close;
    leased = async (key) =>
      Number(
        (
          (await dataSource.query('SELECT points FROM rate_limits WHERE `key` = ?', [key])) as {
            points: unknown;
          }[]
        )[0]?.points ?? 0,
      );
    count = async (table) =>
      Number(
        ((await dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`)) as { n: unknown }[])[0].n,
      );
    const ids = await loadData(dataSource, ONE_PUBLIC_QUIZ);
    quizId = String(ids.quizzes.q);
    userId = String(ids.users.t);
    const shared = await createTestApiKey(dataSource, 'localhost');
    keys.shared = shared.secret;
    keys.sharedId = shared.id;
    keys.costs = (await createTestApiKey(dataSource, 'localhost')).secret;
    keys.other = (await createTestApiKey(dataSource, 'localhost')).secret;
    const burst = await createTestApiKey(dataSource, 'localhost');
    keys.burst = burst.secret;
    keys.burstId = burst.id;
    token = await createTestToken(dataSource, Number(userId), shared.id);
    const env = {
      DATABASE_URL: db.url,
      MIGRATE_ON_START: 'false',
      SEED_DEMO: 'false',
      RATE_LIMIT_POINTS: String(POINTS),
      RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
    };
    [first, second] = await Promise.all([startServiceProcess(env), startServiceProcess(env)]);
  });

  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
    await close();
  });

  it('shares a key’s budget between two instances, refuses past it on both transports, and serves again after Retry-After', async () => {
    const spentOn = new Map<ServiceProcess, number>();
    for (let spent = 1; spent <= POINTS; spent += 1) {
      const instance = spent % 2 === 0 ? first : second;
      spentOn.set(instance, (spentOn.get(instance) ?? 0) + 1);
      const res = await fetch(`${instance.url}/getQuiz?quizId=${quizId}&apiKey=${keys.shared}`);
      expect([spent, res.status]).toEqual([spent, 200]);
      // Each instance counts what it spent, and what the others had leased at its last slice.
      const { limit, remaining } = budget(res);
      expect(limit).toBe(String(POINTS));
      expect(Number(remaining)).toBeLessThanOrEqual(POINTS - (spentOn.get(instance) ?? 0));
      expect(Number(remaining)).toBeGreaterThanOrEqual(0);
    }
    // Every point of the window was leased, none twice.
    expect(await leased(`key:${keys.sharedId}`)).toBe(POINTS);

    const rest = await fetch(`${first.url}/getQuiz?quizId=${quizId}&apiKey=${keys.shared}`);
    expect(rest.status).toBe(429);
    const body = (await rest.json()) as Record<string, unknown>;
    expect(body).toEqual({
      type: 'TooManyRequestsException',
      message: `Too many requests: getQuiz (the API key has used its ${POINTS} points of the last ${WINDOW_SECONDS} seconds)`,
      operation: 'getQuiz',
      reason: `the API key has used its ${POINTS} points of the last ${WINDOW_SECONDS} seconds`,
      retryAfterSeconds: expect.any(Number),
    });
    const retryAfter = Number(rest.headers.get('retry-after'));
    expect(retryAfter).toBe(body.retryAfterSeconds);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
    expect(budget(rest).remaining).toBe('0');

    const gql = await fetch(`${second.url}/graphql?apiKey=${keys.shared}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ getQuiz(quizId: "${quizId}") { title } }` }),
    });
    expect(gql.status).toBe(429);
    expect(Number(gql.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const refused = (await gql.json()) as { data?: unknown; errors: { extensions: object }[] };
    expect(refused).not.toHaveProperty('data');
    expect(refused.errors[0].extensions).toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      type: 'TooManyRequestsException',
      operation: 'graphql',
      retryAfterSeconds: expect.any(Number),
    });

    // Refused before any work: no set is made; another key's budget is its own.
    const sets = await count('data_sets');
    const setRefused = await fetch(
      `${second.url}/getUserSet?userId=${userId}&apiKey=${keys.shared}&accessToken=${token}`,
    );
    expect(setRefused.status).toBe(429);
    expect(await count('data_sets')).toBe(sets);
    const other = await fetch(`${first.url}/getQuiz?quizId=${quizId}&apiKey=${keys.other}`);
    expect(other.status).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 300));
    const again = await fetch(`${second.url}/getQuiz?quizId=${quizId}&apiKey=${keys.shared}`);
    expect(again.status).toBe(200);
    expect(budget(again)).toEqual({ limit: String(POINTS), remaining: String(POINTS - 1) });
  });

  it('charges 5 points for a set, and a GraphQL request the sum of its root fields (exact on one instance)', async () => {
    const remaining = async (res: Response | Promise<Response>) => budget(await res).remaining;
    const post = (query: string) =>
      fetch(`${first.url}/graphql?apiKey=${keys.costs}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
    expect(
      await remaining(fetch(`${first.url}/getUserSet?userId=${userId}&apiKey=${keys.costs}`)),
    ).toBe('25');
    // getQuiz 1 + getUserSet 5; __typename is free.
    expect(
      await remaining(
        post(
          `{ getQuiz(quizId: "${quizId}") { id } getUserSet(userId: "${userId}") { dataSetId } __typename }`,
        ),
      ),
    ).toBe('19');
    // A request costs at least a point.
    expect(await remaining(post('{ __typename }'))).toBe('18');
    // Aliases are charged each.
    expect(
      await remaining(
        post(
          `{ a: getUserSet(userId: "${userId}") { dataSetId } b: getUserSet(userId: "${userId}") { dataSetId } }`,
        ),
      ),
    ).toBe('8');
    // The GraphQL helper of the suite reads the same headers; the answer still has its data.
    const answer = await graphql(first.url, `{ getQuiz(quizId: "${quizId}") { title } }`, {
      search: `?apiKey=${keys.costs}`,
    });
    expect(answer.body.data).toEqual({ getQuiz: { title: 'Fractions' } });
  });

  it('serves exactly the budget through two instances hit at once: what one holds goes back once it idles', async () => {
    const hit = (instance: ServiceProcess) =>
      fetch(`${instance.url}/getQuiz?quizId=${quizId}&apiKey=${keys.burst}`).then(
        (res) => res.status,
      );
    // 2 × 40 concurrent requests for a budget of 30.
    const statuses = await Promise.all(
      Array.from({ length: 80 }, (_, i) => hit(i % 2 === 0 ? first : second)),
    );
    const served = statuses.filter((status) => status === 200).length;
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(served).toBeLessThanOrEqual(POINTS);
    expect(await leased(`key:${keys.burstId}`)).toBeLessThanOrEqual(POINTS);
    // Idle for over a second, each instance gives back what it did not spend; asking both again
    // spends the rest, and not a point more.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    let more = 0;
    for (let i = 0; i < 2 * POINTS; i += 1) {
      if ((await hit(i % 2 === 0 ? first : second)) === 200) more += 1;
    }
    expect(served + more).toBe(POINTS);
    expect(await leased(`key:${keys.burstId}`)).toBe(POINTS);
  });
});

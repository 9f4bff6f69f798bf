import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend } from '../helpers/database';
import { ONE_PUBLIC_QUIZ } from '../helpers/fixtures';
import { graphql } from '../helpers/graphql';

/**
 * Operations that write only data sets run beside their rate-limit charge (context/admission.ts):
 * when the charge refuses them, at the database rather than in memory, the answer is the refusal
 * and the set they were writing is never committed, on both transports and both databases.
 */
describe.each(BACKENDS)('a set operation refused by its charge leaves nothing (%s)', (backend) => {
  // Enough for one set (5 points) and a little: the second set goes over at the database.
  const POINTS = 7;
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let userId: string;

  const setCount = async () =>
    Number(
      ((await dataSource.query('SELECT COUNT(*) AS n FROM data_sets')) as { n: unknown }[])[0]?.n,
    );

  async function credentials(): Promise<{ secret: string; token: string }> {
    const key = await createTestApiKey(dataSource, 'localhost');
    return { secret: key.secret, token: await createTestToken(dataSource, Number(userId), key.id) };
  }

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'charge_beside'));
    userId = String((await loadData(dataSource, ONE_PUBLIC_QUIZ)).users.t);
    app = await startTestApp(dataSource, { RATE_LIMIT_POINTS: String(POINTS) });
  });

  afterAll(async () => {
    await app?.close();
    await close();
  });

  it('REST: the set within the budget is made, the one over it answers 429 and is not', async () => {
    const { secret, token } = await credentials();
    const path = `/getUserSet?userId=${userId}&apiKey=${secret}&accessToken=${encodeURIComponent(token)}`;
    const before = await setCount();
    const made = await app.get(path);
    expect(made.status).toBe(200);
    expect(await setCount()).toBe(before + 1);

    const refused = await app.get(path);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refused.json()).toMatchObject({
      type: 'TooManyRequestsException',
      operation: 'getUserSet',
    });
    expect(await setCount()).toBe(before + 1);
  });

  it('GraphQL: the refusal replaces the whole answer (429, no data) and no set is committed', async () => {
    const { secret, token } = await credentials();
    const query = `{ getUserSet(userId: "${userId}") { dataSetId } }`;
    const headers = { 'x-api-key': secret, authorization: `Bearer ${token}` };
    const before = await setCount();
    const made = await graphql(app.url, query, { headers });
    expect(made.status).toBe(200);
    expect(made.body.data?.getUserSet).toMatchObject({ dataSetId: expect.any(String) });
    expect(await setCount()).toBe(before + 1);

    const refused = await graphql(app.url, query, { headers });
    expect(refused.status).toBe(429);
    expect(refused.body).not.toHaveProperty('data');
    expect(refused.body.errors).toHaveLength(1);
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      type: 'TooManyRequestsException',
      operation: 'graphql',
      retryAfterSeconds: expect.any(Number),
    });
    expect(await setCount()).toBe(before + 1);
  });
});

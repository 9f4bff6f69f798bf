import type { DataSource } from 'typeorm';
import type { RestOperation } from '../../src/api/rest/rest-operation';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';

const SLOW: RestOperation = {
  name: 'slow',
  methods: ['GET'],
  handler: async (ctx) => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    const [row] = (await ctx.db.read.query('SELECT 1 AS one')) as { one: number }[];
    return { finished: true, one: Number(row.one) };
  },
};

describe('server', () => {
  let dataSource: DataSource;
  let closeDb: () => Promise<void>;
  let app: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    ({ dataSource, close: closeDb } = await openTestDatabase('server'));
    apiKey = (await createTestApiKey(dataSource)).secret;
  });

  afterAll(async () => {
    await app?.close();
    await closeDb();
  });

  it('answers /healthz with database reachability', async () => {
    app = await startTestApp(dataSource, {}, { operations: [SLOW] });
    const res = await app.get('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', database: 'up' });
  });

  it('shuts down gracefully: in-flight requests finish, new ones are refused, the pool is closed', async () => {
    const inFlight = app.get(`/slow?apiKey=${apiKey}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = app.close();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ finished: true, one: 1 });
    await closing;
    await expect(fetch(`${app.url}/healthz`)).rejects.toThrow();
    expect(dataSource.isInitialized).toBe(false);
  });

  it('answers /healthz with 503 when the database is gone', async () => {
    const { dataSource: other, close } = await openTestDatabase('server_down');
    const down = await startTestApp(other);
    try {
      await other.destroy();
      const res = await down.get('/healthz');
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: 'unavailable', database: 'down' });
    } finally {
      await down.close();
      await close();
    }
  });
});

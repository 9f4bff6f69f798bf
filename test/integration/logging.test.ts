import type { DataSource } from 'typeorm';
import type { RestOperation } from '../../src/api/rest/rest-operation';
import { startTestApp, type TestApp } from '../helpers/app';
import { openTestDatabase } from '../helpers/database';

const API_KEY = 'qk_SuperSecretApiKeyValue123';
const TOKEN = 'tok_VerySecretAccessTokenValue456';
const PASSWORD = 'hunter2-correct-horse';

const OPERATIONS: RestOperation[] = [
  {
    name: 'leaky',
    methods: ['GET', 'POST'],
    handler: async (ctx, params) => {
      // A careless log line and a failure whose message carries the request URL.
      ctx.logger.info({ params }, `handling leaky with apiKey=${String(params.apiKey)}`);
      throw new Error(
        `failed for /leaky?apiKey=${String(params.apiKey)}&accessToken=${String(params.accessToken)}`,
      );
    },
  },
  { name: 'ok', methods: ['GET'], handler: async () => ({ ok: true }) },
];

describe('log redaction', () => {
  let app: TestApp;
  let close: () => Promise<void>;
  let dataSource: DataSource;

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDatabase('logging'));
    app = await startTestApp(dataSource, {}, { operations: OPERATIONS });
  });

  afterAll(async () => {
    await app.close();
    await close();
  });

  it('keeps apiKey and accessToken values out of every log line', async () => {
    const tokenJson = encodeURIComponent(JSON.stringify({ token: TOKEN, expiresIn: 86400 }));
    await app.get(`/ok?apiKey=${API_KEY}&accessToken=${TOKEN}`);
    await app.get(`/ok?accessToken=${tokenJson}&apiKey=${encodeURIComponent(API_KEY)}`);
    const failed = await app.get(
      `/leaky?apiKey=${API_KEY}&accessToken=${TOKEN}&password=${PASSWORD}`,
      {
        headers: { authorization: `Bearer ${TOKEN}`, 'x-api-key': API_KEY },
      },
    );
    expect(failed.status).toBe(500);
    await app.get(
      `/leaky?redirectURL=${encodeURIComponent(`http://localhost/x?apiKey=${API_KEY}`)}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ password: PASSWORD, token: TOKEN }),
      },
    );

    const text = app.logs.text;
    // The requests were logged (the capture is not empty) ...
    expect(app.logs.lines.length).toBeGreaterThan(5);
    expect(text).toContain('/ok?apiKey=[REDACTED]');
    expect(text).toContain('handling leaky');
    // ... and no secret value is in any line.
    for (const secret of [API_KEY, TOKEN, PASSWORD, encodeURIComponent(API_KEY)]) {
      expect(text).not.toContain(secret);
    }
  });
});

import type { DataSource } from 'typeorm';
import type { RestOperation } from '../../src/api/rest/rest-operation';
import { startTestApp, type TestApp } from '../helpers/app';
import { User } from '../../src/db/entities';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';

const PASSWORD = 'hunter2-correct-horse';
let API_KEY: string;
let TOKEN: string;

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
  {
    name: 'duplicate',
    methods: ['GET'],
    handler: async () => {
      // A driver's failure quotes the values of its statement.
      const message = "Duplicate entry 'lo.gger@example.org' for key 'users.IDX_email'";
      throw Object.assign(new Error(message), { code: 'ER_DUP_ENTRY', sqlMessage: message });
    },
  },
];

describe('log redaction', () => {
  let app: TestApp;
  let close: () => Promise<void>;
  let dataSource: DataSource;

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDatabase('logging'));
    const user = await dataSource.getRepository(User).save({
      email: 'log@example.org',
      passwordHash: null,
      firstName: 'Lo',
      lastName: 'Gger',
      pictureUrl: null,
      publicProfile: false,
      canCreatePrivateQuizzes: false,
    });
    const key = await createTestApiKey(dataSource);
    API_KEY = key.secret;
    TOKEN = await createTestToken(dataSource, user.id, key.id);
    app = await startTestApp(dataSource, {}, { operations: OPERATIONS });
  });

  afterAll(async () => {
    await app.close();
    await close();
  });

  it('keeps apiKey and accessToken values out of every log line', async () => {
    const tokenJson = encodeURIComponent(JSON.stringify({ token: TOKEN, expiresIn: 86400 }));
    // Real credentials: the requests pass the key and token checks and reach the handlers.
    expect((await app.get(`/ok?apiKey=${API_KEY}&accessToken=${TOKEN}`)).status).toBe(200);
    expect(
      (await app.get(`/ok?accessToken=${tokenJson}&apiKey=${encodeURIComponent(API_KEY)}`)).status,
    ).toBe(200);
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

  it('keeps parameter names and identifier values only in request lines (contract.md §14.7)', async () => {
    const before = app.logs.lines.length;
    const query = new URLSearchParams({
      quizId: '42',
      keywords: 'Laurent',
      search: 'Lo Gger',
      resultTypes: 'nbGoodAnswers,goodAnswersPercent',
      groupBy: 'user',
      sessionId: 'not-an-id Laurent',
      unknownThing: 'Laurent',
      'lo.gger@example.org': '1',
    });
    expect((await app.get(`/ok?apiKey=${API_KEY}&${query}`)).status).toBe(200);
    expect((await app.get(`/nothing&keywords=Laurent;x`)).status).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const urls = app.logs
      .records()
      .slice(before)
      .map((record) => (record.req as { url?: string } | undefined)?.url);
    expect(urls).toEqual([
      '/ok?apiKey=[REDACTED]&quizId=42&keywords=[REDACTED]&search=[REDACTED]' +
        '&resultTypes=nbGoodAnswers,goodAnswersPercent&groupBy=user&sessionId=[REDACTED]' +
        '&unknownThing=[REDACTED]&[REDACTED]',
      '/nothing&…',
    ]);
  });

  it("logs a driver's failure by its code, without the values it quotes", async () => {
    expect((await app.get(`/duplicate?apiKey=${API_KEY}`)).status).toBe(500);
    const failed = app.logs
      .records()
      .filter((record) => record.msg === 'request failed')
      .pop();
    expect(failed).toMatchObject({ err: { code: 'ER_DUP_ENTRY' } });
    // The error's own class, not the `Object` a serializer of error instances would name.
    expect((failed?.err as { type?: string }).type).toMatch(/Error$/);
    expect((failed?.err as { type?: string }).type).not.toBe('Object');
    // The request's own line: errored, with its status and why, its key order as pino-http's.
    const line = app.logs
      .records()
      .filter((record) => record.msg === 'request errored')
      .pop();
    expect(line && Object.keys(line)).toEqual([
      'level',
      'time',
      'req',
      'res',
      'err',
      'responseTime',
      'msg',
    ]);
    expect(line).toMatchObject({
      level: 'error',
      req: { method: 'GET', url: '/duplicate?apiKey=[REDACTED]', remoteAddress: '127.0.0.1' },
      res: { statusCode: 500 },
      err: { type: 'Error', message: 'failed with status code 500' },
    });
    expect(JSON.stringify(failed)).toContain("Duplicate entry '…' for key '…'");
    expect(app.logs.text).not.toContain('lo.gger@example.org');
  });

  it('logs a GraphQL request on one line with its operation, root fields and error types', async () => {
    const before = app.logs.lines.length;
    const res = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
      body: JSON.stringify({
        query:
          'query Twice { known: getUser(userId: "1") { id } missing: getQuiz(quizId: "999999") { id } }',
        operationName: 'Twice',
      }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { errors?: { extensions?: { type?: string } }[] };
    const types = (body.errors ?? []).map((error) => error.extensions?.type);
    expect(types.length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const lines = app.logs
      .records()
      .slice(before)
      .filter((record) => (record.req as { url?: string } | undefined)?.url === '/graphql');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'warn',
      res: { statusCode: 200 },
      graphql: { operationName: 'Twice', rootFields: ['getUser', 'getQuiz'], errorTypes: types },
    });
  });
});

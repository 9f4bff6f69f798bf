import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import { startTestApp } from '../helpers/app';
import { createTestApiKey } from '../helpers/credentials';
import { openTestDatabase, type TestDatabase } from '../helpers/database';
import { openDatabase } from '../../src/db/data-source';
import { graphql } from '../helpers/graphql';

describe('API key check', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let quizId: string;
  let db: TestDatabase;

  beforeAll(async () => {
    ({ db, dataSource, close } = await openTestDatabase('keycheck'));
    const ids = await loadData(dataSource, {
      users: [{ ref: 't', email: 't@school.example', firstName: 'T', lastName: 'T' }],
      quizzes: [
        {
          ref: 'q',
          author: 't',
          title: 'Public quiz',
          visibility: 'public',
          survey: false,
          tags: ['a', 'b'],
        },
      ],
    });
    quizId = ids.quizzes.q;
  });

  afterAll(() => close());

  it('uses X-Forwarded-For only from the proxies TRUST_PROXY names', async () => {
    const key = await createTestApiKey(dataSource, '203.0.113.7');
    const path = `/getQuiz?quizId=${quizId}&apiKey=${key.secret}`;
    const forwarded = { headers: { 'x-forwarded-for': '203.0.113.7' } };

    const direct = await startTestApp(dataSource);
    try {
      // Without a trusted proxy the header is ignored: the peer is 127.0.0.1.
      const res = await direct.get(path, forwarded);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({
        type: 'UnauthorizedOperationException',
        reason: 'the API key is not valid for the host of this request',
      });
    } finally {
      await direct.running.server.close();
    }

    const proxied = await startTestApp(dataSource, { TRUST_PROXY: 'loopback' });
    try {
      expect((await proxied.get(path, forwarded)).status).toBe(200);
      expect(
        (await proxied.get(path, { headers: { 'x-forwarded-for': '203.0.113.8' } })).status,
      ).toBe(401);
    } finally {
      await proxied.running.server.close();
    }
  });

  it('accepts a browser request from a subdomain of the bound domain, by Origin or Referer', async () => {
    const key = await createTestApiKey(dataSource, 'school.example');
    const app = await startTestApp(dataSource);
    try {
      const path = `/getQuiz?quizId=${quizId}&apiKey=${key.secret}`;
      expect(
        (await app.get(path, { headers: { origin: 'https://grades.school.example' } })).status,
      ).toBe(200);
      expect(
        (await app.get(path, { headers: { referer: 'https://school.example/x' } })).status,
      ).toBe(200);
      expect(
        (await app.get(path, { headers: { origin: 'https://school.example.evil.test' } })).status,
      ).toBe(401);
      expect((await app.get(path)).status).toBe(401);
    } finally {
      await app.running.server.close();
    }
  });

  it('refuses an API key or a token given twice, on REST and on GraphQL alike', async () => {
    const key = await createTestApiKey(dataSource, 'localhost');
    const app = await startTestApp(dataSource);
    try {
      for (const name of ['apiKey', 'accessToken']) {
        const twice =
          name === 'apiKey'
            ? `apiKey=${key.secret}&apiKey=${key.secret}`
            : `apiKey=${key.secret}&accessToken=a&accessToken=b`;
        const refusal = {
          type: 'BadParameterException',
          parameterName: name,
          // A credential's value is never repeated (contract.md §2).
          providedValue: '[REDACTED]',
          reason: 'must be given once',
        };
        const rest = await app.get(`/getQuiz?quizId=${quizId}&${twice}`);
        expect(rest.status).toBe(400);
        expect(await rest.json()).toMatchObject({ ...refusal, operation: 'getQuiz' });
        // GraphQL took the first value until the catalog's credentialsFrom read both wires.
        const gql = await graphql(app.url, 'query ($id: ID!) { getQuiz(quizId: $id) { id } }', {
          variables: { id: quizId },
          search: `?${twice}`,
        });
        expect(gql.status).toBe(400);
        expect(gql.body).not.toHaveProperty('data');
        expect(gql.body.errors).toHaveLength(1);
        expect(gql.body.errors?.[0]?.extensions).toStrictEqual({
          ...refusal,
          code: 'BAD_USER_INPUT',
          operation: 'graphql',
        });
      }
      // The headers GraphQL also reads come first, as before.
      const headed = await graphql(app.url, 'query ($id: ID!) { getQuiz(quizId: $id) { id } }', {
        variables: { id: quizId },
        headers: { 'x-api-key': key.secret },
        search: '?apiKey=unknown',
      });
      expect(headed.status).toBe(200);
      expect(headed.body.data).toStrictEqual({ getQuiz: { id: quizId } });
    } finally {
      await app.running.server.close();
    }
  });

  it('records the last use of a key without a write per request, then writes it in one batch', async () => {
    const key = await createTestApiKey(dataSource, 'localhost');
    // The app owns (and at shutdown closes) its pool; read through a connection of our own.
    const reader = await openDatabase({ ...db.config, migrateOnStart: false });
    const app = await startTestApp(dataSource);
    const lastUsed = async () =>
      (
        (await reader.query('SELECT last_used_at FROM api_keys WHERE id = ?', [key.id])) as {
          last_used_at: Date | null;
        }[]
      )[0].last_used_at;
    for (let i = 0; i < 5; i += 1) {
      expect((await app.get(`/getQuiz?quizId=${quizId}&apiKey=${key.secret}`)).status).toBe(200);
    }
    expect(await lastUsed()).toBeNull();
    // Shutdown runs the final flush (as the periodic job does every 30 s).
    await app.close();
    const used = await lastUsed();
    expect(used).toBeInstanceOf(Date);
    expect(Math.abs((used as Date).getTime() - Date.now())).toBeLessThan(60_000);
    await reader.destroy();
  });
});

describe('CORS for browser clients on other sites', () => {
  it('answers preflights and lets any origin read answers (the key check still decides)', async () => {
    const { dataSource, close } = await openTestDatabase('cors');
    const app = await startTestApp(dataSource);
    try {
      for (const path of ['/getQuiz', '/graphql']) {
        const preflight = await app.get(path, {
          method: 'OPTIONS',
          headers: {
            origin: 'https://app.school.example',
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'content-type, x-api-key',
          },
        });
        expect(preflight.status).toBe(204);
        expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
        expect(preflight.headers.get('access-control-allow-headers')).toMatch(/X-Api-Key/);
      }
      const key = await createTestApiKey(dataSource, 'school.example');
      const refused = await app.get(`/getQuiz?quizId=1&apiKey=${key.secret}`, {
        headers: { origin: 'https://evil.test' },
      });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('access-control-allow-origin')).toBe('*');
      const allowed = await app.get(`/getQuiz?quizId=1&apiKey=${key.secret}`, {
        headers: { origin: 'https://app.school.example' },
      });
      // The key passed; the quiz does not exist in this database.
      expect(allowed.status).toBe(404);
      expect(allowed.headers.get('access-control-expose-headers')).toMatch(/X-Request-Id/);
    } finally {
      await app.close();
      await close();
    }
  });
});

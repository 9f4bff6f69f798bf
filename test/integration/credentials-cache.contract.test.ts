import type { DataSource } from 'typeorm';
import type { DatabaseConfig } from '../../src/config/config';
import { loadData } from '../../src/data/import/bulk-loader';
import { openDatabase } from '../../src/db/data-source';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';
import { graphql } from '../helpers/graphql';
import { StatementCounter } from '../helpers/statement-counter';
import { hashSecret as sha256 } from '../../src/security/secrets';

/**
 * Two instances over one MariaDB database, each with its credentials cache: a key they have both
 * served, revoked elsewhere (in SQL, as another instance or the command line would), is refused
 * by the next request on each, REST and GraphQL, whatever its budget.
 */
describe('credentials cache: revocation takes effect on the next request of every instance', () => {
  const counter = new StatementCounter();
  let first: TestApp;
  let second: TestApp;
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let quizId: string;
  let userId: number;
  let databaseConfig: DatabaseConfig;

  beforeAll(async () => {
    const opened = await openTestDatabase('credentials_cache', { logger: counter });
    ({ dataSource, close } = opened);
    databaseConfig = opened.db.config;
    const ids = await loadData(dataSource, {
      users: [{ ref: 't', email: 't@school.example', firstName: 'T', lastName: 'T' }],
      quizzes: [
        {
          ref: 'q',
          author: 't',
          title: 'Public',
          visibility: 'public',
          survey: false,
          tags: ['a', 'b'],
        },
      ],
    });
    quizId = ids.quizzes.q;
    userId = Number(ids.users.t);
    first = await startTestApp(dataSource);
    second = await startTestApp(await openDatabase(opened.db.config));
  });

  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
    await close();
  });

  const revoke = (id: number) =>
    dataSource.query('UPDATE api_keys SET revoked_at = CURRENT_TIMESTAMP WHERE id = ?', [id]);

  async function restStatus(app: TestApp, credentials: string): Promise<number> {
    return (await app.get(`/getQuiz?quizId=${quizId}&${credentials}`)).status;
  }

  async function graphqlAnswer(app: TestApp, apiKey: string, token?: string) {
    return graphql(
      app.url,
      `
        query ($id: ID!) {
          getQuiz(quizId: $id) {
            id
          }
        }
      `,
      {
        variables: { id: quizId },
        headers: { 'x-api-key': apiKey, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      },
    );
  }

  it('serves a key known to the instance without looking it up again, and confirms it in the charge', async () => {
    const key = await createTestApiKey(dataSource, 'localhost');
    expect(await restStatus(first, `apiKey=${key.secret}`)).toBe(200);
    const { statements } = await counter.count(() => restStatus(first, `apiKey=${key.secret}`));
    expect(statements.some((sql) => sql.includes('WHERE k.key_hash = ?'))).toBe(false);
    // The charge reads the key's state in its exchange.
    expect(statements.some((sql) => sql.startsWith('SELECT k.revoked_at AS key_revoked_at'))).toBe(
      true,
    );
  });

  it('refuses a revoked key on both instances, REST and GraphQL, with and without a token', async () => {
    const key = await createTestApiKey(dataSource, 'localhost');
    const token = await createTestToken(dataSource, userId, key.id);
    const withToken = `apiKey=${key.secret}&accessToken=${encodeURIComponent(token)}`;
    for (const app of [first, second]) {
      expect(await restStatus(app, `apiKey=${key.secret}`)).toBe(200);
      expect(await restStatus(app, withToken)).toBe(200);
      expect((await graphqlAnswer(app, key.secret)).status).toBe(200);
      expect((await graphqlAnswer(app, key.secret, token)).status).toBe(200);
    }
    await revoke(key.id);
    for (const app of [first, second]) {
      const res = await app.get(`/getQuiz?quizId=${quizId}&apiKey=${key.secret}`);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({
        type: 'UnauthorizedOperationException',
        reason: 'the API key is unknown or revoked',
      });
      expect(await restStatus(app, withToken)).toBe(401);
      const answer = await graphqlAnswer(app, key.secret, token);
      expect(answer.status).toBe(401);
      expect(answer.body.errors?.[0]?.extensions).toMatchObject({
        type: 'UnauthorizedOperationException',
        reason: 'the API key is unknown or revoked',
      });
      expect((await graphqlAnswer(app, key.secret)).status).toBe(401);
    }
  });

  it('refuses a token withdrawn in the database (expiry moved, row deleted) at the next request', async () => {
    const key = await createTestApiKey(dataSource, 'localhost');
    const moved = await createTestToken(dataSource, userId, key.id);
    const deleted = await createTestToken(dataSource, userId, key.id);
    const query = (token: string) =>
      `apiKey=${key.secret}&accessToken=${encodeURIComponent(token)}`;
    for (const app of [first, second]) {
      expect(await restStatus(app, query(moved))).toBe(200);
      expect(await restStatus(app, query(deleted))).toBe(200);
    }
    await dataSource.query('UPDATE access_tokens SET expires_at = ? WHERE token_hash = ?', [
      new Date(Date.now() - 60_000),
      sha256(moved),
    ]);
    await dataSource.query('DELETE FROM access_tokens WHERE token_hash = ?', [sha256(deleted)]);
    for (const app of [first, second]) {
      const expired = await app.get(`/getQuiz?quizId=${quizId}&${query(moved)}`);
      expect(expired.status).toBe(401);
      expect(await expired.json()).toMatchObject({ reason: 'the access token has expired' });
      const gone = await graphqlAnswer(app, key.secret, deleted);
      expect(gone.status).toBe(401);
      expect(gone.body.errors?.[0]?.extensions).toMatchObject({
        reason: 'the access token is invalid',
      });
    }
    // The key itself still serves.
    expect(await restStatus(first, `apiKey=${key.secret}`)).toBe(200);
  });

  it('refuses a revoked key that had spent its budget (refused in memory) with 401, not 429', async () => {
    const limited = await startTestApp(await openDatabase(databaseConfig), {
      RATE_LIMIT_POINTS: '2',
    });
    try {
      const key = await createTestApiKey(dataSource, 'localhost');
      expect(await restStatus(limited, `apiKey=${key.secret}`)).toBe(200);
      expect(await restStatus(limited, `apiKey=${key.secret}`)).toBe(200);
      expect(await restStatus(limited, `apiKey=${key.secret}`)).toBe(429);
      await revoke(key.id);
      expect(await restStatus(limited, `apiKey=${key.secret}`)).toBe(401);
    } finally {
      await limited.close();
    }
  });
});

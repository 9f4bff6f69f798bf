import type { DataSource } from 'typeorm';
import type { DatabaseConfig } from '../../src/config/config';
import { loadData } from '../../src/data/import/bulk-loader';
import { openDatabase } from '../../src/db/data-source';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';
import { graphql } from '../helpers/graphql';
import { StatementCounter } from '../helpers/statement-counter';
import { revokeApiKey } from '../../src/services/api-keys/api-key.service';
import { eraseUser } from '../../src/services/privacy/erasure.service';
import { operatorServiceContext } from '../helpers/service-context';

/**
 * Two instances over one MariaDB database, each with its credentials cache, kept true to the
 * database by the count of credential changes each reads four times a second: a key they have
 * both served, revoked through a third (the command line's path), is refused by each within a
 * second, REST and GraphQL, whatever its budget; so are the tokens of a person erased. A request
 * served from the cache and from its slice of the budget sends no statement.
 */
describe('credentials cache: a revocation is refused by every instance within a second', () => {
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
      users: [
        { ref: 't', email: 't@school.example', firstName: 'T', lastName: 'T' },
        { ref: 'p', email: 'p@school.example', firstName: 'P', lastName: 'P' },
      ],
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
    pupilId = Number(ids.users.p);
    first = await startTestApp(dataSource);
    second = await startTestApp(await openDatabase(opened.db.config));
  });
  let pupilId: number;

  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
    await close();
  });

  /** Revoked as the command line or the key manager does, on neither instance. */
  const revoke = (id: number) => revokeApiKey(operatorServiceContext(dataSource), id);
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

  /** Milliseconds from `since` until `check` answers true (asked every 20 ms), failing after 3 s. */
  async function timeUntil(since: number, check: () => Promise<boolean>): Promise<number> {
    while (!(await check())) {
      if (Date.now() - since > 3000) throw new Error('still served 3 s after the revocation');
      await sleep(20);
    }
    return Date.now() - since;
  }

  it('serves a key known to the instance with no statement at all: no lookup, no count', async () => {
    const key = await createTestApiKey(dataSource, 'localhost');
    expect(await restStatus(first, `apiKey=${key.secret}`)).toBe(200);
    // Once a read of the changes has confirmed the cache (the first also empties it: what was
    // looked up before any read is never served unconfirmed), the key is looked up once more.
    await sleep(300);
    expect(await restStatus(first, `apiKey=${key.secret}`)).toBe(200);
    const { statements } = await counter.count(async () => {
      for (let i = 0; i < 5; i += 1)
        expect(await restStatus(first, `apiKey=${key.secret}`)).toBe(200);
    });
    expect(statements.filter((sql) => sql.includes('WHERE k.key_hash = ?'))).toEqual([]);
    expect(statements.filter((sql) => /^\s*(INSERT|UPDATE|DELETE)/i.test(sql))).toEqual([]);
  });

  it('refuses a revoked key on both instances within a second, REST and GraphQL, with and without a token', async () => {
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
    const revokedAt = Date.now();
    const delays = await Promise.all(
      [first, second].map((app) =>
        timeUntil(revokedAt, async () => (await restStatus(app, `apiKey=${key.secret}`)) === 401),
      ),
    );
    for (const delay of delays) expect(delay).toBeLessThan(1000);
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

  it('refuses the token of an erased person on both instances within a second; the key still serves', async () => {
    const key = await createTestApiKey(dataSource, 'localhost');
    const token = await createTestToken(dataSource, pupilId, key.id);
    const query = `apiKey=${key.secret}&accessToken=${encodeURIComponent(token)}`;
    for (const app of [first, second]) expect(await restStatus(app, query)).toBe(200);
    await eraseUser({ db: operatorServiceContext(dataSource).db }, pupilId, { erasedBy: 'test' });
    const erasedAt = Date.now();
    const delays = await Promise.all(
      [first, second].map((app) =>
        timeUntil(erasedAt, async () => (await restStatus(app, query)) === 401),
      ),
    );
    for (const delay of delays) expect(delay).toBeLessThan(1000);
    const gone = await graphqlAnswer(second, key.secret, token);
    expect(gone.status).toBe(401);
    expect(gone.body.errors?.[0]?.extensions).toMatchObject({
      reason: 'the access token is invalid',
    });
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
      const revokedAt = Date.now();
      const delay = await timeUntil(
        revokedAt,
        async () => (await restStatus(limited, `apiKey=${key.secret}`)) === 401,
      );
      expect(delay).toBeLessThan(1000);
    } finally {
      await limited.close();
    }
  });
});

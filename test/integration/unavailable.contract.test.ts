import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import { openDatabase } from '../../src/db/data-source';
import { startTestApp, type TestApp } from '../helpers/app';
import { ONE_PUBLIC_QUIZ } from '../helpers/fixtures';
import { createTestApiKey } from '../helpers/credentials';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';

/**
 * A database that is gone, or a pool with every connection busy and its queue full, is answered
 * 503 UnexpectedServerResponseException with Retry-After on both transports, never 500; and the
 * service serves again once the database answers (contract.md §11).
 */

interface Answer {
  status: number;
  retryAfter: string | null;
  body: Record<string, unknown>;
}

async function answer(res: Promise<Response>): Promise<Answer> {
  const response = await res;
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as Record<string, unknown>,
  };
}

/** The exception of an answer, REST's body or the first GraphQL error's extensions. */
function exceptionOf(body: Record<string, unknown>): Record<string, unknown> {
  const errors = body.errors as { extensions: Record<string, unknown> }[] | undefined;
  return errors ? errors[0].extensions : body;
}

function expectUnavailable(answers: Answer[], operation: string): void {
  const refused = answers.filter((a) => a.status !== 200);
  for (const a of refused) {
    expect(a.status).toBe(503);
    expect(a.retryAfter).toBe('2');
    expect(exceptionOf(a.body)).toMatchObject({
      type: 'UnexpectedServerResponseException',
      operation,
      retryAfterSeconds: 2,
    });
  }
}

describe('an unavailable database', () => {
  let db: TestDatabase;
  let quizId: string;
  let apiKey: string;

  beforeAll(async () => {
    db = await createTestDatabase('unavailable');
    const dataSource = await openDatabase(db.config);
    const ids = await loadData(dataSource, ONE_PUBLIC_QUIZ);
    quizId = String(ids.quizzes.q);
    apiKey = (await createTestApiKey(dataSource, 'localhost')).secret;
    await dataSource.destroy();
  });

  afterAll(async () => {
    await db.drop();
  });

  describe('with every connection busy', () => {
    let app: TestApp;
    let dataSource: DataSource;

    beforeAll(async () => {
      // One connection, so a burst fills its queue of 100 at once.
      dataSource = await openDatabase({ ...db.config, poolSize: 1 });
      app = await startTestApp(dataSource, { DATABASE_POOL_SIZE: '1' });
    });

    afterAll(async () => {
      await app.close();
    });

    it('answers 503 with Retry-After on both transports, then serves again', async () => {
      const rest = await Promise.all(
        Array.from({ length: 300 }, () =>
          answer(fetch(`${app.url}/getQuiz?quizId=${quizId}&apiKey=${apiKey}`)),
        ),
      );
      const gql = await Promise.all(
        Array.from({ length: 300 }, () =>
          answer(
            fetch(`${app.url}/graphql?apiKey=${apiKey}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ query: `{ getQuiz(quizId: "${quizId}") { title } }` }),
            }),
          ),
        ),
      );
      for (const answers of [rest, gql]) {
        expect(answers.filter((a) => a.status === 503).length).toBeGreaterThan(0);
        // Admitted requests (25 at once for a pool of 1) are all served; the rest are turned away.
        expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(25);
      }
      expectUnavailable(rest, 'getQuiz');
      // Refused while authenticating (operation graphql) or in the resolver (getQuiz).
      for (const a of gql.filter((item) => item.status !== 200)) {
        expect(['graphql', 'getQuiz']).toContain(exceptionOf(a.body).operation);
        expectUnavailable([a], String(exceptionOf(a.body).operation));
      }
      const after = await fetch(`${app.url}/getQuiz?quizId=${quizId}&apiKey=${apiKey}`);
      expect(after.status).toBe(200);
    });
  });

  describe('that went away', () => {
    let proxy: TcpProxy;
    let app: TestApp;

    beforeAll(async () => {
      const server = new URL(db.url);
      proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 3306) });
      const url = new URL(db.url);
      url.port = String(proxy.port);
      const dataSource = await openDatabase({ ...db.config, url: url.toString() });
      app = await startTestApp(dataSource);
    });

    afterAll(async () => {
      await app.close();
      await proxy.close();
    });

    it('answers 503 with Retry-After on both transports, and serves again once it is back', async () => {
      const getQuiz = () => answer(fetch(`${app.url}/getQuiz?quizId=${quizId}&apiKey=${apiKey}`));
      expect((await getQuiz()).status).toBe(200);
      await proxy.cut();

      const rest = await getQuiz();
      expect(rest.status).toBe(503);
      expectUnavailable([rest], 'getQuiz');
      const gql = await answer(
        fetch(`${app.url}/graphql?apiKey=${apiKey}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: `{ getQuiz(quizId: "${quizId}") { title } }` }),
        }),
      );
      expect(gql.status).toBe(503);
      expect(gql.body).not.toHaveProperty('data');
      expectUnavailable([gql], 'graphql');

      await proxy.restore();
      const back = Date.now();
      let status = 0;
      while (status !== 200 && Date.now() - back < 5000) {
        status = (await getQuiz()).status;
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status).toBe(200);
    });
  });
});

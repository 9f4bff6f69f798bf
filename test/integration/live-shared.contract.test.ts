import type { Client } from 'graphql-ws';
import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap } from '../../src/data/import/import-document';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend } from '../helpers/database';
import { LIVE_CLASS } from '../helpers/fixtures';
import {
  itemsOf,
  liveClient,
  LiveSubscription,
  postJson,
  SESSION_RESULTS,
  type SessionResultsVariables,
} from '../helpers/live';
import { StatementCounter } from '../helpers/statement-counter';

/**
 * Live results shared by their watchers (contract.md §10): subscribers of one instance watching
 * the same session with the same parameters cost one results query per change of the session,
 * however many they are; each still gets its own message, equal to the others'. Parameters that
 * differ are computed apart.
 */

const WATCHERS = 10;
/** The results query of a subscription: it starts with its attempts (results.sql.ts). */
const isResultsQuery = (sql: string) => sql.startsWith('WITH attempts AS');

describe.each(BACKENDS)('live results shared by their watchers on %s', (backend) => {
  const logger = new StatementCounter();
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let ids: IdMap;
  let apiKey: string;
  let credentials: string;
  let token: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'live_shared', { logger }));
    ids = await loadData(dataSource, LIVE_CLASS);
    const key = await createTestApiKey(dataSource, 'localhost');
    apiKey = key.secret;
    token = await createTestToken(dataSource, Number(ids.users.t), key.id);
    credentials = `apiKey=${encodeURIComponent(apiKey)}&accessToken=${encodeURIComponent(token)}`;
    app = await startTestApp(dataSource);
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.dispose()));
    await app.close();
    await close();
  });

  function watch(variables: SessionResultsVariables): LiveSubscription {
    const client = liveClient(app.url, { connectionParams: { apiKey, accessToken: token } });
    clients.push(client);
    return new LiveSubscription(client, SESSION_RESULTS, { ...variables });
  }

  it('computes once per change for every watcher of the same results', async () => {
    const pupils = [ids.users.p1, ids.users.p2];
    const made = await postJson(app.url, 'addSession', credentials, {
      session: { title: 'Shared', quizIds: [ids.quizzes.q1], attendeeIds: pupils },
    });
    const sessionId = made.body.id as string;
    const same = { sessionId, resultTypes: ['nbAnswers', 'nbGoodAnswers'] };
    const watchers = Array.from({ length: WATCHERS }, () => watch(same));
    const other = watch({ sessionId, resultTypes: ['nbAnswers'] });
    await Promise.all([...watchers, other].map((watcher) => watcher.messages(1)));

    const { statements } = await logger.count(async () => {
      const res = await postJson(app.url, 'addAnswers', credentials, {
        sessionId,
        answers: pupils.map((userId) => ({
          userId,
          quizId: ids.quizzes.q1,
          questionIndex: 0,
          answer: true,
        })),
      });
      expect(res.body.inserted).toBe(2);
      await Promise.all([...watchers, other].map((watcher) => watcher.messages(2)));
    });

    // One query for the ten watchers, one for the other parameters.
    expect(statements.filter(isResultsQuery)).toHaveLength(2);
    const items = watchers.map((watcher) => itemsOf(watcher.received[1]));
    expect(items[0]).toStrictEqual(
      pupils.map((userId) => expect.objectContaining({ userId, nbAnswers: 1, nbGoodAnswers: 1 })),
    );
    for (const received of items) expect(received).toStrictEqual(items[0]);
    expect(itemsOf(other.received[1])).toStrictEqual(
      pupils.map((userId) => expect.objectContaining({ userId, nbAnswers: 1 })),
    );
  });
});

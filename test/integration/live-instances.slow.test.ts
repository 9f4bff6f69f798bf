import type { Client } from 'graphql-ws';
import { loadData } from '../../src/data/import/bulk-loader';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';
import { LIVE_CLASS } from '../helpers/fixtures';
import {
  itemsOf,
  liveClient,
  LiveSubscription,
  postJson,
  SESSION_RESULTS,
  sessionResultsOverHttp,
} from '../helpers/live';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process';

/**
 * Live results across instances (contract.md §10): two service processes that share only the
 * database; a subscriber of one hears the answers written through the other.
 */
describe('live results across two instances', () => {
  let close: () => Promise<void>;
  let writer: ServiceProcess;
  let reader: ServiceProcess;
  let ids: { users: Record<string, string>; quizzes: Record<string, string> };
  let apiKey: string;
  let token: string;
  let client: Client | undefined;

  beforeAll(async () => {
    const opened = await openTestDatabase('live_instances');
    close = opened.close;
    ids = (await loadData(opened.dataSource, LIVE_CLASS)) as typeof ids;
    const key = await createTestApiKey(opened.dataSource, 'localhost');
    apiKey = key.secret;
    token = await createTestToken(opened.dataSource, Number(ids.users.t), key.id);
    const env = { DATABASE_URL: opened.db.url, MIGRATE_ON_START: 'false', SEED_DEMO: 'false' };
    [writer, reader] = await Promise.all([startServiceProcess(env), startServiceProcess(env)]);
  });

  afterAll(async () => {
    await client?.dispose();
    await Promise.all([writer?.stop(), reader?.stop()]);
    await close();
  });

  it('sends a subscriber of one instance the answers written through the other', async () => {
    const credentials = `apiKey=${encodeURIComponent(apiKey)}&accessToken=${encodeURIComponent(token)}`;
    const made = await postJson(writer.url, 'addSession', credentials, {
      session: { title: 'Two instances', quizIds: [ids.quizzes.q1], attendeeIds: [ids.users.p1] },
    });
    const sessionId = made.body.id as string;
    const variables = { sessionId, resultTypes: ['nbGoodAnswers', 'nbAnswers'] };
    client = liveClient(reader.url, { connectionParams: { apiKey, accessToken: token } });
    const subscription = new LiveSubscription(client, SESSION_RESULTS, variables);
    await subscription.messages(1);
    expect(itemsOf(subscription.received[0])).toStrictEqual([]);

    for (const [questionIndex, answer] of [true, false, false].entries()) {
      const written = await postJson(writer.url, 'addAnswers', credentials, {
        sessionId,
        answers: [{ userId: ids.users.p1, quizId: ids.quizzes.q1, questionIndex, answer }],
      });
      expect(written.status).toBe(200);
    }
    // Through the writer: the results the reader's subscriber must end up with.
    const expected = await sessionResultsOverHttp(writer.url, credentials, variables);
    expect(expected).toStrictEqual([
      expect.objectContaining({ userId: ids.users.p1, nbGoodAnswers: 2, nbAnswers: 3 }),
    ]);
    await subscription.until(
      () => JSON.stringify(itemsOf(subscription.received.at(-1))) === JSON.stringify(expected),
      'the answers written through the other instance',
    );
    expect(subscription.received.length).toBeGreaterThanOrEqual(2);
  });
});

import type { Client } from 'graphql-ws';
import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap } from '../../src/data/import/import-document';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openGaleraTestDatabase, openOnGaleraNode, openTestDatabase } from '../helpers/database';
import { LIVE_CLASS } from '../helpers/fixtures';
import {
  itemsOf,
  liveClient,
  LiveSubscription,
  postJson,
  SESSION_RESULTS,
  sessionResultsOverHttp,
} from '../helpers/live';

/**
 * Two instances of the service on two nodes of a Galera cluster (test/helpers/galera.ts) share
 * everything through it, at once: a set made through A is paged, combined and used in
 * getResults through B in the very next request; a key's rate-limit budget is one budget; a
 * subscriber of B hears answers written through A; results equal those of one MariaDB server
 * on the same data.
 */

// Enough for the other cases on their key; the budget case spends a fresh key's whole budget.
const POINTS = 100;
const WINDOW_SECONDS = 60;
const RESULT_TYPES = 'nbGoodAnswers,nbAnswers,goodAnswersPercent,percentile,duration';

type Json = Record<string, unknown>;

describe('two instances on two Galera nodes', () => {
  const closers: (() => Promise<void>)[] = [];
  let clusterSource: DataSource;
  let a: TestApp;
  let b: TestApp;
  let single: TestApp;
  let ids: IdMap;
  let singleIds: IdMap;
  let credentials: string;
  let singleCredentials: string;
  let apiKey: string;
  let token: string;
  let client: Client | undefined;

  async function credentialsOf(dataSource: DataSource, userIds: IdMap) {
    const key = await createTestApiKey(dataSource, 'localhost');
    const accessToken = await createTestToken(dataSource, Number(userIds.users.t), key.id);
    return { key: key.secret, token: accessToken };
  }

  beforeAll(async () => {
    const cluster = await openGaleraTestDatabase('shared_state');
    closers.push(cluster.close);
    clusterSource = cluster.dataSource;
    ids = await loadData(cluster.dataSource, LIVE_CLASS);
    ({ key: apiKey, token } = await credentialsOf(cluster.dataSource, ids));
    credentials = `apiKey=${encodeURIComponent(apiKey)}&accessToken=${encodeURIComponent(token)}`;
    const onB = await openOnGaleraNode(cluster.db, 1);
    closers.unshift(() => (onB.isInitialized ? onB.destroy() : Promise.resolve()));
    const env = {
      RATE_LIMIT_POINTS: String(POINTS),
      RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
      GRAPHQL_MAX_COST: '500000',
    };
    [a, b] = await Promise.all([startTestApp(cluster.dataSource, env), startTestApp(onB, env)]);
    closers.unshift(
      () => a.close(),
      () => b.close(),
    );

    const server = await openTestDatabase('shared_state_single');
    closers.push(server.close);
    singleIds = await loadData(server.dataSource, LIVE_CLASS);
    const own = await credentialsOf(server.dataSource, singleIds);
    singleCredentials = `apiKey=${encodeURIComponent(own.key)}&accessToken=${encodeURIComponent(own.token)}`;
    single = await startTestApp(server.dataSource, { GRAPHQL_MAX_COST: '500000' });
    closers.unshift(() => single.close());
  });

  afterAll(async () => {
    await client?.dispose();
    for (const close of closers) await close().catch(() => undefined);
  });

  async function rest(app: TestApp, path: string, who = credentials): Promise<Json> {
    const res = await app.get(`${path}&${who}`);
    const body = (await res.json()) as Json;
    expect([path, res.status, body.message]).toEqual([path, 200, undefined]);
    return body;
  }

  /** Results with the cluster's ids turned into the fixture's refs, to compare across databases. */
  function byRef(items: Json[], map: IdMap): Json[] {
    const refOf = (kind: 'users' | 'quizzes' | 'sessions', id: unknown) =>
      Object.entries(map[kind] ?? {}).find(([, value]) => String(value) === String(id))?.[0];
    return items.map(({ id: _id, userId, quizId, sessionId, ...rest }) => ({
      ...rest,
      user: refOf('users', userId),
      quiz: refOf('quizzes', quizId),
      session: refOf('sessions', sessionId),
    }));
  }

  it('pages, combines and uses in getResults through B a set made through A at once', async () => {
    const users = await rest(a, `/getUserSet?sessionId=${ids.sessions.S}&numberOfItemsPerPage=2`);
    const quizzes = await rest(a, `/getQuizSet?sessionId=${ids.sessions.S}`);
    expect(users.totalNumberOfItems).toBeGreaterThan(2);

    // Through B, in the very next requests.
    const page2 = await rest(b, `/getDataSetPage?dataSetId=${String(users.dataSetId)}&pageIndex=2`);
    expect(page2).toMatchObject({
      dataSetId: users.dataSetId,
      totalNumberOfItems: users.totalNumberOfItems,
    });
    expect((page2.items as unknown[]).length).toBeGreaterThan(0);
    const union = await rest(
      b,
      `/computeDataSet?dataSetId1=${String(users.dataSetId)}&dataSetId2=${String(users.dataSetId)}&operator=union`,
    );
    expect(union.totalNumberOfItems).toBe(users.totalNumberOfItems);
    const query = (userSet: unknown, quizSet: unknown, session: unknown) =>
      `/getResults?userSetId=${String(userSet)}&quizSetId=${String(quizSet)}&sessionId=${String(session)}&resultTypes=${RESULT_TYPES}&numberOfItemsPerPage=1000`;
    const throughB = await rest(b, query(union.dataSetId, quizzes.dataSetId, ids.sessions.S));
    const throughA = await rest(a, query(union.dataSetId, quizzes.dataSetId, ids.sessions.S));
    expect(throughB.items).toEqual(throughA.items);
    expect((throughB.items as Json[]).length).toBeGreaterThan(0);

    // The same data and requests on one MariaDB server give the same results.
    const sUsers = await rest(
      single,
      `/getUserSet?sessionId=${singleIds.sessions.S}`,
      singleCredentials,
    );
    const sQuizzes = await rest(
      single,
      `/getQuizSet?sessionId=${singleIds.sessions.S}`,
      singleCredentials,
    );
    const reference = await rest(
      single,
      query(sUsers.dataSetId, sQuizzes.dataSetId, singleIds.sessions.S),
      singleCredentials,
    );
    expect(byRef(throughB.items as Json[], ids)).toEqual(
      byRef(reference.items as Json[], singleIds),
    );
  });

  it("shares a key's rate-limit budget between the instances", async () => {
    const key = await createTestApiKey(clusterSource, 'localhost');
    const spentOn = new Map<TestApp, number>();
    for (let spent = 1; spent <= POINTS; spent += 1) {
      const instance = spent % 2 === 0 ? a : b;
      spentOn.set(instance, (spentOn.get(instance) ?? 0) + 1);
      const res = await fetch(
        `${instance.url}/getQuiz?quizId=${ids.quizzes.q1}&apiKey=${key.secret}`,
      );
      expect([spent, res.status]).toEqual([spent, 200]);
      // Each instance counts its own spending and what the other had leased at its last slice.
      const remaining = Number(res.headers.get('ratelimit-remaining'));
      expect(remaining).toBeLessThanOrEqual(POINTS - (spentOn.get(instance) ?? 0));
    }
    // One budget, leased in slices through both nodes: every point once, none twice.
    const [row] = (await clusterSource.query('SELECT points FROM rate_limits WHERE `key` = ?', [
      `key:${key.id}`,
    ])) as { points: unknown }[];
    expect(Number(row?.points)).toBe(POINTS);
    for (const instance of [a, b]) {
      const refused = await fetch(
        `${instance.url}/getQuiz?quizId=${ids.quizzes.q1}&apiKey=${key.secret}`,
      );
      expect(refused.status).toBe(429);
    }
  });

  it('sends a subscriber of B the answers written through A', async () => {
    const variables = { sessionId: ids.sessions.S2, resultTypes: ['nbGoodAnswers', 'nbAnswers'] };
    client = liveClient(b.url, { connectionParams: { apiKey, accessToken: token } });
    const subscription = new LiveSubscription(client, SESSION_RESULTS, variables);
    await subscription.messages(1);
    const before = JSON.stringify(itemsOf(subscription.received[0]));
    const written = await postJson(a.url, 'addAnswers', credentials, {
      sessionId: ids.sessions.S2,
      answers: [{ userId: ids.users.p2, quizId: ids.quizzes.q1, questionIndex: 0, answer: true }],
    });
    expect(written.status).toBe(200);
    const expected = await sessionResultsOverHttp(a.url, credentials, variables);
    expect(JSON.stringify(expected)).not.toBe(before);
    await subscription.until(
      () => JSON.stringify(itemsOf(subscription.received.at(-1))) === JSON.stringify(expected),
      'the answers written through the other instance',
    );
  });
});

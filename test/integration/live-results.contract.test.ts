import type { Client } from 'graphql-ws';
import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import { sessionResultsNow } from '../../src/services/live/live-results.service';
import { getSessionResults } from '../../src/services/results/session-results.service';
import { getPage } from '../../src/services/sets/data-set.service';
import { computedResultItems } from '../../src/services/results/computed-result.views';
import { parseResultsOptions } from '../../src/services/results/result-parameters';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { graphql } from '../helpers/graphql';
import { BACKENDS, openBackend } from '../helpers/database';
import { LIVE_CLASS } from '../helpers/fixtures';
import {
  itemsOf,
  liveClient,
  LiveSubscription,
  postJson,
  RESULT_FIELDS,
  SESSION_RESULTS,
  sessionResultsOverHttp,
  type SessionResultsVariables,
} from '../helpers/live';
import { serviceContext } from '../helpers/service-context';

/**
 * The sessionResults subscription (contract.md §10) against a running service on each database:
 * its first message is what getSessionResults gives, a new one follows stored answers, writes
 * are coalesced within the contract's bound and the last message is complete; only the owner
 * may subscribe. The results are computed without writing a set.
 */

const EVERY_TYPE = ['nbGoodAnswers', 'goodAnswersPercent', 'percentile', 'nbAnswers', 'duration'];

/** The shapes of results compared, as getSessionResults' arguments. */
const SHAPES: Omit<SessionResultsVariables, 'sessionId'>[] = [
  {},
  { resultTypes: EVERY_TYPE, includeQuizzes: 'all' },
  {
    resultTypes: EVERY_TYPE,
    aggregationFunctions: ['min', 'max', 'average', 'median', 'stddev', 'count'],
    groupBy: 'user',
  },
  {
    resultTypes: ['percentile', 'goodAnswersPercent'],
    aggregationFunctions: ['average', 'count'],
    groupBy: 'quiz',
    includeQuizzes: 'all',
  },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(BACKENDS)('live session results on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let ids: { users: Record<string, string>; quizzes: Record<string, string> } & {
    sessions: Record<string, string>;
  };
  let apiKey: string;
  const tokens: Record<'teacher' | 'pupil' | 'other', string> = {
    teacher: '',
    pupil: '',
    other: '',
  };
  const clients: Client[] = [];

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'live_results'));
    ids = (await loadData(dataSource, LIVE_CLASS)) as typeof ids;
    const key = await createTestApiKey(dataSource, 'localhost');
    apiKey = key.secret;
    tokens.teacher = await createTestToken(dataSource, Number(ids.users.t), key.id);
    tokens.pupil = await createTestToken(dataSource, Number(ids.users.p1), key.id);
    tokens.other = await createTestToken(dataSource, Number(ids.users.o), key.id);
    app = await startTestApp(dataSource);
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.dispose()));
  });

  afterAll(async () => {
    await app.close();
    await close();
  });

  const credentials = (who: keyof typeof tokens) =>
    `apiKey=${encodeURIComponent(apiKey)}&accessToken=${encodeURIComponent(tokens[who])}`;

  function subscribe(variables: SessionResultsVariables, who: keyof typeof tokens = 'teacher') {
    const client = liveClient(app.url, {
      connectionParams: { apiKey, accessToken: tokens[who] },
    });
    clients.push(client);
    return new LiveSubscription(client, SESSION_RESULTS, { ...variables });
  }

  const pupils = () => Array.from({ length: 30 }, (_unused, index) => ids.users[`p${index + 1}`]);

  async function addAnswers(sessionId: string, answers: Record<string, unknown>[]) {
    const res = await postJson(app.url, 'addAnswers', credentials('teacher'), {
      sessionId,
      answers,
    });
    expect([res.status, res.body.received]).toEqual([200, answers.length]);
  }

  it.each(SHAPES)(
    'computes in one SELECT, writing no set, the items of getSessionResults for %j',
    async (shape) => {
      const requester = { kind: 'user', apiKeyId: 1, userId: Number(ids.users.t) } as const;
      const ctx = serviceContext(dataSource, 'getSessionResults', requester);
      const sessionId = ids.sessions.S;
      const stored = await getSessionResults(ctx, {
        sessionId,
        ...shape,
        numberOfItemsPerPage: '3',
      });
      const rows = [...stored.results.resultRows];
      for (let index = 2; index <= stored.results.numberOfPages; index += 1) {
        rows.push(...(await getPage(ctx, stored.results.dataSetId, index)).resultRows);
      }
      const [{ n: before }] = (await dataSource.query('SELECT COUNT(*) AS n FROM data_sets')) as {
        n: unknown;
      }[];
      const options = parseResultsOptions(ctx.operation, { ...shape, sessionId });
      const live = await sessionResultsNow(ctx, Number(sessionId), options);
      const [{ n: after }] = (await dataSource.query('SELECT COUNT(*) AS n FROM data_sets')) as {
        n: unknown;
      }[];
      expect(Number(after)).toBe(Number(before));
      expect(live.length).toBeGreaterThan(0);
      expect(live).toStrictEqual(
        computedResultItems({ resultRows: rows, parameters: stored.results.parameters }),
      );
    },
  );

  it.each(SHAPES)(
    'sends first the items getSessionResults gives for %j, every item on one message',
    async (shape) => {
      const variables = { sessionId: ids.sessions.S, ...shape };
      const subscription = subscribe(variables);
      await subscription.messages(1);
      const expected = await sessionResultsOverHttp(app.url, credentials('teacher'), variables);
      expect(subscription.received[0].result.errors).toBeUndefined();
      expect(itemsOf(subscription.received[0])).toStrictEqual(expected);
      // Thirty attendees on two quizzes: more than a page of the default size (50).
      if (shape.includeQuizzes === 'all' && !shape.aggregationFunctions) {
        expect(expected).toHaveLength(60);
      }
    },
  );

  it('sends the results again once answers of the session are stored', async () => {
    const made = await postJson(app.url, 'addSession', credentials('teacher'), {
      session: { title: 'Update', quizIds: [ids.quizzes.q1], attendeeIds: pupils().slice(0, 3) },
    });
    const sessionId = made.body.id as string;
    const variables = { sessionId, resultTypes: ['nbGoodAnswers', 'nbAnswers'] };
    const subscription = subscribe(variables);
    await subscription.messages(1);
    // Attendees without answers: nothing answered yet, no attempt.
    expect(itemsOf(subscription.received[0])).toStrictEqual([]);

    await addAnswers(sessionId, [
      { userId: ids.users.p2, quizId: ids.quizzes.q1, questionIndex: 0, answer: true },
      { userId: ids.users.p2, quizId: ids.quizzes.q1, questionIndex: 1, answer: true },
    ]);
    await subscription.messages(2);
    const expected = await sessionResultsOverHttp(app.url, credentials('teacher'), variables);
    expect(itemsOf(subscription.received[1])).toStrictEqual(expected);
    expect(expected).toStrictEqual([
      expect.objectContaining({ userId: ids.users.p2, nbGoodAnswers: 1, nbAnswers: 2 }),
    ]);
  });

  it("reads each item's user, quiz and session afresh on every message, as getSessionResults does", async () => {
    const made = await postJson(app.url, 'addSession', credentials('teacher'), {
      session: { title: 'Linked', quizIds: [ids.quizzes.q1], attendeeIds: pupils().slice(0, 2) },
    });
    const sessionId = made.body.id as string;
    const linked = `${RESULT_FIELDS} user { id firstName lastName } quiz { id title } session { id title }`;
    const client = liveClient(app.url, {
      connectionParams: { apiKey, accessToken: tokens.teacher },
    });
    clients.push(client);
    const subscription = new LiveSubscription(
      client,
      `subscription ($sessionId: ID!) { sessionResults(sessionId: $sessionId) { ${linked} } }`,
      { sessionId },
    );
    await subscription.messages(1);
    const overHttp = async () => {
      const { body } = await graphql(
        app.url,
        `query ($sessionId: ID!) { getSessionResults(sessionId: $sessionId, numberOfItemsPerPage: 1000) {
           results { items { ... on ComputedResult { ${linked} } } } } }`,
        { variables: { sessionId }, search: `?${credentials('teacher')}` },
      );
      return (body.data?.getSessionResults as { results: { items: unknown[] } }).results.items;
    };
    const answer = (userId: string) => ({
      userId,
      quizId: ids.quizzes.q1,
      questionIndex: 0,
      answer: true,
    });

    await addAnswers(sessionId, [answer(ids.users.p1)]);
    await subscription.messages(2);
    const first = await overHttp();
    expect(subscription.received[1].result.errors).toBeUndefined();
    expect(itemsOf(subscription.received[1])).toStrictEqual(first);
    expect(first).toStrictEqual([
      expect.objectContaining({
        user: expect.objectContaining({ id: ids.users.p1 }),
        quiz: expect.objectContaining({ id: ids.quizzes.q1 }),
        session: { id: sessionId, title: 'Linked' },
      }),
    ]);

    // A renamed quiz shows on the next message: its loaders are the message's own.
    await dataSource.query('UPDATE quizzes SET title = ? WHERE id = ?', [
      'Renamed',
      Number(ids.quizzes.q1),
    ]);
    await addAnswers(sessionId, [answer(ids.users.p2)]);
    await subscription.messages(3);
    const second = await overHttp();
    expect(itemsOf(subscription.received[2])).toStrictEqual(second);
    expect(second).toHaveLength(2);
    expect(second).toStrictEqual(
      expect.arrayContaining([
        expect.objectContaining({ quiz: { id: ids.quizzes.q1, title: 'Renamed' } }),
      ]),
    );
    await dataSource.query('UPDATE quizzes SET title = ? WHERE id = ?', [
      'True or false',
      Number(ids.quizzes.q1),
    ]);
  });

  it('coalesces 100 answers written over one second into at most 5 messages, the last complete', async () => {
    const made = await postJson(app.url, 'addSession', credentials('teacher'), {
      session: { title: 'Coalescing', quizIds: [ids.quizzes.q1], attendeeIds: pupils() },
    });
    const sessionId = made.body.id as string;
    const variables = { sessionId, resultTypes: ['nbGoodAnswers', 'nbAnswers', 'percentile'] };
    const subscription = subscribe(variables);
    await subscription.messages(1);

    // Ten batches of ten answers, one every 100 ms: two pupils answer the five questions.
    const start = Date.now();
    for (let batch = 0; batch < 10; batch += 1) {
      await sleep(start + batch * 100 - Date.now());
      await addAnswers(
        sessionId,
        pupils()
          .slice(batch * 2, batch * 2 + 2)
          .flatMap((userId, pupil) =>
            [0, 1, 2, 3, 4].map((questionIndex) => ({
              userId,
              quizId: ids.quizzes.q1,
              questionIndex,
              answer: (questionIndex + pupil + batch) % 3 === 0,
            })),
          ),
      );
    }
    const final = await sessionResultsOverHttp(app.url, credentials('teacher'), variables);
    expect(final).toHaveLength(20);
    const isFinal = () => {
      const last = subscription.received.at(-1);
      return JSON.stringify(itemsOf(last)) === JSON.stringify(final);
    };
    await subscription.until(isFinal, 'the final results');
    // Whatever was still on its way shows now.
    await sleep(600);

    const updates = subscription.received.slice(1);
    expect(updates.length).toBeGreaterThanOrEqual(1);
    expect(updates.length).toBeLessThanOrEqual(5);
    expect(itemsOf(subscription.received.at(-1))).toStrictEqual(final);
    // The 250 ms between two messages is the stream's (test/unit/live-changes.test.ts): times
    // of arrival here would also hold the delays of a busy machine.
    expect(subscription.completed).toBe(false);
  });

  it('is refused to an attendee and to another teacher (403), and for an unknown session (404)', async () => {
    const sessionId = ids.sessions.S;
    const refusals = [
      subscribe({ sessionId }, 'pupil'),
      subscribe({ sessionId }, 'other'),
      subscribe({ sessionId: '999999' }),
    ];
    await Promise.all(refusals.map((subscription) => subscription.ended));
    for (const subscription of refusals) {
      expect(subscription.completed).toBe(true);
      expect(subscription.received).toHaveLength(1);
      expect(subscription.received[0].result.data ?? null).toBeNull();
    }
    const [pupil, other, unknown] = refusals.map(
      (subscription) => subscription.received[0].result.errors,
    );
    const forbidden = {
      code: 'FORBIDDEN',
      type: 'UnauthorizedOperationException',
      operation: 'sessionResults',
      reason: `only the owner of session ${sessionId} may follow its results`,
    };
    expect(pupil?.map((error) => error.extensions)).toStrictEqual([forbidden]);
    expect(other?.map((error) => error.extensions)).toStrictEqual([forbidden]);
    expect(unknown).toStrictEqual([
      expect.objectContaining({
        message: 'Bad parameter: sessionId (session 999999 does not exist)',
        extensions: {
          code: 'NOT_FOUND',
          type: 'BadParameterException',
          operation: 'sessionResults',
          reason: 'session 999999 does not exist',
          parameterName: 'sessionId',
          providedValue: '999999',
        },
      }),
    ]);
  });
});

import type { DataSource } from 'typeorm';
import WebSocket from 'ws';
import {
  QuizApiClient,
  ServiceApiException,
  TransportException,
  UnauthorizedOperationException,
  BadParameterException,
  type ComputedResult,
  type SessionResultsHandlers,
  type SessionResultsWatch,
  type UserAggregateResult,
  type WatchSessionResultsParams,
  type WebSocketConstructor,
} from '@quiz-results/client';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap } from '../../src/data/import/import-document';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { graphql } from '../helpers/graphql';
import { openTestDatabase } from '../helpers/database';
import { LIVE_CLASS } from '../helpers/fixtures';
import { startTcpProxy } from '../helpers/tcp-proxy';

/**
 * watchSessionResults of the JavaScript client in Node (with `ws`) against the running app: the
 * items of each message read as getResults gives them, a new message follows addAnswers, the
 * service's refusals arrive as the exceptions REST gives, abrupt closes are retried and refused
 * credentials are not, and close() stops everything.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A WebSocket of `ws` that counts the connections made with it. */
function countingWebSocket(): { impl: WebSocketConstructor; opened: () => number } {
  let count = 0;
  class Counting extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols);
      count += 1;
    }
  }
  return { impl: Counting, opened: () => count };
}

/** What a watch's handlers received, in order. */
class Recorder<T extends ComputedResult = ComputedResult> {
  readonly messages: T[][] = [];
  readonly errors: unknown[] = [];
  ends = 0;
  private waiters: (() => void)[] = [];

  readonly handlers: SessionResultsHandlers<T> = {
    onResults: (items) => this.push(() => this.messages.push(items)),
    onError: (error) => this.push(() => this.errors.push(error)),
    onEnd: () => this.push(() => (this.ends += 1)),
  };

  private push(record: () => void): void {
    record();
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((wake) => wake());
  }

  async until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(
          `timed out waiting for ${what}: ${JSON.stringify({ messages: this.messages, errors: this.errors, ends: this.ends })}`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}

describe('watchSessionResults in Node against the running app', () => {
  let dataSource: DataSource;
  let closeDb: () => Promise<void>;
  let app: TestApp;
  let ids: IdMap;
  let apiKey: string;
  let apiKeyId: number;
  let teacher: QuizApiClient;
  let other: QuizApiClient;
  const watches: SessionResultsWatch[] = [];

  const client = (accessToken: string | undefined, options: { key?: string; url?: string } = {}) =>
    new QuizApiClient({
      baseUrl: options.url ?? app.url,
      apiKey: options.key ?? apiKey,
      accessToken,
      webSocketImpl: WebSocket,
    });

  function watch<P extends WatchSessionResultsParams>(api: QuizApiClient, params: P): Recorder {
    const recorder = new Recorder();
    watches.push(api.watchSessionResults(params, recorder.handlers));
    return recorder;
  }

  /** The items getResults gives over REST for the session, every page. */
  async function overRest(api: QuizApiClient, params: WatchSessionResultsParams) {
    const { sessionId } = params;
    const [users, quizzes] = await Promise.all([
      api.getUserSet({ sessionId }),
      api.getQuizSet({ sessionId }),
    ]);
    const set = await api.getResults({
      ...params,
      userSetId: users,
      quizSetId: quizzes,
      numberOfItemsPerPage: 1000,
    } as Parameters<QuizApiClient['getResults']>[0]);
    return set.toArray();
  }

  async function newSession(title: string, attendees: string[]): Promise<string> {
    const session = await teacher.addSession({
      session: { title, quizIds: [ids.quizzes.q1], attendeeIds: attendees },
    });
    return session.id;
  }

  const answer = (userId: string, questionIndex: number, value: boolean) => ({
    userId,
    quizId: ids.quizzes.q1,
    questionIndex,
    answer: value,
  });

  beforeAll(async () => {
    ({ dataSource, close: closeDb } = await openTestDatabase('client_live'));
    ids = await loadData(dataSource, LIVE_CLASS);
    ({ secret: apiKey, id: apiKeyId } = await createTestApiKey(dataSource, 'localhost'));
    app = await startTestApp(dataSource);
    teacher = client(await createTestToken(dataSource, Number(ids.users.t), apiKeyId));
    other = client(await createTestToken(dataSource, Number(ids.users.o), apiKeyId));
  });

  afterEach(() => {
    watches.splice(0).forEach((running) => running.close());
  });

  afterAll(async () => {
    await app?.close();
    await closeDb();
  });

  it('first sends the items getResults gives, then new numbers after addAnswers; close() stops it', async () => {
    const sessionId = await newSession('Live in Node', [ids.users.p1, ids.users.p2]);
    const params = {
      sessionId,
      resultTypes: ['nbGoodAnswers', 'nbAnswers', 'goodAnswersPercent'],
      aggregationFunctions: ['average'],
      groupBy: 'user',
    } as const;
    const live = watch(teacher, params);
    await live.until(() => live.messages.length >= 1, 'the first message');
    const first = live.messages[0] as UserAggregateResult[];
    // Grouped by user, every attendee is there, without values yet: as getResults gives them.
    expect(first).toStrictEqual(await overRest(teacher, params));
    expect(first.map((item) => [item.userId, item.nbAnswers])).toStrictEqual([
      [ids.users.p1, null],
      [ids.users.p2, null],
    ]);

    await teacher.addAnswers({
      sessionId,
      answers: [answer(ids.users.p1, 0, true), answer(ids.users.p1, 1, true)],
    });
    await live.until(() => live.messages.length >= 2, 'the message after addAnswers');
    const second = live.messages.at(-1) as UserAggregateResult[];
    expect(second).toStrictEqual(await overRest(teacher, params));
    // q1 is five true-or-false statements, the second false: one good answer of two, 20 %.
    expect(second[0]).toStrictEqual({
      id: second[0].id,
      userId: ids.users.p1,
      aggregationFunction: 'average',
      nbGoodAnswers: 1,
      nbAnswers: 2,
      goodAnswersPercent: 20,
    });
    expect(live.errors).toEqual([]);

    watches.splice(0).forEach((running) => running.close());
    const seen = live.messages.length;
    await teacher.addAnswers({ sessionId, answers: [answer(ids.users.p2, 0, true)] });
    await sleep(800);
    expect(live.messages).toHaveLength(seen);
    expect([live.errors, live.ends]).toEqual([[], 0]);
  });

  it('detailed results read as getResults gives them (one item per attempt, typed fields only)', async () => {
    const params = {
      sessionId: ids.sessions.S,
      resultTypes: ['nbGoodAnswers', 'duration'],
    } as const;
    const live = watch(teacher, params);
    await live.until(() => live.messages.length >= 1, 'the first message');
    const expected = await overRest(teacher, params);
    expect(expected.length).toBeGreaterThan(0);
    expect(live.messages[0]).toStrictEqual(expected);
    expect(Object.keys(live.messages[0][0])).toEqual([
      'id',
      'userId',
      'quizId',
      'sessionId',
      'nbGoodAnswers',
      'duration',
    ]);
  });

  it("another teacher's watch: UnauthorizedOperationException 403 as REST gives it, then the end", async () => {
    const live = watch(other, { sessionId: ids.sessions.S });
    await live.until(() => live.ends === 1, 'the end');
    expect(live.messages).toEqual([]);
    expect(live.errors).toHaveLength(1);
    const [error] = live.errors;
    expect(error).toBeInstanceOf(UnauthorizedOperationException);
    const reason = `only the owner of session ${ids.sessions.S} may follow its results`;
    expect(error).toMatchObject({
      name: 'UnauthorizedOperationException',
      status: 403,
      type: 'UnauthorizedOperationException',
      operation: 'sessionResults',
      reason,
      message: `Unauthorized operation: sessionResults (${reason})`,
    });
    expect((error as ServiceApiException).exception).toStrictEqual({
      type: 'UnauthorizedOperationException',
      message: `Unauthorized operation: sessionResults (${reason})`,
      operation: 'sessionResults',
      reason,
    });
  });

  it('an unknown session: BadParameterException 404 naming sessionId', async () => {
    const live = watch(teacher, { sessionId: 999999 });
    await live.until(() => live.ends === 1, 'the end');
    expect(live.errors).toHaveLength(1);
    expect(live.errors[0]).toBeInstanceOf(BadParameterException);
    expect(live.errors[0]).toMatchObject({
      status: 404,
      parameterName: 'sessionId',
      providedValue: '999999',
    });
  });

  it('a value the schema refuses (a result type it does not know): BadParameterException 400', async () => {
    const live = watch(teacher, {
      sessionId: ids.sessions.S,
      resultTypes: ['nbGoodAnswers', 'bogus'] as unknown as ['nbGoodAnswers'],
    });
    await live.until(() => live.ends === 1, 'the end');
    expect(live.messages).toEqual([]);
    expect(live.errors).toHaveLength(1);
    expect(live.errors[0]).toBeInstanceOf(BadParameterException);
    // As GraphQL over HTTP refuses the same variable: graphql-js's sentence, the variable named.
    const overHttp = await graphql(
      app.url,
      'query ($sessionId: ID!, $resultTypes: [ResultType!]) { getSessionResults(sessionId: $sessionId, resultTypes: $resultTypes) { __typename } }',
      {
        variables: { sessionId: ids.sessions.S, resultTypes: ['nbGoodAnswers', 'bogus'] },
        search: `?apiKey=${encodeURIComponent(apiKey)}`,
      },
    );
    const [refusal] = overHttp.body.errors ?? [];
    const { code, ...exception } = refusal.extensions ?? {};
    expect(code).toBe('BAD_USER_INPUT');
    expect((live.errors[0] as ServiceApiException).exception).toStrictEqual({
      ...exception,
      message: refusal.message,
    });
    expect(live.errors[0]).toMatchObject({ status: 400, parameterName: 'variables.resultTypes' });
    expect(refusal.message).toContain('"bogus"');
  });

  it('an unknown API key: refused (4401) as UnauthorizedOperationException 401, never retried', async () => {
    const restRefusal = await client(undefined, { key: 'qk_unknown' })
      .getQuiz({ quizId: ids.quizzes.q1 })
      .catch((error: unknown) => error);
    expect(restRefusal).toBeInstanceOf(UnauthorizedOperationException);

    const counting = countingWebSocket();
    const refused = new QuizApiClient({
      baseUrl: app.url,
      apiKey: 'qk_unknown',
      accessToken: 'qt_whatever',
      webSocketImpl: counting.impl,
    });
    const live = watch(refused, { sessionId: ids.sessions.S });
    await live.until(() => live.ends === 1, 'the end');
    expect(live.errors).toHaveLength(1);
    const [error] = live.errors;
    expect(error).toBeInstanceOf(UnauthorizedOperationException);
    // The same status and reason as REST; the operation is the WebSocket's, `graphql`.
    expect(error).toMatchObject({
      status: 401,
      type: 'UnauthorizedOperationException',
      operation: 'graphql',
      reason: (restRefusal as UnauthorizedOperationException).reason,
    });
    // graphql-ws would retry after a second or more; a refusal is final.
    await sleep(2_500);
    expect(counting.opened()).toBe(1);
    expect(live.ends).toBe(1);
  });

  it('an access token that expires: UnauthorizedOperationException 401, then the end', async () => {
    const shortToken = await createTestToken(dataSource, Number(ids.users.t), apiKeyId, {
      TOKEN_TTL_SECONDS: '2',
    });
    const live = watch(client(shortToken), { sessionId: ids.sessions.S });
    await live.until(() => live.messages.length >= 1, 'the first message');
    await live.until(() => live.ends === 1, 'the end at expiry', 10_000);
    expect(live.errors).toHaveLength(1);
    expect(live.errors[0]).toBeInstanceOf(UnauthorizedOperationException);
    expect(live.errors[0]).toMatchObject({ status: 401, operation: 'sessionResults' });
  });

  it('reconnects after an abrupt close, with the token current then, and goes on', async () => {
    const port = Number(new URL(app.url).port);
    const proxy = await startTcpProxy({ host: '127.0.0.1', port });
    try {
      const sessionId = await newSession('Reconnected', [ids.users.p3]);
      const tokens = [
        await createTestToken(dataSource, Number(ids.users.t), apiKeyId),
        await createTestToken(dataSource, Number(ids.users.t), apiKeyId),
      ];
      let current = 0;
      const sent: string[] = [];
      const counting = countingWebSocket();
      const api = new QuizApiClient({
        baseUrl: `http://127.0.0.1:${proxy.port}`,
        apiKey,
        accessToken: () => {
          sent.push(tokens[current]);
          return tokens[current];
        },
        webSocketImpl: counting.impl,
      });
      const live = watch(api, { sessionId, resultTypes: ['nbAnswers'] });
      await live.until(() => live.messages.length >= 1, 'the first message');

      current = 1;
      await proxy.cut();
      await proxy.restore();
      await live.until(() => live.messages.length >= 2, 'the first message again', 20_000);
      expect(counting.opened()).toBe(2);
      expect(sent).toEqual(tokens);
      await teacher.addAnswers({ sessionId, answers: [answer(ids.users.p3, 0, true)] });
      await live.until(
        () => JSON.stringify(live.messages.at(-1)).includes('"nbAnswers":1'),
        'the answer',
      );
      expect(live.errors).toEqual([]);
      expect(live.ends).toBe(0);
    } finally {
      await proxy.close();
    }
  });

  it('a service that cannot be reached: TransportException, at once', async () => {
    const api = new QuizApiClient({
      baseUrl: 'http://127.0.0.1:9',
      apiKey,
      accessToken: 'qt_none',
      webSocketImpl: WebSocket,
    });
    const live = watch(api, { sessionId: ids.sessions.S });
    await live.until(() => live.ends === 1, 'the end');
    expect(live.errors).toHaveLength(1);
    expect(live.errors[0]).toBeInstanceOf(TransportException);
    expect(live.errors[0]).toMatchObject({ operation: 'sessionResults' });
  });
});

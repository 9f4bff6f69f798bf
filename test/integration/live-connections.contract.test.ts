import { revokeApiKey } from '../../src/services/api-keys/api-key.service';
import { operatorServiceContext } from '../helpers/service-context';
import type { Client } from 'graphql-ws';
import type { DataSource } from 'typeorm';
import WebSocket from 'ws';
import { loadData } from '../../src/data/import/bulk-loader';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openTestDatabase, type TestDatabase } from '../helpers/database';
import { openDatabase } from '../../src/db/data-source';
import { LIVE_CLASS } from '../helpers/fixtures';
import {
  closeOf,
  itemsOf,
  liveClient,
  LiveSubscription,
  postJson,
  RESULT_FIELDS,
  SESSION_RESULTS,
  type LiveClientOptions,
} from '../helpers/live';

/**
 * The WebSocket side of live results (contract.md §3, §10, §11): credentials are checked at
 * connection_init like any request's (refused: close 4401, or 4400 without a key, codes graphql-ws
 * does not retry), a subscription ends when its token expires, the documents and connections are
 * bounded, and shutdown closes every connection.
 */

type Json = Record<string, unknown>;

describe('live results connections', () => {
  let dataSource: DataSource;
  let database: TestDatabase;
  let close: () => Promise<void>;
  let app: TestApp;
  let ids: {
    users: Record<string, string>;
    quizzes: Record<string, string>;
    sessions: Record<string, string>;
  };
  let key: { id: number; secret: string };
  let teacherToken: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    ({ dataSource, db: database, close } = await openTestDatabase('live_connections'));
    ids = (await loadData(dataSource, LIVE_CLASS)) as typeof ids;
    key = await createTestApiKey(dataSource, 'localhost');
    teacherToken = await createTestToken(dataSource, Number(ids.users.t), key.id);
    app = await startTestApp(dataSource);
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.dispose()));
  });

  afterAll(async () => {
    await app?.close();
    await close();
  });

  function client(options: LiveClientOptions, url = app.url): Client {
    const made = liveClient(url, options);
    clients.push(made);
    return made;
  }

  /** Another instance on the same database, with a pool of its own (its close() ends it). */
  async function otherInstance(env: Record<string, string> = {}): Promise<TestApp> {
    return startTestApp(await openDatabase(database.config), env);
  }

  const teacher = () => ({ apiKey: key.secret, accessToken: teacherToken });
  const variables = () => ({ sessionId: ids.sessions.S });

  /** Subscribes with `connectionParams` and waits for the end: a refusal closes the socket. */
  async function refusedWith(options: LiveClientOptions, url = app.url): Promise<unknown> {
    const subscription = new LiveSubscription(client(options, url), SESSION_RESULTS, variables());
    await subscription.ended;
    expect(subscription.received).toStrictEqual([]);
    return closeOf(subscription.failure);
  }

  /** The connection is accepted: the subscription has results, or the error `code` says why not. */
  async function accepted(options: LiveClientOptions, url = app.url, code?: string): Promise<void> {
    const subscription = new LiveSubscription(client(options, url), SESSION_RESULTS, variables());
    if (code) {
      // Refused by the operation, not the connection: a message with the error, then complete.
      await subscription.ended;
      expect(subscription.completed).toBe(true);
      expect(subscription.received[0].result.errors?.[0]?.extensions?.code).toBe(code);
    } else {
      await subscription.messages(1);
      expect(subscription.received[0].result.errors).toBeUndefined();
      expect(Array.isArray(itemsOf(subscription.received[0]))).toBe(true);
    }
  }

  const forbidden = (reason: string) => ({
    code: 4401,
    reason: `Unauthorized operation: graphql (${reason})`,
  });

  it('refuses at connection_init (4401) an unknown key, a bad token, an expired one, one of another key', async () => {
    const otherKey = await createTestApiKey(dataSource, 'localhost');
    const otherKeysToken = await createTestToken(dataSource, Number(ids.users.t), otherKey.id);
    const expiredKey = await createTestApiKey(dataSource, 'localhost');
    const expired = await createTestToken(dataSource, Number(ids.users.t), expiredKey.id);
    await dataSource.query('UPDATE access_tokens SET expires_at = ? WHERE api_key_id = ?', [
      new Date(Date.now() - 60_000),
      expiredKey.id,
    ]);

    expect(await refusedWith({ connectionParams: { apiKey: 'qk_unknown' } })).toStrictEqual(
      forbidden('the API key is unknown or revoked'),
    );
    expect(await refusedWith({ connectionParams: {} })).toStrictEqual({
      code: 4400,
      reason: 'Missing parameter: apiKey',
    });
    expect(
      await refusedWith({ connectionParams: { apiKey: key.secret, accessToken: 'qt_forged' } }),
    ).toStrictEqual(forbidden('the access token is invalid'));
    expect(
      await refusedWith({ connectionParams: { apiKey: expiredKey.secret, accessToken: expired } }),
    ).toStrictEqual(forbidden('the access token has expired'));
    expect(
      await refusedWith({ connectionParams: { apiKey: key.secret, accessToken: otherKeysToken } }),
    ).toStrictEqual(forbidden('the access token was issued for another API key'));
  });

  it("binds the key to the upgrade's Origin, or to the client IP without one", async () => {
    const schoolKey = await createTestApiKey(dataSource, 'school.example');
    const token = await createTestToken(dataSource, Number(ids.users.t), schoolKey.id);
    const params = { apiKey: schoolKey.secret, accessToken: token };
    await accepted({ connectionParams: params, origin: 'https://app.school.example' });
    const offHost = forbidden('the API key is not valid for the host of this request');
    expect(
      await refusedWith({ connectionParams: params, origin: 'https://evil.example' }),
    ).toStrictEqual(offHost);
    // No Origin: the client IP (loopback) is not the key's host.
    expect(await refusedWith({ connectionParams: params })).toStrictEqual(offHost);
    // A key bound to localhost: the loopback address without Origin, not another site's page.
    await accepted({ connectionParams: teacher() });
    expect(
      await refusedWith({ connectionParams: teacher(), origin: 'https://evil.example' }),
    ).toStrictEqual(offHost);
  });

  it('takes the client IP behind a trusted proxy, as for any request', async () => {
    const proxied = await otherInstance({ TRUST_PROXY: 'loopback' });
    try {
      const ipKey = await createTestApiKey(dataSource, '10.1.2.3');
      const params = { apiKey: ipKey.secret };
      const forwardedFor = (address: string) => ({ 'x-forwarded-for': address });
      // Anonymous: the subscription wants a token; the connection, with the key, is accepted.
      await accepted(
        { connectionParams: params, headers: forwardedFor('10.1.2.3') },
        proxied.url,
        'UNAUTHENTICATED',
      );
      expect(
        await refusedWith(
          { connectionParams: params, headers: forwardedFor('10.9.9.9') },
          proxied.url,
        ),
      ).toStrictEqual(forbidden('the API key is not valid for the host of this request'));
    } finally {
      await proxied.close();
    }
  });

  it('ends a subscription when its token expires: a message with the error, then complete', async () => {
    const token = await createTestToken(dataSource, Number(ids.users.t), key.id, {
      TOKEN_TTL_SECONDS: '2',
    });
    const [{ expires_at: expiresAt }] = (await dataSource.query(
      'SELECT expires_at FROM access_tokens ORDER BY id DESC LIMIT 1',
    )) as { expires_at: Date }[];
    const live = client({ connectionParams: { apiKey: key.secret, accessToken: token } });
    const subscription = new LiveSubscription(live, SESSION_RESULTS, variables());
    await subscription.ended;
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt.getTime());
    expect(subscription.completed).toBe(true);
    expect(subscription.received).toHaveLength(2);
    expect(Array.isArray(itemsOf(subscription.received[0]))).toBe(true);
    expect(subscription.received[1].result).toStrictEqual({
      data: null,
      errors: [
        {
          message: 'Unauthorized operation: sessionResults (the access token has expired)',
          locations: [expect.any(Object)],
          path: ['sessionResults'],
          extensions: {
            code: 'UNAUTHENTICATED',
            type: 'UnauthorizedOperationException',
            operation: 'sessionResults',
            reason: 'the access token has expired',
          },
        },
      ],
    });
    // The token stays refused for a new connection.
    const again = new LiveSubscription(
      client({ connectionParams: { apiKey: key.secret, accessToken: token } }),
      SESSION_RESULTS,
      variables(),
    );
    await again.ended;
    expect(closeOf(again.failure)).toStrictEqual(forbidden('the access token has expired'));
  });

  it('ends a subscription at its next message once its API key is revoked, on any instance', async () => {
    const revocable = await createTestApiKey(dataSource, 'localhost');
    const token = await createTestToken(dataSource, Number(ids.users.t), revocable.id);
    const live = client({ connectionParams: { apiKey: revocable.secret, accessToken: token } });
    const subscription = new LiveSubscription(live, SESSION_RESULTS, variables());
    await subscription.messages(1);
    expect(Array.isArray(itemsOf(subscription.received[0]))).toBe(true);
    // Revoked as another instance's key manager would; every instance refuses it within a
    // second, without a statement per message and subscriber (credentials.service requesterCheck).
    await revokeApiKey(operatorServiceContext(dataSource), revocable.id);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const written = await postJson(
      app.url,
      'addAnswers',
      `apiKey=${key.secret}&accessToken=${teacherToken}`,
      {
        sessionId: ids.sessions.S,
        answers: [
          { userId: ids.users.p1, quizId: ids.quizzes.q1, questionIndex: 0, answer: false },
        ],
      },
    );
    expect(written.status).toBe(200);
    await subscription.ended;
    expect(subscription.completed).toBe(true);
    expect(subscription.received).toHaveLength(2);
    expect(subscription.received[1].result.errors?.[0]?.extensions).toStrictEqual({
      code: 'UNAUTHENTICATED',
      type: 'UnauthorizedOperationException',
      operation: 'sessionResults',
      reason: 'the API key is unknown or revoked',
    });
  });

  it('holds at most 5 subscriptions per connection: one more is refused, the others go on', async () => {
    const live = client({ connectionParams: teacher() });
    const kept = Array.from(
      { length: 5 },
      () => new LiveSubscription(live, SESSION_RESULTS, variables()),
    );
    await Promise.all(kept.map((subscription) => subscription.messages(1)));
    const extra = new LiveSubscription(live, SESSION_RESULTS, variables());
    await extra.ended;
    expect(extra.failure).toStrictEqual([
      {
        message:
          'Query too complex: graphql (the connection holds 6 subscriptions, over the limit of 5)',
        extensions: {
          code: 'BAD_USER_INPUT',
          type: 'QueryTooComplexException',
          operation: 'graphql',
          reason: 'the connection holds 6 subscriptions, over the limit of 5',
          limit: 5,
          actual: 6,
        },
      },
    ]);
    expect(kept.every((subscription) => subscription.failure === undefined)).toBe(true);
  });

  it('applies the document limits: subscriptions only, at most 30 aliases', async () => {
    const live = client({ connectionParams: teacher() });
    const query = new LiveSubscription(live, '{ getUser(userId: "1") { id } }');
    const aliases = Array.from({ length: 31 }, (_unused, index) => `a${index}: id`).join(' ');
    const aliased = new LiveSubscription(
      live,
      `subscription ($sessionId: ID!) { sessionResults(sessionId: $sessionId) { ${aliases} } }`,
      variables(),
    );
    await Promise.all([query.ended, aliased.ended]);
    expect((query.failure as { extensions: Json }[])[0].extensions).toStrictEqual({
      code: 'BAD_USER_INPUT',
      type: 'BadParameterException',
      operation: 'graphql',
      reason: 'queries and mutations are served over HTTP; send a subscription over the WebSocket',
      parameterName: 'query',
      providedValue: '',
    });
    expect((aliased.failure as { extensions: Json }[])[0].extensions).toMatchObject({
      type: 'QueryTooComplexException',
      limit: 30,
      actual: 31,
    });
  });

  it('charges a subscription like getResults and holds its cost to GRAPHQL_MAX_COST', async () => {
    // Each message counts as a page of 50 items, each 1 object plus its quiz (1) and the quiz's
    // 20 questions (1 each; leaves are free): 50 × 22 = 1100.
    const limited = await otherInstance({
      RATE_LIMIT_POINTS: '7',
      GRAPHQL_MAX_COST: '1000',
    });
    try {
      // A key of its own: the budget of a key is shared by every instance.
      const own = await createTestApiKey(dataSource, 'localhost');
      const token = await createTestToken(dataSource, Number(ids.users.t), own.id);
      const live = client(
        { connectionParams: { apiKey: own.secret, accessToken: token } },
        limited.url,
      );
      const costly = new LiveSubscription(
        live,
        `subscription ($sessionId: ID!) { sessionResults(sessionId: $sessionId) { quiz { questions { title } } } }`,
        variables(),
      );
      await costly.ended;
      expect((costly.failure as { extensions: Json }[])[0].extensions).toMatchObject({
        type: 'QueryTooComplexException',
        limit: 1000,
        actual: 1100,
      });
      const first = new LiveSubscription(live, SESSION_RESULTS, variables());
      await first.messages(1);
      expect(first.received[0].result.errors).toBeUndefined();
      // 5 of the 7 points spent: another subscription is over the budget.
      const second = new LiveSubscription(live, SESSION_RESULTS, variables());
      await second.ended;
      expect((second.failure as { extensions: Json }[])[0].extensions).toMatchObject({
        code: 'TOO_MANY_REQUESTS',
        type: 'TooManyRequestsException',
        operation: 'graphql',
      });
    } finally {
      await limited.close();
    }
  });

  it('closes a connection without connection_init (4408), and destroys upgrades of other paths', async () => {
    const silent = new WebSocket(
      `${app.url.replace(/^http/, 'ws')}/graphql`,
      'graphql-transport-ws',
    );
    const closed = await new Promise<{ code: number; reason: string }>((resolve) =>
      silent.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
    );
    expect(closed).toStrictEqual({ code: 4408, reason: 'Connection initialisation timeout' });

    const elsewhere = new WebSocket(
      `${app.url.replace(/^http/, 'ws')}/getQuiz`,
      'graphql-transport-ws',
    );
    const outcome = await new Promise<string>((resolve) => {
      elsewhere.once('open', () => resolve('open'));
      elsewhere.once('error', (error) => resolve(error.message));
    });
    expect(outcome).toBe('socket hang up');
  });

  it('serves the WebSocket at the GraphQL path under BASE_PATH, and only there', async () => {
    const based = await otherInstance({ BASE_PATH: '/api' });
    try {
      await accepted({ connectionParams: teacher(), path: '/api/graphql' }, based.url);
      const root = new WebSocket(
        `${based.url.replace(/^http/, 'ws')}/graphql`,
        'graphql-transport-ws',
      );
      const outcome = await new Promise<string>((resolve) => {
        root.once('open', () => resolve('open'));
        root.once('error', (error) => resolve(error.message));
      });
      expect(outcome).toBe('socket hang up');
    } finally {
      await based.close();
    }
  });

  it('closes a connection without subscription for LIVE_IDLE_TIMEOUT_SECONDS (1000), not one with', async () => {
    const idle = await otherInstance({ LIVE_IDLE_TIMEOUT_SECONDS: '1' });
    try {
      const busy = new LiveSubscription(
        client({ connectionParams: teacher() }, idle.url),
        SESSION_RESULTS,
        variables(),
      );
      // A raw connection, acknowledged, that never subscribes.
      const raw = new WebSocket(
        `${idle.url.replace(/^http/, 'ws')}/graphql`,
        'graphql-transport-ws',
      );
      const messages: unknown[] = [];
      raw.on('message', (data: Buffer) => messages.push(JSON.parse(String(data))));
      raw.once('open', () =>
        raw.send(JSON.stringify({ type: 'connection_init', payload: teacher() })),
      );
      const closed = await new Promise<{ code: number; reason: string }>((resolve) =>
        raw.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
      );
      expect(messages).toStrictEqual([{ type: 'connection_ack' }]);
      expect(closed).toStrictEqual({ code: 1000, reason: 'Idle connection' });
      // The connection with a subscription, open as long, is kept.
      await busy.messages(1);
      expect(busy.failure).toBeUndefined();
      expect(busy.completed).toBe(false);
    } finally {
      await idle.close();
    }
  });

  it('closes open subscriptions with 1001 when the server shuts down, and its close() ends', async () => {
    const own = await otherInstance();
    const live = client({ connectionParams: teacher() }, own.url);
    const subscription = new LiveSubscription(
      live,
      `subscription ($sessionId: ID!) { sessionResults(sessionId: $sessionId) { ${RESULT_FIELDS} } }`,
      variables(),
    );
    await subscription.messages(1);
    await own.close();
    await subscription.ended;
    expect(closeOf(subscription.failure)).toStrictEqual({ code: 1001, reason: 'Going away' });
  });
});

import type { Client } from 'graphql-ws';
import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap } from '../../src/data/import/import-document';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend } from '../helpers/database';
import { LIVE_CLASS } from '../helpers/fixtures';
import { liveClient, LiveSubscription, SESSION_RESULTS } from '../helpers/live';

/**
 * The live subscriptions one instance holds for a user and for an API key
 * (LIVE_MAX_SUBSCRIPTIONS_PER_USER, LIVE_MAX_SUBSCRIPTIONS_PER_KEY), whatever connections
 * carry them: one more is refused with QueryTooComplexException, the others keep streaming, and
 * once one ends another may start.
 */

const PER_USER = 3;
const PER_KEY = 5;

describe.each(BACKENDS)('live subscription limits on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let ids: IdMap;
  let apiKey: string;
  const tokens: Record<'t' | 'o', string> = { t: '', o: '' };
  const clients: Client[] = [];

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'live_limits'));
    ids = await loadData(dataSource, LIVE_CLASS);
    const key = await createTestApiKey(dataSource, 'localhost');
    apiKey = key.secret;
    tokens.t = await createTestToken(dataSource, Number(ids.users.t), key.id);
    tokens.o = await createTestToken(dataSource, Number(ids.users.o), key.id);
    app = await startTestApp(dataSource, {
      LIVE_MAX_SUBSCRIPTIONS_PER_USER: String(PER_USER),
      LIVE_MAX_SUBSCRIPTIONS_PER_KEY: String(PER_KEY),
    });
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.dispose()));
    await app.close();
    await close();
  });

  function connection(who: 't' | 'o'): Client {
    const client = liveClient(app.url, { connectionParams: { apiKey, accessToken: tokens[who] } });
    clients.push(client);
    return client;
  }

  const watch = (client: Client, session: 'S' | 'S3') =>
    new LiveSubscription(client, SESSION_RESULTS, { sessionId: ids.sessions[session] });

  const refusalOf = (subscription: LiveSubscription) =>
    (subscription.failure as { extensions?: Record<string, unknown> }[] | undefined)?.[0]
      ?.extensions;

  it('limits what a user holds across connections, then what a key holds', async () => {
    const [first, second] = [connection('t'), connection('t')];
    const held = [watch(first, 'S'), watch(first, 'S'), watch(second, 'S')];
    await Promise.all(held.map((subscription) => subscription.messages(1)));

    const over = watch(second, 'S');
    await over.ended;
    expect(refusalOf(over)).toStrictEqual({
      code: 'BAD_USER_INPUT',
      type: 'QueryTooComplexException',
      operation: 'graphql',
      reason: `the user holds ${PER_USER + 1} live subscriptions on this instance, over the limit of ${PER_USER}`,
      limit: PER_USER,
      actual: PER_USER + 1,
    });
    expect(held.every((subscription) => subscription.failure === undefined)).toBe(true);

    // One ends: another may start.
    held[0]?.unsubscribe();
    const next = watch(second, 'S');
    await next.messages(1);
    expect(next.failure).toBeUndefined();

    // Another user of the same key: their own three would take the key past its five.
    const other = connection('o');
    const theirs = [watch(other, 'S3'), watch(other, 'S3')];
    await Promise.all(theirs.map((subscription) => subscription.messages(1)));
    const overKey = watch(other, 'S3');
    await overKey.ended;
    expect(refusalOf(overKey)).toMatchObject({
      type: 'QueryTooComplexException',
      reason: `the API key holds ${PER_KEY + 1} live subscriptions on this instance, over the limit of ${PER_KEY}`,
    });
  });
});

import type { DataSource } from 'typeorm';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { QuizApiClient, BadParameterException } from '@quiz-results/client';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap } from '../../src/data/import/import-document';
import { databaseOf } from '../../src/db/database';
import { dialectOf } from '../../src/db/sql/dialect';
import { insertWebhookEndpoint } from '../../src/db/webhook-endpoints.store';
import { WEBHOOK_EVENT_TYPES, WEBHOOKS_PER_USER } from '../../src/domain/webhooks/webhook-events';
import { createSecretBox } from '../../src/security/secret-box';
import { newWebhookSecret, signWebhookMessage } from '../../src/services/webhooks/webhook-signing';
import { startTestApp, type TestApp } from '../helpers/app';
import { createLoginUser, visit } from '../helpers/browser';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend } from '../helpers/database';
import { TEACHER_AND_PUPIL } from '../helpers/fixtures';
import { graphql } from '../helpers/graphql';
import { logInToKeyManager } from '../helpers/key-manager';
import { expectParity } from '../helpers/parity';
import {
  countingListener,
  insertDelivery,
  insertEvent,
  type CountingListener,
} from '../helpers/webhooks';

/**
 * The webhook operations (contract.md §16) on REST, GraphQL and the client: endpoints added with
 * their secret shown once, listed without it, each user's own (another's reads as absent), URLs
 * the service must not call refused before any connection, the limit per user, rotation keeping
 * the previous secret for 24 h, and deliveries read and redelivered (rows written as the engine
 * writes them). Two apps share each database: one strict (no host allowed, as in production),
 * one allowing 127.0.0.1 as tests' receivers are. Nothing is sent: delivery is off.
 */

type Json = Record<string, unknown>;

const HOUR = 3_600_000;
const WIRE_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe.each(BACKENDS)('webhook operations on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let strict: TestApp;
  let allowing: TestApp;
  let listener: CountingListener;
  let ids: IdMap;
  let apiKey: string;
  const tokens: Record<string, string> = {};
  const credentials = (ref: string | null) =>
    `apiKey=${apiKey}${ref ? `&accessToken=${tokens[ref]}` : ''}`;
  const hookUrl = (path: string) => `http://127.0.0.1:${listener.port}/${path}`;

  async function rest(
    app: TestApp,
    ref: string | null,
    operation: string,
    body?: Json,
    query = '',
  ): Promise<{ status: number; body: Json }> {
    const res = await app.get(`/${operation}?${credentials(ref)}${query}`, {
      method: body ? 'POST' : 'GET',
      ...(body
        ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
        : {}),
    });
    return { status: res.status, body: (await res.json()) as Json };
  }

  const add = (app: TestApp, ref: string | null, webhook: unknown) =>
    rest(app, ref, 'addWebhook', { webhook });

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'webhooks'));
    ids = await loadData(dataSource, TEACHER_AND_PUPIL);
    const key = await createTestApiKey(dataSource, 'localhost');
    apiKey = key.secret;
    for (const ref of ['t', 's']) {
      tokens[ref] = await createTestToken(dataSource, Number(ids.users[ref]), key.id);
    }
    listener = await countingListener();
    const env = { WEBHOOK_DELIVERY_ENABLED: 'false' };
    strict = await startTestApp(dataSource, env);
    allowing = await startTestApp(dataSource, { ...env, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  });

  afterAll(async () => {
    await strict?.close();
    await allowing?.close();
    await listener?.close();
    await close();
  });

  it('adds an endpoint whose secret is shown once, stored sealed, and lists it without it', async () => {
    const added = await add(allowing, 't', {
      url: hookUrl('a'),
      events: ['quiz.created', 'session.created'],
    });
    expect(added.status).toBe(200);
    expect(added.body).toStrictEqual({
      id: expect.stringMatching(/^\d+$/),
      url: hookUrl('a'),
      events: ['session.created', 'quiz.created'],
      createdAt: expect.stringMatching(WIRE_DATE),
      enabled: true,
      disabledAt: null,
      disabledReason: null,
      failingSince: null,
      previousSecretUntil: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const secret = String(added.body.secret);
    const [row] = (await dataSource.query(
      'SELECT secret_sealed FROM webhook_endpoints WHERE id = ?',
      [Number(added.body.id)],
    )) as { secret_sealed: string }[];
    expect(row?.secret_sealed).not.toContain(secret.slice(6, 20));
    const box = createSecretBox(allowing.config.webhooks.secretKey);
    expect(box.open(String(row?.secret_sealed), String(added.body.id))).toBe(secret);

    const listed = await rest(allowing, 't', 'getWebhooks');
    expect(listed.status).toBe(200);
    const { secret: _shownOnce, ...withoutSecret } = added.body;
    expect(listed.body).toStrictEqual({
      webhooks: [withoutSecret],
      maxWebhooks: WEBHOOKS_PER_USER,
    });
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    await expectParity(allowing.url, 'getWebhooks', {}, credentials('t'));

    // GraphQL: every event type by default; the secret once, null in the list.
    const { body } = await graphql(
      allowing.url,
      'mutation ($w: WebhookInput!) { addWebhook(webhook: $w) { id events secret enabled } }',
      { variables: { w: { url: hookUrl('b') } }, search: `?${credentials('t')}` },
    );
    const made = body.data?.addWebhook as Json;
    expect(made).toMatchObject({ events: [...WEBHOOK_EVENT_TYPES], enabled: true });
    expect(made.secret).toMatch(/^whsec_/);
    const list = await graphql(allowing.url, '{ getWebhooks { webhooks { id secret } } }', {
      search: `?${credentials('t')}`,
    });
    expect(list.body.data?.getWebhooks).toStrictEqual({
      webhooks: [
        { id: added.body.id, secret: null },
        { id: made.id, secret: null },
      ],
    });
  });

  it('refuses, on both wires, addresses the service must not reach, before any connection', async () => {
    const before = listener.connections();
    const refused = [
      hookUrl('plain-http'),
      `https://127.0.0.1:${listener.port}/`,
      'https://10.0.0.1/hook',
      'https://169.254.169.254/latest/meta-data',
      `https://localhost:${listener.port}/hook`,
      'ftp://hooks.example/x',
      'not a url',
    ];
    for (const url of refused) {
      const answer = await add(strict, 't', { url });
      expect([url, answer.status, answer.body.type, answer.body.parameterName]).toStrictEqual([
        url,
        400,
        'BadParameterException',
        'webhook.url',
      ]);
      await expectParity(
        strict.url,
        'addWebhook',
        { webhook: JSON.stringify({ url }) },
        credentials('t'),
      );
    }
    expect(listener.connections()).toBe(before);
    // The reasons say what was refused, never more than the URL given.
    const metadata = await add(strict, 't', { url: 'https://169.254.169.254/' });
    expect(metadata.body.reason).toMatch(/metadata/);
  });

  it('refuses bad payloads with the path of the bad value, alike on both wires', async () => {
    const cases: [unknown, string, string][] = [
      [
        { url: hookUrl('x'), events: ['quiz.created', 'quiz.deleted'] },
        'BadParameterException',
        'webhook.events[1]',
      ],
      [{ url: hookUrl('x'), events: [] }, 'BadParameterException', 'webhook.events'],
      [{ events: ['quiz.created'] }, 'MissingParameterException', 'webhook.url'],
      [{ url: 42 }, 'BadParameterException', 'webhook.url'],
      ['https://hooks.example', 'BadParameterException', 'webhook'],
      // Short enough as sent, too long once its non-ASCII characters are percent-encoded.
      [{ url: hookUrl('é'.repeat(1000)) }, 'BadParameterException', 'webhook.url'],
    ];
    for (const [webhook, type, parameterName] of cases) {
      const answer = await add(allowing, 's', webhook);
      expect([webhook, answer.status, answer.body.type, answer.body.parameterName]).toStrictEqual([
        webhook,
        400,
        type,
        parameterName,
      ]);
      // A url of another type GraphQL's input type refuses itself (on `variables.webhook`).
      if (typeof webhook === 'object' && typeof (webhook as Json).url !== 'number') {
        await expectParity(
          allowing.url,
          'addWebhook',
          { webhook: JSON.stringify(webhook) },
          credentials('s'),
        );
      }
    }
    expect((await rest(allowing, 's', 'addWebhook', {})).body.type).toBe(
      'MissingParameterException',
    );
  });

  it('refuses an anonymous requester (401) on both wires', async () => {
    const answer = await add(allowing, null, { url: hookUrl('anon') });
    expect([answer.status, answer.body.reason]).toStrictEqual([
      401,
      'an access token is required to manage webhooks',
    ]);
    for (const operation of ['getWebhooks', 'getWebhookDeliveries', 'deleteWebhook']) {
      const query: Record<string, string> = operation === 'getWebhooks' ? {} : { webhookId: '1' };
      const result = await expectParity(
        allowing.url,
        operation as 'getWebhooks',
        query,
        credentials(null),
      );
      expect(result.status).toBe(401);
    }
  });

  it(`refuses an endpoint beyond ${WEBHOOKS_PER_USER} a user`, async () => {
    const existing = (await rest(allowing, 's', 'getWebhooks')).body.webhooks as Json[];
    for (let n = existing.length; n < WEBHOOKS_PER_USER; n += 1) {
      expect((await add(allowing, 's', { url: hookUrl(`n${n}`) })).status).toBe(200);
    }
    const refused = await add(allowing, 's', { url: hookUrl('one-too-many') });
    expect(refused.status).toBe(400);
    expect(refused.body.reason).toBe(
      `a user may have at most ${WEBHOOKS_PER_USER} webhook endpoints: delete one first`,
    );
    await expectParity(
      allowing.url,
      'addWebhook',
      { webhook: JSON.stringify({ url: hookUrl('one-too-many') }) },
      credentials('s'),
    );
    const listed = (await rest(allowing, 's', 'getWebhooks')).body.webhooks as Json[];
    expect(listed).toHaveLength(WEBHOOKS_PER_USER);
    // Deleting one makes room again.
    const deleted = await rest(allowing, 's', 'deleteWebhook', { webhookId: listed[0]?.id });
    expect(deleted.body).toStrictEqual(listed[0]);
    expect((await add(allowing, 's', { url: hookUrl('room-again') })).status).toBe(200);

    // Adds racing past the count: never more than the limit, and each 200 is an endpoint kept.
    for (const webhook of (await rest(allowing, 's', 'getWebhooks')).body.webhooks as Json[]) {
      await rest(allowing, 's', 'deleteWebhook', { webhookId: webhook.id });
    }
    const raced = await Promise.all(
      Array.from({ length: WEBHOOKS_PER_USER + 3 }, (_unused, n) =>
        add(allowing, 's', { url: hookUrl(`race${n}`) }),
      ),
    );
    const kept = (await rest(allowing, 's', 'getWebhooks')).body.webhooks as Json[];
    expect(kept.length).toBeLessThanOrEqual(WEBHOOKS_PER_USER);
    expect(
      raced
        .filter((answer) => answer.status === 200)
        .map((answer) => answer.body.id)
        .sort(),
    ).toEqual(kept.map((webhook) => webhook.id).sort());
    expect(raced.every((answer) => answer.status === 200 || answer.status === 400)).toBe(true);
  });

  it("keeps each user's endpoints their own: another's reads as absent on every operation", async () => {
    const mine = await add(allowing, 't', { url: hookUrl('mine'), events: ['quiz.created'] });
    const webhookId = String(mine.body.id);
    const eventId = await insertEvent(dataSource, 'msg_isolation', 'quiz.created', Date.now());
    await insertDelivery(dataSource, {
      eventId,
      endpointId: Number(webhookId),
      status: 'delivered',
      createdMs: Date.now(),
      dueMs: Date.now(),
      finishedMs: Date.now(),
      attempts: [],
    });
    const absent = '999999';
    const calls: [string, Record<string, string>][] = [
      ['getWebhookDeliveries', {}],
      ['deleteWebhook', {}],
      ['rotateWebhookSecret', {}],
      ['enableWebhook', {}],
      ['redeliverWebhookEvent', { eventId: 'msg_isolation' }],
    ];
    for (const [operation, extra] of calls) {
      for (const id of [webhookId, absent]) {
        const result = await expectParity(
          allowing.url,
          operation as 'getWebhooks',
          { webhookId: id, ...extra },
          credentials('s'),
        );
        expect([operation, result.status, result.body.type, result.body.reason]).toStrictEqual([
          operation,
          404,
          'BadParameterException',
          `webhook ${id} does not exist`,
        ]);
      }
    }
    const others = (await rest(allowing, 's', 'getWebhooks')).body.webhooks as Json[];
    expect(others.map((webhook) => webhook.id)).not.toContain(webhookId);
    // Still there for its owner, unchanged, with its one delivery.
    const deliveries = await rest(
      allowing,
      't',
      'getWebhookDeliveries',
      undefined,
      `&webhookId=${webhookId}`,
    );
    expect((deliveries.body.deliveries as Json[]).length).toBe(1);
  });

  it('rotates the secret: both secrets verify a message for 24 hours', async () => {
    const added = await add(allowing, 't', { url: hookUrl('rotate') });
    const webhookId = String(added.body.id);
    const before = Date.now();
    const rotated = await rest(allowing, 't', 'rotateWebhookSecret', { webhookId });
    expect(rotated.status).toBe(200);
    const [oldSecret, newSecret] = [String(added.body.secret), String(rotated.body.secret)];
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);
    const until = Date.parse(`${String(rotated.body.previousSecretUntil).replace(' ', 'T')}Z`);
    expect(until).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 24 * HOUR - 1000);
    expect(until).toBeLessThanOrEqual(Date.now() + 24 * HOUR);

    // What the sender will sign with is what is stored: the new secret and the previous one.
    const [row] = (await dataSource.query(
      'SELECT secret_sealed, previous_secret_sealed FROM webhook_endpoints WHERE id = ?',
      [Number(webhookId)],
    )) as { secret_sealed: string; previous_secret_sealed: string }[];
    const box = createSecretBox(allowing.config.webhooks.secretKey);
    const current = box.open(String(row?.secret_sealed), webhookId);
    const previous = box.open(String(row?.previous_secret_sealed), webhookId);
    expect([current, previous]).toStrictEqual([newSecret, oldSecret]);
    const payload = JSON.stringify({
      type: 'quiz.created',
      timestamp: new Date().toISOString(),
      data: { quizId: 1 },
    });
    const headers = signWebhookMessage({ current, previous }, 'msg_rotation', new Date(), payload);
    for (const secret of [oldSecret, newSecret]) {
      expect(new StandardWebhook(secret).verify(payload, { ...headers })).toStrictEqual(
        JSON.parse(payload),
      );
    }
    // Listed without either secret, the rotation's end shown.
    const listed = (await rest(allowing, 't', 'getWebhooks')).body.webhooks as Json[];
    const shown = listed.find((webhook) => webhook.id === webhookId);
    expect(shown).toMatchObject({ previousSecretUntil: rotated.body.previousSecretUntil });
    expect(shown).not.toHaveProperty('secret');
    // GraphQL rotates too.
    const { body } = await graphql(
      allowing.url,
      'mutation ($id: ID!) { rotateWebhookSecret(webhookId: $id) { secret } }',
      { variables: { id: webhookId }, search: `?${credentials('t')}` },
    );
    expect((body.data?.rotateWebhookSecret as Json).secret).toMatch(/^whsec_/);
  });

  it('lists deliveries newest first with their attempts, never a body, and redelivers with the same message id', async () => {
    const added = await add(allowing, 't', { url: hookUrl('deliveries') });
    const webhookId = Number(added.body.id);
    const other = await add(allowing, 't', { url: hookUrl('other') });
    const t0 = Date.UTC(2026, 10, 2, 9, 0, 0);
    const first = await insertEvent(dataSource, 'msg_first', 'session.created', t0, {
      sessionId: 7,
    });
    const second = await insertEvent(dataSource, 'msg_second', 'quiz.created', t0 + 60_000, {
      quizId: 9,
    });
    const elsewhere = await insertEvent(dataSource, 'msg_elsewhere', 'quiz.created', t0);
    await insertDelivery(dataSource, {
      eventId: first,
      endpointId: webhookId,
      status: 'delivered',
      createdMs: t0,
      dueMs: t0 + 30_000,
      finishedMs: t0 + 30_250,
      attempts: [
        {
          attemptedMs: t0 + 5,
          outcome: 'retry',
          statusCode: 503,
          durationMs: 41,
          error: 'HTTP 503',
        },
        {
          attemptedMs: t0 + 30_000,
          outcome: 'delivered',
          statusCode: 204,
          durationMs: 250,
          error: null,
        },
      ],
    });
    await insertDelivery(dataSource, {
      eventId: second,
      endpointId: webhookId,
      status: 'pending',
      createdMs: t0 + 60_000,
      dueMs: t0 + 120_000,
      finishedMs: null,
      attempts: [
        {
          attemptedMs: t0 + 60_010,
          outcome: 'retry',
          statusCode: null,
          durationMs: 10_000,
          error: 'timeout after 10000 ms',
        },
      ],
    });
    await insertDelivery(dataSource, {
      eventId: elsewhere,
      endpointId: Number(other.body.id),
      status: 'failed',
      createdMs: t0,
      dueMs: t0,
      finishedMs: t0,
      attempts: [],
    });

    const query = `&webhookId=${webhookId}`;
    const listed = await rest(allowing, 't', 'getWebhookDeliveries', undefined, query);
    expect(listed.status).toBe(200);
    expect(listed.body).toStrictEqual({
      webhookId: String(webhookId),
      deliveries: [
        {
          id: expect.stringMatching(/^\d+$/),
          eventId: 'msg_second',
          eventType: 'quiz.created',
          status: 'pending',
          attempts: 1,
          createdAt: '2026-11-02 09:01:00',
          nextAttemptAt: '2026-11-02 09:02:00',
          finishedAt: null,
          attemptList: [
            {
              attemptedAt: '2026-11-02 09:01:00',
              outcome: 'retry',
              statusCode: null,
              durationMs: 10_000,
              error: 'timeout after 10000 ms',
            },
          ],
        },
        {
          id: expect.stringMatching(/^\d+$/),
          eventId: 'msg_first',
          eventType: 'session.created',
          status: 'delivered',
          attempts: 2,
          createdAt: '2026-11-02 09:00:00',
          nextAttemptAt: null,
          finishedAt: '2026-11-02 09:00:30',
          attemptList: [
            {
              attemptedAt: '2026-11-02 09:00:00',
              outcome: 'retry',
              statusCode: 503,
              durationMs: 41,
              error: 'HTTP 503',
            },
            {
              attemptedAt: '2026-11-02 09:00:30',
              outcome: 'delivered',
              statusCode: 204,
              durationMs: 250,
              error: null,
            },
          ],
        },
      ],
    });
    expect(JSON.stringify(listed.body)).not.toContain('sessionId');
    await expectParity(
      allowing.url,
      'getWebhookDeliveries',
      { webhookId: String(webhookId) },
      credentials('t'),
    );
    const one = await rest(allowing, 't', 'getWebhookDeliveries', undefined, `${query}&limit=1`);
    expect((one.body.deliveries as Json[]).map((d) => d.eventId)).toStrictEqual(['msg_second']);
    for (const limit of ['0', '201', 'x']) {
      const result = await expectParity(
        allowing.url,
        'getWebhookDeliveries',
        { webhookId: String(webhookId), limit },
        credentials('t'),
      );
      expect([limit, result.status]).toStrictEqual([limit, 400]);
    }

    // Redelivery: a new pending delivery of the same event (its message id), due now.
    const before = Math.floor(Date.now() / 1000) * 1000;
    const again = await rest(allowing, 't', 'redeliverWebhookEvent', {
      webhookId: String(webhookId),
      eventId: 'msg_first',
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      eventId: 'msg_first',
      eventType: 'session.created',
      status: 'pending',
      attempts: 0,
      finishedAt: null,
      attemptList: [],
    });
    const due = Date.parse(`${String(again.body.nextAttemptAt).replace(' ', 'T')}Z`);
    expect(due).toBeGreaterThanOrEqual(before);
    expect(due).toBeLessThanOrEqual(Date.now());
    const rows = (await dataSource.query(
      'SELECT status FROM webhook_deliveries WHERE event_id = ? AND endpoint_id = ? ORDER BY id',
      [first, webhookId],
    )) as { status: string }[];
    expect(rows.map((row) => row.status)).toStrictEqual(['delivered', 'pending']);
    const { body } = await graphql(
      allowing.url,
      'mutation ($id: ID!, $e: String!) { redeliverWebhookEvent(webhookId: $id, eventId: $e) { eventId status } }',
      { variables: { id: String(webhookId), e: 'msg_first' }, search: `?${credentials('t')}` },
    );
    expect(body.data?.redeliverWebhookEvent).toStrictEqual({
      eventId: 'msg_first',
      status: 'pending',
    });

    // An event never owed to this endpoint (another endpoint's, or none) is not found.
    for (const eventId of ['msg_elsewhere', 'msg_nothing']) {
      const result = await expectParity(
        allowing.url,
        'redeliverWebhookEvent',
        { webhookId: String(webhookId), eventId },
        credentials('t'),
      );
      expect([result.status, result.body.parameterName]).toStrictEqual([404, 'eventId']);
    }
    // Not a message id at all: malformed (400), as the OpenAPI pattern says.
    const malformed = await expectParity(
      allowing.url,
      'redeliverWebhookEvent',
      { webhookId: String(webhookId), eventId: 'abc' },
      credentials('t'),
    );
    expect([malformed.status, malformed.body.parameterName]).toStrictEqual([400, 'eventId']);

    // Deleting the endpoint deletes its deliveries and their attempts.
    expect(
      (await rest(allowing, 't', 'deleteWebhook', { webhookId: String(webhookId) })).status,
    ).toBe(200);
    const [left] = (await dataSource.query(
      'SELECT COUNT(*) AS n FROM webhook_deliveries WHERE endpoint_id = ?',
      [webhookId],
    )) as { n: unknown }[];
    expect(Number(left?.n)).toBe(0);
  });

  it('shows why an endpoint was disabled, and enableWebhook resumes it', async () => {
    const added = await add(allowing, 't', { url: hookUrl('disabled') });
    const webhookId = String(added.body.id);
    await dataSource.query(
      'UPDATE webhook_endpoints SET disabled_at = ?, disabled_reason = ?, failing_since = ? WHERE id = ?',
      [
        dialectOf(dataSource).date(new Date(Date.UTC(2026, 10, 5, 8, 0, 0))),
        'failing since 2026-11-02 08:00:00 UTC: HTTP 500',
        dialectOf(dataSource).date(new Date(Date.UTC(2026, 10, 2, 8, 0, 0))),
        Number(webhookId),
      ],
    );
    const listed = (await rest(allowing, 't', 'getWebhooks')).body.webhooks as Json[];
    expect(listed.find((webhook) => webhook.id === webhookId)).toMatchObject({
      enabled: false,
      disabledAt: '2026-11-05 08:00:00',
      disabledReason: 'failing since 2026-11-02 08:00:00 UTC: HTTP 500',
      failingSince: '2026-11-02 08:00:00',
    });
    await expectParity(allowing.url, 'getWebhooks', {}, credentials('t'));
    const enabled = await rest(allowing, 't', 'enableWebhook', { webhookId });
    expect(enabled.body).toMatchObject({
      enabled: true,
      disabledAt: null,
      disabledReason: null,
      failingSince: null,
    });
    // Enabling an enabled endpoint changes nothing, on both wires.
    await expectParity(allowing.url, 'enableWebhook', { webhookId }, credentials('t'));
  });

  it("shows the signed-in user's endpoints on the key manager page, escaped, without secrets", async () => {
    const email = `hooks-${backend.toLowerCase()}@example.test`;
    const password = 'hook-page-password-42';
    const user = await createLoginUser(dataSource, email, password);
    const box = createSecretBox(allowing.config.webhooks.secretKey);
    const secret = newWebhookSecret();
    const endpoint = await insertWebhookEndpoint(
      databaseOf(dataSource),
      { ownerId: user.id, url: 'https://page.example/h?a=<i>&b="x"', events: 'quiz.created' },
      (id) => box.seal(secret, String(id)),
    );
    await dataSource.query(
      'UPDATE webhook_endpoints SET disabled_at = ?, disabled_reason = ? WHERE id = ?',
      [
        dialectOf(dataSource).date(new Date(Date.UTC(2026, 10, 5, 8, 0, 0))),
        'failing for 3 days: <script>alert(1)</script>',
        endpoint.id,
      ],
    );
    const session = await logInToKeyManager(allowing.url, email, password);
    const { html } = await visit(`${allowing.url}/keys`, {
      headers: { cookie: `quiz_session=${session}` },
    });
    expect(html).toContain(`data-webhook-id="${endpoint.id}"`);
    expect(html).toContain('https://page.example/h?a=&lt;i&gt;&amp;b=&quot;x&quot;');
    expect(html).toContain(
      'Disabled since 2026-11-05 08:00:00 UTC: failing for 3 days: &lt;script&gt;alert(1)&lt;/script&gt;',
    );
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain(secret);
    // Nobody else's endpoints.
    expect(html).not.toContain(hookUrl('a'));
  });

  it('works through the client package', async () => {
    const client = new QuizApiClient({
      baseUrl: allowing.url,
      apiKey,
      accessToken: tokens.t,
    });
    const made = await client.addWebhook({
      webhook: { url: hookUrl('client'), events: ['user.erased'] },
    });
    expect(made.secret).toMatch(/^whsec_/);
    expect(made.events).toStrictEqual(['user.erased']);
    const { webhooks } = await client.getWebhooks();
    expect(webhooks.find((webhook) => webhook.id === made.id)).not.toHaveProperty('secret');
    const rotated = await client.rotateWebhookSecret({ webhookId: made.id });
    expect(rotated.secret).not.toBe(made.secret);
    expect(
      (await client.getWebhookDeliveries({ webhookId: made.id, limit: 5 })).deliveries,
    ).toStrictEqual([]);
    await expect(
      client.redeliverWebhookEvent({ webhookId: made.id, eventId: 'msg_none' }),
    ).rejects.toBeInstanceOf(BadParameterException);
    expect((await client.enableWebhook({ webhookId: made.id })).enabled).toBe(true);
    expect((await client.deleteWebhook({ webhookId: made.id })).id).toBe(made.id);
  });
});

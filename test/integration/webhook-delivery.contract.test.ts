import { Webhook } from 'standardwebhooks';
import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { ImportDocument } from '../../src/data/import/import-document';
import { insertWebhookEndpoint } from '../../src/db/webhook-endpoints.store';
import { createSecretBox } from '../../src/security/secret-box';
import { eraseUser } from '../../src/services/privacy/erasure.service';
import { newWebhookSecret } from '../../src/services/webhooks/webhook-signing';
import { purgeWebhookHistory } from '../../src/services/webhooks/webhook-queue.service';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend } from '../helpers/database';
import { WebhookReceiver, type ReceivedWebhook } from '../helpers/webhook-receiver';

/**
 * Webhook delivery (contract.md §16) end to end on each database: real writes through the API
 * put entries in the outbox, the running app's dispatcher and worker send them signed to a real
 * receiver on loopback, which answers as each scenario scripts; what the database records of
 * every attempt, and the metrics, are checked too.
 */

const CLASS: ImportDocument = {
  users: [
    { ref: 't', email: 't@school.example', firstName: 'Tess', lastName: 'Teacher' },
    { ref: 'o', email: 'o@school.example', firstName: 'Otto', lastName: 'Other' },
    { ref: 'a', email: 'a@school.example', firstName: 'Ana', lastName: 'Pupil' },
    { ref: 'b', email: 'b@school.example', firstName: 'Ben', lastName: 'Pupil' },
  ],
  groups: [{ ref: 'g', name: 'Geography', owner: 't', members: ['a', 'b'] }],
  quizzes: [
    {
      ref: 'q',
      author: 't',
      title: 'Capitals',
      visibility: 'public',
      survey: false,
      tags: ['geo', 'hooks'],
      questions: [
        { title: 'Sure?', type: 'TrueFalse', goodAnswer: true },
        { title: 'Really?', type: 'TrueFalse', goodAnswer: false },
      ],
    },
  ],
};

const ALL_TYPES = 'session.created,answers.recorded,quiz.created,user.erased';
const DAY_MS = 86_400_000;

type Json = Record<string, unknown>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(BACKENDS)('webhook delivery on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let receiver: WebhookReceiver;
  let base: string;
  let ids: { users: Record<string, string>; quizzes: Record<string, string> };
  const credentials: Record<'t' | 'o', string> = { t: '', o: '' };
  const secrets = new Map<string, string>();

  /** A new endpoint of `owner` at `path` of the receiver; returns its id. */
  async function endpoint(owner: 't' | 'o', path: string, events = ALL_TYPES): Promise<number> {
    const secret = newWebhookSecret();
    const box = createSecretBox(app.config.webhooks.secretKey);
    const saved = await insertWebhookEndpoint(
      app.deps.db,
      { ownerId: Number(ids.users[owner]), url: `${base}${path}`, events },
      (id) => box.seal(secret, String(id)),
    );
    secrets.set(path, secret);
    return saved.id;
  }

  async function post(operation: string, body: Json, owner: 't' | 'o' = 't') {
    const res = await fetch(`${app.url}/${operation}?${credentials[owner]}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  }

  const addQuiz = async (owner: 't' | 'o' = 't') => {
    const made = await post(
      'addQuiz',
      { quiz: { title: 'Hook', visibility: 'public', survey: false, tags: ['x', 'y'] } },
      owner,
    );
    expect(made.status).toBe(200);
    return Number(made.body.id);
  };

  const addSession = async (attendee: 'a' | 'b' = 'b') => {
    const made = await post('addSession', {
      session: { title: 'Hooked', quizIds: [ids.quizzes.q], attendeeIds: [ids.users[attendee]] },
    });
    expect(made.status).toBe(200);
    return Number(made.body.id);
  };

  const answers = (sessionId: number, userRef: 'a' | 'b', questionIndex: number) => ({
    sessionId: String(sessionId),
    answers: [
      {
        userId: ids.users[userRef],
        quizId: ids.quizzes.q,
        questionIndex,
        answer: true,
        answeredAt: '2026-11-23 09:00:00',
      },
    ],
  });

  /** The body of a request, after checking its signature with the endpoint's secret. */
  function verified(path: string, request: ReceivedWebhook): Json {
    const secret = secrets.get(path) as string;
    return new Webhook(secret).verify(request.body, request.headers) as Json;
  }

  const rows = (sql: string, params: unknown[] = []) =>
    dataSource.query(sql, params) as Promise<Json[]>;

  const deliveriesOf = (endpointId: number) =>
    rows(
      `SELECT d.id, d.status, d.attempts, d.finished_ms, v.message_id FROM webhook_deliveries d
       JOIN webhook_events v ON v.id = d.event_id WHERE d.endpoint_id = ? ORDER BY d.id`,
      [endpointId],
    );

  const attemptsOf = (deliveryId: unknown) =>
    rows(
      'SELECT outcome, status_code, error FROM webhook_attempts WHERE delivery_id = ? ORDER BY id',
      [Number(deliveryId)],
    );

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'webhooks'));
    ids = (await loadData(dataSource, CLASS)) as typeof ids;
    const key = await createTestApiKey(dataSource, 'localhost');
    for (const owner of ['t', 'o'] as const) {
      const token = await createTestToken(dataSource, Number(ids.users[owner]), key.id);
      credentials[owner] = `apiKey=${key.secret}&accessToken=${token}`;
    }
    receiver = new WebhookReceiver();
    base = await receiver.start();
    app = await startTestApp(dataSource, {
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_RETRY_BASE_MS: '100',
      WEBHOOK_DELIVERY_ENABLED: 'true',
    });
  });

  afterAll(async () => {
    await app?.close();
    await receiver?.close();
    await close?.();
  });

  it('delivers every event type with its documented payload, signed, to its owner only', async () => {
    await endpoint('t', '/teacher');
    await endpoint('o', '/other');
    const quizId = await addQuiz();
    const sessionId = await addSession('a');
    expect((await post('addAnswers', answers(sessionId, 'a', 0))).status).toBe(200);
    const [quiz, session, recorded] = ['quiz.created', 'session.created', 'answers.recorded'];
    let got = await receiver.waitFor('/teacher', 3);
    const bodies = got.map((request) => verified('/teacher', request));
    const byType = new Map(bodies.map((body) => [body.type, body]));
    expect(byType.get(quiz)).toEqual({
      type: quiz,
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as unknown,
      data: { quizId },
    });
    expect(byType.get(session)?.data).toEqual({ sessionId, quizIds: [Number(ids.quizzes.q)] });
    expect(byType.get(recorded)?.data).toEqual({
      sessionId,
      batches: 1,
      answers: 1,
      userIds: [Number(ids.users.a)],
    });
    for (const request of got) {
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['webhook-id']).toMatch(/^msg_/);
    }
    // The pupil who attended the session is erased: her teacher's endpoint is told.
    await eraseUser(app.deps, Number(ids.users.a), { erasedBy: 'webhook-test' });
    got = await receiver.waitFor('/teacher', 4);
    expect(verified('/teacher', got[3] as ReceivedWebhook)).toMatchObject({
      type: 'user.erased',
      data: { userId: Number(ids.users.a) },
    });
    // Another owner's endpoint heard none of it; its own quiz reaches it, and only it.
    expect(receiver.at('/other')).toEqual([]);
    const otherQuiz = await addQuiz('o');
    const [own] = await receiver.waitFor('/other', 1);
    expect(verified('/other', own as ReceivedWebhook)).toMatchObject({
      data: { quizId: otherQuiz },
    });
    await sleep(500);
    expect(receiver.at('/teacher')).toHaveLength(4);
    // Logs name ids and outcomes, never the receiver's address, a secret or a payload.
    expect(app.logs.text).toContain('webhook attempt');
    expect(app.logs.text).not.toContain(base);
    for (const secret of secrets.values()) expect(app.logs.text).not.toContain(secret.slice(6));
    expect(app.logs.text).not.toContain('"quizIds"');
  });

  it("coalesces a session's answers batches within 1 s into one event", async () => {
    await endpoint('t', '/coalesced', 'answers.recorded');
    const sessionId = await addSession();
    const first = post('addAnswers', answers(sessionId, 'b', 0));
    expect((await first).status).toBe(200);
    expect((await post('addAnswers', answers(sessionId, 'b', 1))).status).toBe(200);
    const [event] = await receiver.waitFor('/coalesced', 1);
    await sleep(1500);
    expect(receiver.at('/coalesced')).toHaveLength(1);
    expect(verified('/coalesced', event as ReceivedWebhook)).toMatchObject({
      type: 'answers.recorded',
      data: { sessionId, batches: 2, answers: 2, userIds: [Number(ids.users.b)] },
    });
  });

  it('retries a failing receiver with the same webhook-id, recording every attempt', async () => {
    receiver.script('/flaky', [{ status: 500 }, { status: 500 }, { status: 200 }]);
    const id = await endpoint('t', '/flaky', 'quiz.created');
    await addQuiz();
    const got = await receiver.waitFor('/flaky', 3);
    expect(got).toHaveLength(3);
    expect(new Set(got.map((request) => request.headers['webhook-id'])).size).toBe(1);
    got.forEach((request) => verified('/flaky', request));
    await sleep(300);
    const [delivery] = await deliveriesOf(id);
    expect(delivery).toMatchObject({
      status: 'delivered',
      message_id: got[0]?.headers['webhook-id'],
    });
    expect(Number(delivery?.attempts)).toBe(3);
    expect((await attemptsOf(delivery?.id)).map((a) => [a.outcome, Number(a.status_code)])).toEqual(
      [
        ['retry', 500],
        ['retry', 500],
        ['delivered', 200],
      ],
    );
  });

  it('waits at least what Retry-After asks after a 429', async () => {
    receiver.script('/busy', [{ status: 429, headers: { 'retry-after': '1' } }, { status: 204 }]);
    const id = await endpoint('t', '/busy', 'quiz.created');
    await addQuiz();
    const got = await receiver.waitFor('/busy', 2);
    expect(got).toHaveLength(2);
    expect(
      (got[1] as ReceivedWebhook).receivedMs - (got[0] as ReceivedWebhook).receivedMs,
    ).toBeGreaterThanOrEqual(1000);
    await sleep(300);
    const [delivery] = await deliveriesOf(id);
    expect(delivery?.status).toBe('delivered');
    expect((await attemptsOf(delivery?.id)).map((a) => a.outcome)).toEqual(['retry', 'delivered']);
  });

  it('ends a delivery answered 400 as failed after one attempt', async () => {
    receiver.script('/refusing', [{ status: 400 }]);
    const id = await endpoint('t', '/refusing', 'quiz.created');
    await addQuiz();
    await receiver.waitFor('/refusing', 1);
    await sleep(1000);
    expect(receiver.at('/refusing')).toHaveLength(1);
    const [delivery] = await deliveriesOf(id);
    expect(delivery?.status).toBe('failed');
    expect(Number(delivery?.attempts)).toBe(1);
    expect(await attemptsOf(delivery?.id)).toEqual([
      expect.objectContaining({ outcome: 'failed', error: 'HTTP 400' }),
    ]);
  });

  it('disables an endpoint failing for more than 3 days, which then receives nothing', async () => {
    receiver.script('/down', [{ status: 503 }]);
    const id = await endpoint('t', '/down', 'quiz.created');
    const longAgo = new Date(Date.now() - 3 * DAY_MS - 60_000);
    await dataSource.query('UPDATE webhook_endpoints SET failing_since = ? WHERE id = ?', [
      backend === 'SQLite' ? longAgo.toISOString().replace('T', ' ').slice(0, 23) : longAgo,
      id,
    ]);
    await addQuiz();
    await receiver.waitFor('/down', 1);
    await sleep(800);
    const [endpointRow] = await rows(
      'SELECT disabled_at, disabled_reason FROM webhook_endpoints WHERE id = ?',
      [id],
    );
    expect(endpointRow?.disabled_at).not.toBeNull();
    expect(endpointRow?.disabled_reason).toMatch(/3 days/);
    const [delivery] = await deliveriesOf(id);
    expect(delivery?.status).toBe('failed');
    await addQuiz();
    await sleep(1500);
    expect(receiver.at('/down')).toHaveLength(1);
    expect(await deliveriesOf(id)).toHaveLength(1);
  });

  it('refuses an address the guard now refuses, without connecting, and records why', async () => {
    // localhost is not an allowed host: plain http to it is refused at the attempt.
    const id = await endpoint('t', '/refused', 'quiz.created');
    await dataSource.query('UPDATE webhook_endpoints SET url = ? WHERE id = ?', [
      `${base.replace('127.0.0.1', 'localhost')}/refused`,
      id,
    ]);
    await addQuiz();
    await sleep(1200);
    expect(receiver.at('/refused')).toEqual([]);
    const [delivery] = await deliveriesOf(id);
    expect(delivery?.status).toBe('failed');
    const [attempt] = await attemptsOf(delivery?.id);
    expect(attempt?.outcome).toBe('failed');
    expect(attempt?.status_code).toBeNull();
    expect(String(attempt?.error)).toMatch(/^address refused: .*https/);
  });

  it('signs with the previous secret too while a rotation lasts', async () => {
    const id = await endpoint('t', '/rotating', 'quiz.created');
    const previous = newWebhookSecret();
    const until = new Date(Date.now() + DAY_MS);
    await dataSource.query(
      'UPDATE webhook_endpoints SET previous_secret_sealed = ?, previous_secret_until = ? WHERE id = ?',
      [
        createSecretBox(app.config.webhooks.secretKey).seal(previous, String(id)),
        backend === 'SQLite' ? until.toISOString().replace('T', ' ').slice(0, 19) : until,
        id,
      ],
    );
    await addQuiz();
    const [request] = await receiver.waitFor('/rotating', 1);
    expect(request?.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    verified('/rotating', request as ReceivedWebhook);
    new Webhook(previous).verify(
      request?.body as string,
      request?.headers as Record<string, string>,
    );
  });

  it('writes no event for a refused write', async () => {
    const before = receiver.received.length;
    const refused = await post('addAnswers', {
      sessionId: String(await addSession()),
      answers: [{ userId: ids.users.b, quizId: '999999', questionIndex: 0, answer: true }],
    });
    expect(refused.status).toBe(400);
    // The session.created of the session itself is the only event.
    await sleep(2000);
    const after = receiver.received
      .slice(before)
      .map((request) => JSON.parse(request.body) as Json);
    expect(after.map((body) => body.type)).toEqual(['session.created']);
    expect(await rows('SELECT id FROM webhook_outbox')).toEqual([]);
  });

  it('purges deliveries finished more than 30 days ago, their attempts and events', async () => {
    const id = await endpoint('t', '/old', 'quiz.created');
    await addQuiz();
    await receiver.waitFor('/old', 1);
    await sleep(300);
    const [delivery] = await deliveriesOf(id);
    expect(delivery?.status).toBe('delivered');
    const [{ event_id: eventId }] = (await rows(
      'SELECT event_id FROM webhook_deliveries WHERE id = ?',
      [Number(delivery?.id)],
    )) as [Json];
    const old = Date.now() - 31 * DAY_MS;
    await dataSource.query(
      'UPDATE webhook_deliveries SET finished_ms = ?, created_ms = ? WHERE event_id = ?',
      [old, old, Number(eventId)],
    );
    await dataSource.query('UPDATE webhook_events SET created_ms = ? WHERE id = ?', [
      old,
      Number(eventId),
    ]);
    const count = async (table: string) =>
      Number(((await rows(`SELECT COUNT(*) AS n FROM ${table}`)) as [Json])[0].n);
    const before = {
      deliveries: await count('webhook_deliveries'),
      events: await count('webhook_events'),
    };
    const purged = await purgeWebhookHistory(app.deps);
    expect(purged).toBeGreaterThanOrEqual(2);
    expect(await rows('SELECT id FROM webhook_events WHERE id = ?', [Number(eventId)])).toEqual([]);
    expect(
      await rows('SELECT id FROM webhook_deliveries WHERE event_id = ?', [Number(eventId)]),
    ).toEqual([]);
    expect(await attemptsOf(delivery?.id)).toEqual([]);
    expect(await count('webhook_events')).toBe(before.events - 1);
    expect(await count('webhook_deliveries')).toBeLessThan(before.deliveries);
    expect(await count('webhook_deliveries')).toBeGreaterThan(0);
  });

  it('shows deliveries by outcome and the queue in /metrics', async () => {
    await sleep(300);
    const text = await (await app.get('/metrics')).text();
    const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1]);
    expect(
      value(/^quiz_webhook_deliveries_total\{outcome="delivered"\} (\d+)/m),
    ).toBeGreaterThanOrEqual(10);
    expect(
      value(/^quiz_webhook_deliveries_total\{outcome="failed"\} (\d+)/m),
    ).toBeGreaterThanOrEqual(2);
    expect(value(/^quiz_webhook_attempts_total\{outcome="retry"\} (\d+)/m)).toBeGreaterThanOrEqual(
      3,
    );
    expect(value(/^quiz_webhook_queue_depth (\d+)/m)).toBe(0);
    expect(value(/^quiz_webhook_oldest_pending_age_seconds (\S+)/m)).toBe(0);
  });
});

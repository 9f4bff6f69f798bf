import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap } from '../../src/data/import/import-document';
import { databaseOf } from '../../src/db/database';
import { insertWebhookEndpoint } from '../../src/db/webhook-endpoints.store';
import { createSecretBox } from '../../src/security/secret-box';
import { newWebhookSecret } from '../../src/services/webhooks/webhook-signing';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openGaleraTestDatabase, openOnGaleraNode } from '../helpers/database';
import { LIVE_CLASS } from '../helpers/fixtures';

/**
 * Webhooks on two instances over two Galera nodes (contract.md §16): both dispatch the outbox
 * and claim deliveries at once, through certification conflicts. Nothing is lost (every session
 * and every answer written through either instance reaches the receiver, signed), nothing is
 * invented (the answers an event counts add up to those written, no more), and every attempt is
 * sent once: the receiver sees each message once, or twice when it failed the first attempt on
 * purpose, exactly as many times as the attempts the database recorded.
 */

const SESSIONS = 6;
const BATCHES = 5;
const PUPILS = 10;
const WAIT_MS = 90_000;

type Json = Record<string, unknown>;
interface Received {
  id: string;
  body: string;
  headers: IncomingHttpHeaders;
}

describe('webhooks from two instances on two Galera nodes', () => {
  const closers: (() => Promise<void>)[] = [];
  const received: Received[] = [];
  const failedOnce = new Set<string>();
  let source: DataSource;
  let a: TestApp;
  let b: TestApp;
  let ids: IdMap;
  let credentials: string;
  let secret: string;
  let receiver: Server;

  beforeAll(async () => {
    const cluster = await openGaleraTestDatabase('webhooks');
    closers.push(cluster.close);
    source = cluster.dataSource;
    ids = await loadData(source, LIVE_CLASS);
    const key = await createTestApiKey(source, 'localhost');
    const token = await createTestToken(source, Number(ids.users.t), key.id);
    credentials = `apiKey=${encodeURIComponent(key.secret)}&accessToken=${encodeURIComponent(token)}`;
    const onB = await openOnGaleraNode(cluster.db, 1);
    closers.unshift(() => (onB.isInitialized ? onB.destroy() : Promise.resolve()));

    // Every third message fails its first attempt: its retry may be claimed by either instance.
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const id = String(req.headers['webhook-id']);
        received.push({ id, body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
        const fail = !failedOnce.has(id) && received.length % 3 === 0;
        if (fail) failedOnce.add(id);
        res.writeHead(fail ? 500 : 204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    closers.unshift(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
    const env = {
      WEBHOOK_DELIVERY_ENABLED: 'true',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_RETRY_BASE_MS: '100',
      GRAPHQL_MAX_COST: '500000',
    };
    [a, b] = await Promise.all([startTestApp(source, env), startTestApp(onB, env)]);
    closers.unshift(
      () => a.close(),
      () => b.close(),
    );
    const { port } = receiver.address() as AddressInfo;
    secret = newWebhookSecret();
    const box = createSecretBox(a.config.webhooks.secretKey);
    await insertWebhookEndpoint(
      databaseOf(source),
      {
        ownerId: Number(ids.users.t),
        url: `http://127.0.0.1:${port}/hook`,
        events: 'session.created,answers.recorded',
      },
      (id) => box.seal(secret, String(id)),
    );
  });

  afterAll(async () => {
    for (const close of closers) await close().catch(() => undefined);
  });

  /**
   * A write as a client makes it: a 503 (the node busy or losing certification to the other
   * instance's delivery loop, more than the service's own retries absorb) is sent again after
   * its Retry-After, as the contract tells clients; anything else but 200 fails the test.
   */
  async function post(app: TestApp, operation: string, body: Json): Promise<Json> {
    for (let attempt = 1; ; attempt += 1) {
      const res = await app.get(`/${operation}?${credentials}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as Json;
      if (res.status === 503 && attempt < 5) {
        await new Promise((resolve) =>
          setTimeout(resolve, 1000 * Number(res.headers.get('retry-after') ?? 1)),
        );
        continue;
      }
      expect([operation, res.status, json.message]).toEqual([operation, 200, undefined]);
      return json;
    }
  }

  const pending = async () =>
    Number(
      (
        (await source.query(
          `SELECT (SELECT COUNT(*) FROM webhook_outbox)
                + (SELECT COUNT(*) FROM webhook_deliveries WHERE status <> 'delivered') AS n`,
        )) as { n: unknown }[]
      )[0]?.n,
    );

  it('delivers every change once per attempt, whichever instance claims it', async () => {
    const pupils = Array.from({ length: PUPILS }, (_unused, i) => ids.users[`p${i + 1}`]);
    const sessions: number[] = [];
    for (let s = 0; s < SESSIONS; s += 1) {
      const made = await post(s % 2 === 0 ? a : b, 'addSession', {
        session: { title: `Galera ${s}`, quizIds: [ids.quizzes.q1], attendeeIds: pupils },
      });
      sessions.push(Number(made.id));
    }
    // Batches of all sessions through both instances at once, one question per batch.
    await Promise.all(
      sessions.map(async (sessionId, s) => {
        for (let question = 0; question < BATCHES; question += 1) {
          const answers = pupils.map((userId) => ({
            userId,
            quizId: ids.quizzes.q1,
            questionIndex: question,
            answer: true,
          }));
          const made = await post((s + question) % 2 === 0 ? a : b, 'addAnswers', {
            sessionId,
            answers,
          });
          expect(made.inserted).toBe(PUPILS);
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
      }),
    );

    const deadline = Date.now() + WAIT_MS;
    while ((await pending()) > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(await pending()).toBe(0);

    // Signed, and verified by the Standard Webhooks library.
    const verifier = new Webhook(secret);
    const bodies = new Map<string, Json>();
    for (const message of received) {
      const body = verifier.verify(message.body, {
        'webhook-id': String(message.headers['webhook-id']),
        'webhook-timestamp': String(message.headers['webhook-timestamp']),
        'webhook-signature': String(message.headers['webhook-signature']),
      }) as Json;
      bodies.set(message.id, body);
    }

    // Nothing lost, nothing invented.
    const events = [...bodies.values()];
    const created = events.filter((event) => event.type === 'session.created');
    expect(created.map((event) => (event.data as Json).sessionId).sort()).toEqual(
      [...sessions].sort(),
    );
    for (const sessionId of sessions) {
      const answered = events
        .filter((event) => event.type === 'answers.recorded')
        .map((event) => event.data as Json)
        .filter((data) => data.sessionId === sessionId);
      expect(answered.reduce((n, data) => n + Number(data.answers), 0)).toBe(BATCHES * PUPILS);
      expect(answered.reduce((n, data) => n + Number(data.batches), 0)).toBe(BATCHES);
    }

    // Each attempt sent once: the receiver's count of a message is the attempts recorded.
    const hits = new Map<string, number>();
    for (const { id } of received) hits.set(id, (hits.get(id) ?? 0) + 1);
    const recorded = (await source.query(
      `SELECT e.message_id AS id, COUNT(t.id) AS attempts
         FROM webhook_events e
         JOIN webhook_deliveries d ON d.event_id = e.id
         JOIN webhook_attempts t ON t.delivery_id = d.id
        GROUP BY e.message_id`,
    )) as { id: string; attempts: unknown }[];
    const attempts = new Map(recorded.map((row) => [row.id, Number(row.attempts)]));
    expect(Object.fromEntries(hits)).toEqual(Object.fromEntries(attempts));
    for (const [id, count] of hits) expect([id, count]).toEqual([id, failedOnce.has(id) ? 2 : 1]);
    expect(failedOnce.size).toBeGreaterThan(0);
  });
});

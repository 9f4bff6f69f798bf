import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import { databaseOf } from '../../src/db/database';
import { insertWebhookEndpoint } from '../../src/db/webhook-endpoints.store';
import { createSecretBox } from '../../src/security/secret-box';
import { newWebhookSecret } from '../../src/services/webhooks/webhook-signing';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process';
import { WebhookReceiver, type ReceivedWebhook } from '../helpers/webhook-receiver';

/**
 * Webhook delivery across processes (contract.md §16): an acknowledged write is delivered even
 * when the instance that took it is killed before sending, by the next one to start; two
 * instances sharing one MariaDB database send every message exactly once per attempt.
 */

const SECRET_KEY = randomBytes(32).toString('hex');

type Json = Record<string, unknown>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('webhook delivery across service processes', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let databaseUrl: string;
  let receiver: WebhookReceiver;
  let base: string;
  let credentials: string;
  let teacherId: number;
  let quizId: string;
  let pupilId: string;
  const processes: ServiceProcess[] = [];
  const secrets = new Map<string, string>();

  const start = async (env: Record<string, string> = {}) => {
    const started = await startServiceProcess({
      DATABASE_URL: databaseUrl,
      MIGRATE_ON_START: 'false',
      SEED_DEMO: 'false',
      RATE_LIMIT_POINTS: '1000000',
      WEBHOOK_SECRET_KEY: SECRET_KEY,
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_RETRY_BASE_MS: '100',
      ...env,
    });
    processes.push(started);
    return started;
  };

  async function endpoint(path: string, events: string): Promise<void> {
    const secret = newWebhookSecret();
    const box = createSecretBox(Buffer.from(SECRET_KEY, 'hex'));
    await insertWebhookEndpoint(
      databaseOf(dataSource),
      { ownerId: teacherId, url: `${base}${path}`, events },
      (id) => box.seal(secret, String(id)),
    );
    secrets.set(path, secret);
  }

  async function post(instance: ServiceProcess, operation: string, body: Json) {
    const res = await fetch(`${instance.url}/${operation}?${credentials}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  }

  const verified = (path: string, request: ReceivedWebhook) =>
    new Webhook(secrets.get(path) as string).verify(request.body, request.headers) as Json;

  const countById = (requests: readonly ReceivedWebhook[]) => {
    const counts = new Map<string, number>();
    for (const request of requests) {
      const id = request.headers['webhook-id'] as string;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  };

  beforeAll(async () => {
    const opened = await openTestDatabase('webhook_crash');
    ({ dataSource, close } = opened);
    databaseUrl = opened.db.url;
    const ids = (await loadData(dataSource, {
      users: [
        { ref: 't', email: 't@school.example', firstName: 'Tess', lastName: 'Teacher' },
        { ref: 'a', email: 'a@school.example', firstName: 'Ana', lastName: 'Pupil' },
      ],
      groups: [{ ref: 'g', name: 'Class', owner: 't', members: ['a'] }],
      quizzes: [
        {
          ref: 'q',
          author: 't',
          title: 'Capitals',
          visibility: 'public',
          survey: false,
          tags: ['geo', 'hooks'],
          questions: [{ title: 'Sure?', type: 'TrueFalse', goodAnswer: true }],
        },
      ],
    })) as { users: Record<string, string>; quizzes: Record<string, string> };
    teacherId = Number(ids.users.t);
    quizId = ids.quizzes.q as string;
    pupilId = ids.users.a as string;
    const key = await createTestApiKey(dataSource, 'localhost');
    credentials = `apiKey=${key.secret}&accessToken=${await createTestToken(dataSource, teacherId, key.id)}`;
    receiver = new WebhookReceiver();
    base = await receiver.start();
  });

  afterAll(async () => {
    await Promise.all(processes.map((instance) => instance.stop()));
    await receiver?.close();
    await close?.();
  });

  it('delivers once, after a restart, what a killed instance acknowledged', async () => {
    await endpoint('/crash', 'session.created,answers.recorded');
    // The first instance takes the writes but sends nothing, and is killed without a shutdown.
    const first = await start({ WEBHOOK_DELIVERY_ENABLED: 'false' });
    const session = await post(first, 'addSession', {
      session: { title: 'Crash', quizIds: [quizId], attendeeIds: [pupilId] },
    });
    expect(session.status).toBe(200);
    const written = await post(first, 'addAnswers', {
      sessionId: session.body.id,
      answers: [{ userId: pupilId, quizId, questionIndex: 0, answer: true }],
    });
    expect(written.status).toBe(200);
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await exited;
    processes.splice(processes.indexOf(first), 1);
    expect(receiver.at('/crash')).toEqual([]);
    const queued = (await dataSource.query(
      'SELECT type FROM webhook_outbox ORDER BY id',
    )) as Json[];
    expect(queued.map((row) => row.type)).toEqual(['session.created', 'answers.recorded']);

    await start();
    await receiver.waitFor('/crash', 2, 30_000);
    await sleep(2000);
    const got = receiver.at('/crash');
    expect(got.map((request) => verified('/crash', request).type).sort()).toEqual([
      'answers.recorded',
      'session.created',
    ]);
    expect([...countById(got).values()]).toEqual([1, 1]);
    expect(await dataSource.query('SELECT id FROM webhook_outbox')).toEqual([]);
  });

  it('sends each message once per attempt from two instances sharing the database', async () => {
    await endpoint('/steady', 'quiz.created');
    await endpoint('/flaky', 'quiz.created');
    receiver.failFirstAttempts('/flaky');
    const [one, two] = [processes.at(-1) as ServiceProcess, await start()];
    const EVENTS = 50;
    const made = await Promise.all(
      Array.from({ length: EVENTS }, (_unused, index) =>
        post(index % 2 === 0 ? one : two, 'addQuiz', {
          quiz: { title: `Quiz ${index}`, visibility: 'public', survey: false, tags: ['a', 'b'] },
        }),
      ),
    );
    expect(made.every((result) => result.status === 200)).toBe(true);
    await receiver.waitFor('/steady', EVENTS, 60_000);
    await receiver.waitFor('/flaky', 2 * EVENTS, 60_000);
    await sleep(2000);
    const steady = countById(receiver.at('/steady'));
    const flaky = countById(receiver.at('/flaky'));
    expect(steady.size).toBe(EVENTS);
    expect([...steady.values()].every((count) => count === 1)).toBe(true);
    expect(flaky.size).toBe(EVENTS);
    expect([...flaky.values()].every((count) => count === 2)).toBe(true);
    expect(new Set([...steady.keys()])).toEqual(new Set([...flaky.keys()]));
    const quizIds = receiver.at('/steady').map((request) => verified('/steady', request).data);
    expect(new Set(quizIds.map((data) => (data as Json).quizId)).size).toBe(EVENTS);
    // The database recorded exactly the attempts the receiver saw.
    const [{ n: attempts }] = (await dataSource.query(
      `SELECT COUNT(*) AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
        JOIN webhook_events v ON v.id = d.event_id WHERE v.type = 'quiz.created'`,
    )) as [Json];
    expect(Number(attempts)).toBe(3 * EVENTS);
    const statuses = (await dataSource.query(
      `SELECT status, COUNT(*) AS n FROM webhook_deliveries GROUP BY status`,
    )) as Json[];
    expect(statuses.map((row) => [row.status, Number(row.n)])).toEqual([
      ['delivered', 2 + 2 * EVENTS],
    ]);
  });
});

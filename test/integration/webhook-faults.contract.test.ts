import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap, ImportDocument } from '../../src/data/import/import-document';
import { outboxEntry } from '../../src/db/sql/webhook-outbox.sql';
import { insertWebhookEndpoint } from '../../src/db/webhook-endpoints.store';
import { createSecretBox } from '../../src/security/secret-box';
import { runDeliveryPass } from '../../src/services/webhooks/webhook-delivery.worker';
import { dispatchOutbox, USERS_PER_EVENT } from '../../src/services/webhooks/webhook-dispatcher';
import { newWebhookSecret } from '../../src/services/webhooks/webhook-signing';
import { startTestApp, type TestApp } from '../helpers/app';
import { BACKENDS, openBackend } from '../helpers/database';

/**
 * Webhook delivery when things go wrong (contract.md §16), through the dispatcher and the worker
 * of a running app with its own loop off: a host that does not resolve at a delivery is retried,
 * not failed; a backlog of one session's answers makes one event per second of changes, each
 * naming at most USERS_PER_EVENT users, not one event for all.
 */

const CLASS: ImportDocument = {
  users: [{ ref: 't', email: 't@school.example', firstName: 'Tess', lastName: 'Teacher' }],
};

describe.each(BACKENDS)('webhook faults on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let ids: IdMap;

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'webhook_faults'));
    ids = await loadData(dataSource, CLASS);
    app = await startTestApp(dataSource, { WEBHOOK_RETRY_BASE_MS: '100' });
  });

  afterAll(async () => {
    await app.close();
    await close();
  });

  const teacher = () => Number(ids.users.t);

  async function endpoint(url: string, events: string): Promise<number> {
    const box = createSecretBox(app.config.webhooks.secretKey);
    const secret = newWebhookSecret();
    const saved = await insertWebhookEndpoint(
      app.deps.db,
      { ownerId: teacher(), url, events },
      (id) => box.seal(secret, String(id)),
    );
    return saved.id;
  }

  async function write(statement: { sql: string; params: unknown[] }) {
    await dataSource.query(statement.sql, statement.params);
  }

  const rows = <T>(sql: string, params: unknown[] = []) =>
    dataSource.query(sql, params) as Promise<T[]>;

  it('retries a delivery whose host does not resolve, and records why', async () => {
    // `.invalid` never resolves (RFC 6761): at the attempt, the lookup fails.
    const id = await endpoint('https://no-such-host.invalid/hook', 'quiz.created');
    await write(outboxEntry(app.deps.db.dialect, 'quiz.created', 1, teacher(), { quizId: 1 }, 0));
    expect(await dispatchOutbox(app.deps)).toMatchObject({ events: 1, deliveries: 1 });
    expect(await runDeliveryPass(app.deps)).toMatchObject({ retry: 1, failed: 0 });
    const [delivery] = await rows<{ status: string; attempts: unknown }>(
      'SELECT status, attempts FROM webhook_deliveries WHERE endpoint_id = ?',
      [id],
    );
    expect([delivery?.status, Number(delivery?.attempts)]).toEqual(['pending', 1]);
    const attempts = await rows<{ outcome: string; error: string }>(
      `SELECT t.outcome, t.error FROM webhook_attempts t
         JOIN webhook_deliveries d ON d.id = t.delivery_id WHERE d.endpoint_id = ?`,
      [id],
    );
    expect(attempts).toEqual([
      { outcome: 'retry', error: expect.stringContaining('address not resolved') },
    ]);
    await dataSource.query('DELETE FROM webhook_endpoints WHERE id = ?', [id]);
  });

  it('makes one event per second of a backlog, each naming at most the users allowed', async () => {
    await endpoint('https://receiver.example/hook', 'answers.recorded');
    const { dialect } = app.deps.db;
    const sessionId = 4242;
    const entry = (userIds: number[], at: number) =>
      write(
        outboxEntry(
          dialect,
          'answers.recorded',
          sessionId,
          teacher(),
          { answers: userIds.length, userIds },
          at,
        ),
      );
    // An hour-old backlog: three batches within a second, one two seconds later, then two
    // large batches together naming more users than one event may.
    const start = Date.now() - 3_600_000;
    await entry([1, 2], start);
    await entry([2, 3], start + 300);
    await entry([4], start + 900);
    await entry([5], start + 2_000);
    const many = (from: number) => Array.from({ length: 3_000 }, (_unused, i) => from + i);
    await entry(many(10_000), start + 5_000);
    await entry(many(20_000), start + 5_100);

    expect(await dispatchOutbox(app.deps)).toMatchObject({ events: 4, entries: 6, failures: 0 });
    const bodies = (
      await rows<{ body: string }>(
        "SELECT body FROM webhook_events WHERE type = 'answers.recorded' ORDER BY id",
      )
    ).map((row) => JSON.parse(row.body) as { timestamp: string; data: Record<string, unknown> });
    expect(bodies.map((body) => body.data.batches)).toEqual([3, 1, 1, 1]);
    expect(bodies[0]?.data).toEqual({ sessionId, batches: 3, answers: 5, userIds: [1, 2, 3, 4] });
    expect(bodies[0]?.timestamp).toBe(new Date(start).toISOString());
    expect(bodies[1]?.data.userIds).toEqual([5]);
    for (const body of bodies) {
      expect((body.data.userIds as number[]).length).toBeLessThanOrEqual(USERS_PER_EVENT);
    }
    expect(bodies.slice(2).map((body) => (body.data.userIds as number[]).length)).toEqual([
      3_000, 3_000,
    ]);
    expect(await rows('SELECT id FROM webhook_outbox')).toEqual([]);
  });
});

import type { Browser } from 'playwright-core';
import type { DataSource } from 'typeorm';
import { databaseOf } from '../../src/db/database';
import { insertWebhookEndpoint } from '../../src/db/webhook-endpoints.store';
import { createSecretBox } from '../../src/security/secret-box';
import { newWebhookSecret } from '../../src/services/webhooks/webhook-signing';
import { startTestApp, type TestApp } from '../helpers/app';
import { createLoginUser, launchChromium, testOutputPath } from '../helpers/browser';
import { openTestDatabase } from '../helpers/database';
import { insertDelivery, insertEvent } from '../helpers/webhooks';

/**
 * The key manager's webhook section (contract.md §16) in Chromium: the signed-in user's
 * endpoints, enabled or disabled with the reason, and their recent deliveries; nobody else's,
 * and every value escaped.
 */

const EMAIL = 'hook-owner@example.test';
const PASSWORD = 'hook-owner-password-42';

describe('key manager: webhooks', () => {
  let dataSource: DataSource;
  let closeDb: () => Promise<void>;
  let app: TestApp;
  let browser: Browser;
  const endpoints: Record<string, number> = {};

  beforeAll(async () => {
    ({ dataSource, close: closeDb } = await openTestDatabase('browser_hooks'));
    const owner = (await createLoginUser(dataSource, EMAIL, PASSWORD)).id;
    const other = (await createLoginUser(dataSource, 'other-hooks@example.test', PASSWORD)).id;
    app = await startTestApp(dataSource, { WEBHOOK_DELIVERY_ENABLED: 'false' });
    const box = createSecretBox(app.config.webhooks.secretKey);
    const db = databaseOf(dataSource);
    const add = async (ownerId: number, url: string, events: string) =>
      (
        await insertWebhookEndpoint(db, { ownerId, url, events }, (id) =>
          box.seal(newWebhookSecret(), String(id)),
        )
      ).id;
    endpoints.gradebook = await add(
      owner,
      'https://gradebook.example/hooks?x=<b>',
      'answers.recorded',
    );
    endpoints.warehouse = await add(
      owner,
      'https://warehouse.example/in',
      'session.created,user.erased',
    );
    endpoints.other = await add(other, 'https://someone-else.example/hook', 'quiz.created');
    await dataSource.query(
      'UPDATE webhook_endpoints SET disabled_at = ?, disabled_reason = ? WHERE id = ?',
      [
        new Date(Date.UTC(2026, 10, 5, 8, 0, 0)),
        'failing for 3 days: <script>HTTP 500',
        endpoints.warehouse,
      ],
    );
    const t0 = Date.UTC(2026, 10, 2, 9, 0, 0);
    const event = await insertEvent(dataSource, 'msg_page_one', 'answers.recorded', t0);
    await insertDelivery(dataSource, {
      eventId: event,
      endpointId: endpoints.gradebook as number,
      status: 'delivered',
      createdMs: t0,
      dueMs: t0,
      finishedMs: t0 + 30_000,
      attempts: [
        { attemptedMs: t0, outcome: 'retry', statusCode: 503, durationMs: 40, error: 'HTTP 503' },
        {
          attemptedMs: t0 + 30_000,
          outcome: 'delivered',
          statusCode: 204,
          durationMs: 12,
          error: null,
        },
      ],
    });
    const pending = await insertEvent(dataSource, 'msg_page_two', 'answers.recorded', t0 + 60_000);
    await insertDelivery(dataSource, {
      eventId: pending,
      endpointId: endpoints.gradebook as number,
      status: 'pending',
      createdMs: t0 + 60_000,
      dueMs: t0 + 120_000,
      finishedMs: null,
      attempts: [
        {
          attemptedMs: t0 + 60_000,
          outcome: 'retry',
          statusCode: null,
          durationMs: 10_000,
          error: 'timeout after 10000 ms',
        },
      ],
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await closeDb();
  });

  it("lists the user's endpoints, why one is disabled, and their recent deliveries (Chromium)", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(`${app.url}/keys`);
      await page.fill('#email', EMAIL);
      await page.fill('#password', PASSWORD);
      await Promise.all([page.waitForSelector('#webhooks'), page.click('#login-submit')]);

      const gradebook = page.locator(`section[data-webhook-id="${endpoints.gradebook}"]`);
      expect(await gradebook.locator('.url').textContent()).toBe(
        'https://gradebook.example/hooks?x=<b>',
      );
      expect(await gradebook.locator('.state').textContent()).toBe('Enabled');
      expect(await gradebook.locator('.events').textContent()).toBe('Events: answers.recorded');
      const rows = gradebook.locator('table.deliveries tbody tr');
      expect(await rows.count()).toBe(2);
      // Newest first: the pending one, then the delivered one.
      expect(await rows.nth(0).locator('.status').textContent()).toBe('pending');
      expect(await rows.nth(0).locator('.last').textContent()).toBe('timeout after 10000 ms');
      expect(await rows.nth(1).locator('.status').textContent()).toBe('delivered');
      expect(await rows.nth(1).locator('.attempts').textContent()).toBe('2');
      expect(await rows.nth(1).locator('.last').textContent()).toBe('HTTP 204');
      expect(await rows.nth(1).locator('.event-type').textContent()).toBe('answers.recorded');

      const warehouse = page.locator(`section[data-webhook-id="${endpoints.warehouse}"]`);
      expect(await warehouse.locator('.state').textContent()).toBe(
        'Disabled since 2026-11-05 08:00:00 UTC: failing for 3 days: <script>HTTP 500',
      );
      expect(await warehouse.locator('.no-deliveries').isVisible()).toBe(true);
      // Escaped, not markup; another user's endpoint is not there; no secret is shown.
      expect(await page.locator('#webhooks script').count()).toBe(0);
      expect(await page.locator('#webhooks b').count()).toBe(0);
      expect(await page.locator(`section[data-webhook-id="${endpoints.other}"]`).count()).toBe(0);
      const html = await page.content();
      expect(html).not.toContain('someone-else.example');
      expect(html).not.toContain('whsec_');
      await page.locator('#webhooks-title').scrollIntoViewIfNeeded();
      await page.screenshot({ path: testOutputPath('key-manager-webhooks.png'), fullPage: true });
    } finally {
      await context.close();
    }
  });
});

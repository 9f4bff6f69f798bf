import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import type { DataSource } from 'typeorm';
import { Quiz } from '../../src/db/entities';
import { startTestApp, type TestApp } from '../helpers/app';
import { createLoginUser, launchChromium, loginPageUrl, testOutputPath } from '../helpers/browser';
import { createTestApiKey } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';

const EMAIL = 'teacher@example.test';
const PASSWORD = 'teacher-password-123';

/** The client web application: one static page the login page sends the browser back to. */
async function startCallbackSite(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith('/callback.html')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Callback</title><h1 id="top">Back in the app</h1>');
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('login page in a real browser', () => {
  let dataSource: DataSource;
  let closeDb: () => Promise<void>;
  let app: TestApp;
  let site: Awaited<ReturnType<typeof startCallbackSite>>;
  let browser: Browser;
  let apiKey: string;
  let userId: number;

  beforeAll(async () => {
    ({ dataSource, close: closeDb } = await openTestDatabase('browser_login'));
    userId = (await createLoginUser(dataSource, EMAIL, PASSWORD)).id;
    apiKey = (await createTestApiKey(dataSource, 'localhost')).secret;
    app = await startTestApp(dataSource);
    site = await startCallbackSite();
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await app?.close();
    await closeDb();
  });

  it('logs in, comes back to the app with a token, and the token adds a quiz', async () => {
    const redirectURL = `http://localhost:${site.port}/callback.html?from=test#top`;
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      const response = await page.goto(loginPageUrl(app.url, { apiKey, redirectURL }));
      expect(response?.status()).toBe(200);
      await page.fill('#email', EMAIL);
      await page.fill('#password', PASSWORD);
      await page.screenshot({ path: testOutputPath('login-page.png'), fullPage: true });

      await Promise.all([
        page.waitForURL(
          (url) => url.port === String(site.port) && url.pathname === '/callback.html',
        ),
        page.click('#login-submit'),
      ]);
      expect(await page.textContent('h1')).toBe('Back in the app');
      const landed = new URL(page.url());
      expect(landed.hostname).toBe('localhost');
      expect(landed.searchParams.get('from')).toBe('test');
      expect(landed.hash).toBe('#top');
      const issued = JSON.parse(landed.searchParams.get('accessToken') ?? 'null') as {
        token: string;
        expiresIn: number;
      };
      expect(typeof issued.token).toBe('string');
      expect(issued.expiresIn).toBe(app.config.tokenTtlSeconds);

      const res = await fetch(
        `${app.url}/addQuiz?apiKey=${encodeURIComponent(apiKey)}&accessToken=${encodeURIComponent(issued.token)}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            quiz: {
              title: 'Made from the browser',
              visibility: 'public',
              survey: false,
              tags: ['a', 'b'],
            },
          }),
        },
      );
      expect(res.status).toBe(200);
      expect(((await res.json()) as { title?: unknown }).title).toBe('Made from the browser');
      const stored = await dataSource
        .getRepository(Quiz)
        .findOneByOrFail({ title: 'Made from the browser' });
      expect(stored.authorId).toBe(userId);
    } finally {
      await context.close();
    }
  });

  it('shows the error on the page for a wrong password and stays there', async () => {
    const redirectURL = `http://localhost:${site.port}/callback.html`;
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      const loginUrl = loginPageUrl(app.url, { apiKey, redirectURL });
      await page.goto(loginUrl);
      await page.fill('#email', EMAIL);
      await page.fill('#password', 'not the password');
      const [response] = await Promise.all([
        page.waitForResponse((res) => res.request().method() === 'POST'),
        page.click('#login-submit'),
      ]);
      expect(response.status()).toBe(401);
      await page.waitForSelector('#error');
      expect(await page.textContent('#error')).toBe('The email or password is incorrect.');
      expect(page.url().startsWith(`${app.url}/authentication/login.php`)).toBe(true);
      expect(await page.inputValue('#email')).toBe(EMAIL);
    } finally {
      await context.close();
    }
  });
});

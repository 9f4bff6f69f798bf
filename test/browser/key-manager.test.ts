import type { Browser } from 'playwright-core';
import type { DataSource } from 'typeorm';
import { ApiKey } from '../../src/db/entities';
import { startTestApp, type TestApp } from '../helpers/app';
import {
  cookieHeader,
  cookiesSet,
  createLoginUser,
  errorText,
  inputValue,
  launchChromium,
  postForm,
  setCookieLine,
  testOutputPath,
  visit,
} from '../helpers/browser';
import { createTestApiKey } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';

const EMAIL = 'keyowner@example.test';
const PASSWORD = 'key-owner-password-42';
const OTHER_EMAIL = 'other@example.test';
const OTHER_PASSWORD = 'other-password-4242';

interface ProbeResult {
  status: number;
  type?: string;
  reason?: string;
}

describe('key manager', () => {
  let dataSource: DataSource;
  let closeDb: () => Promise<void>;
  let app: TestApp;
  let browser: Browser;
  let otherUserId: number;

  /**
   * Whether the REST API accepts a key: getQuiz on a quiz that does not exist answers 404
   * BadParameterException once the key passed, 401 when the key is refused.
   */
  async function probe(apiKey: string): Promise<ProbeResult> {
    const res = await fetch(
      `${app.url}/getQuiz?quizId=999999&apiKey=${encodeURIComponent(apiKey)}`,
    );
    const body = (await res.json()) as { type?: string; reason?: string };
    return { status: res.status, type: body.type, reason: body.reason };
  }

  /** Logs in through the key manager with fetch; returns the session cookie value. */
  async function logInWithFetch(email: string, password: string): Promise<string> {
    const form = await visit(`${app.url}/keys`);
    const res = await postForm(
      `${app.url}/keys/login`,
      { csrf: inputValue(form.html, 'csrf') ?? '', email, password },
      { cookie: cookieHeader(form.cookies) },
    );
    expect(res.status).toBe(303);
    return cookiesSet(res).quiz_session;
  }

  beforeAll(async () => {
    ({ dataSource, close: closeDb } = await openTestDatabase('browser_keys'));
    await createLoginUser(dataSource, EMAIL, PASSWORD);
    otherUserId = (await createLoginUser(dataSource, OTHER_EMAIL, OTHER_PASSWORD)).id;
    app = await startTestApp(dataSource, { LOGIN_MAX_FAILURES_PER_ACCOUNT: '3' });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await closeDb();
  });

  it('logs in, creates a key shown once, lists it, deletes it, and logs out (Chromium)', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(`${app.url}/keys`);
      expect(await page.isVisible('#login-form')).toBe(true);
      await page.fill('#email', EMAIL);
      await page.fill('#password', PASSWORD);
      await Promise.all([page.waitForSelector('#create-form'), page.click('#login-submit')]);
      expect(await page.isVisible('#no-keys')).toBe(true);

      await page.fill('#host', 'localhost');
      await page.fill('#label', 'Browser key');
      const [created] = await Promise.all([
        page.waitForResponse((res) => res.url().endsWith('/keys/create')),
        page.click('#create-submit'),
      ]);
      expect(created.status()).toBe(200);
      expect(created.headers()['cache-control']).toBe('no-store');
      const secret = (await page.textContent('#new-key'))?.trim() ?? '';
      expect(secret).toMatch(/^qk_[A-Za-z0-9_-]{43}$/);
      const stored = await dataSource
        .getRepository(ApiKey)
        .findOneByOrFail({ label: 'Browser key' });
      const row = page.locator(`tr[data-key-id="${stored.id}"]`);
      expect(await row.locator('.prefix').textContent()).toBe(`${secret.slice(0, 9)}…`);
      expect(await row.locator('.label').textContent()).toBe('Browser key');
      expect(await row.locator('.host').textContent()).toBe('localhost');

      // Shown once: the list page after a reload has no trace of the key itself.
      await page.goto(`${app.url}/keys`);
      expect(await page.content()).not.toContain(secret);
      expect(await page.isVisible('#new-key')).toBe(false);
      expect(await page.isVisible(`tr[data-key-id="${stored.id}"]`)).toBe(true);
      await page.screenshot({ path: testOutputPath('key-manager.png'), fullPage: true });

      const working = await probe(secret);
      expect(working.status).not.toBe(401);
      expect(working).toMatchObject({ status: 404, type: 'BadParameterException' });

      await Promise.all([
        page.waitForURL(`${app.url}/keys`),
        page.click(`tr[data-key-id="${stored.id}"] button`),
      ]);
      await page.waitForSelector('#no-keys');
      expect(await page.isVisible(`tr[data-key-id="${stored.id}"]`)).toBe(false);
      const refused = await probe(secret);
      expect(refused).toMatchObject({ status: 401, type: 'UnauthorizedOperationException' });
      expect(refused.reason).toMatch(/unknown or revoked/);

      const [session] = (await context.cookies(`${app.url}/keys`)).filter(
        (cookie) => cookie.name === 'quiz_session',
      );
      expect(session.httpOnly).toBe(true);
      expect(session.sameSite).toBe('Strict');
      expect(session.path).toBe('/keys');
      await Promise.all([page.waitForSelector('#login-form'), page.click('#logout')]);
      expect(page.url()).toBe(`${app.url}/keys`);

      // The old cookie value is dead on the server, not just forgotten by the browser.
      const reused = await visit(`${app.url}/keys`, {
        headers: { cookie: `quiz_session=${session.value}` },
      });
      expect(reused.res.status).toBe(200);
      expect(reused.html).toContain('id="login-form"');
      expect(reused.html).not.toContain('id="create-form"');
      const keysBefore = await dataSource.getRepository(ApiKey).count();
      const createWithOld = await postForm(
        `${app.url}/keys/create`,
        { csrf: 'x', host: 'localhost', label: 'after logout' },
        { cookie: `quiz_session=${session.value}` },
      );
      expect(createWithOld.status).toBe(401);
      expect(await createWithOld.text()).toContain('id="login-form"');
      expect(await dataSource.getRepository(ApiKey).count()).toBe(keysBefore);
    } finally {
      await context.close();
    }
  });

  it('sets the session cookie HttpOnly, SameSite=Strict, on the key manager path only', async () => {
    const form = await visit(`${app.url}/keys`);
    expect(form.res.headers.get('cache-control')).toBe('no-store');
    expect(form.res.headers.get('x-frame-options')).toBe('DENY');
    expect(form.res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    );
    const res = await postForm(
      `${app.url}/keys/login`,
      { csrf: inputValue(form.html, 'csrf') ?? '', email: EMAIL, password: PASSWORD },
      { cookie: cookieHeader(form.cookies) },
    );
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/keys');
    const line = setCookieLine(res, 'quiz_session') ?? '';
    expect(line).toMatch(/^quiz_session=qs_[A-Za-z0-9_-]{43};/);
    expect(line).toMatch(/; Path=\/keys(;|$)/);
    expect(line).toMatch(/; HttpOnly/i);
    expect(line).toMatch(/; SameSite=Strict/i);
    expect(line).toMatch(/; Max-Age=\d+/i);
  });

  it('refuses the login form without a valid CSRF pair, and wrong identifiers, on the page', async () => {
    const noCookie = await postForm(`${app.url}/keys/login`, {
      csrf: 'A'.repeat(43) + '.' + '0'.repeat(64),
      email: EMAIL,
      password: PASSWORD,
    });
    expect(noCookie.status).toBe(403);
    expect(cookiesSet(noCookie).quiz_session).toBeUndefined();
    expect(errorText(await noCookie.text())).toMatch(/form has expired/);

    const form = await visit(`${app.url}/keys`);
    const wrong = await postForm(
      `${app.url}/keys/login`,
      { csrf: inputValue(form.html, 'csrf') ?? '', email: EMAIL, password: 'wrong' },
      { cookie: cookieHeader(form.cookies) },
    );
    expect(wrong.status).toBe(401);
    expect(cookiesSet(wrong).quiz_session).toBeUndefined();
    expect(errorText(await wrong.text())).toBe('The email or password is incorrect.');
  });

  it('rate-limits the key manager login like the login page (429, Retry-After)', async () => {
    const email = 'limited@example.test';
    await createLoginUser(dataSource, email, 'limited-password-1');
    const attempt = async (password: string) => {
      const form = await visit(`${app.url}/keys`);
      return postForm(
        `${app.url}/keys/login`,
        { csrf: inputValue(form.html, 'csrf') ?? '', email, password },
        { cookie: cookieHeader(form.cookies) },
      );
    };
    for (let i = 0; i < 3; i += 1) expect((await attempt('wrong')).status).toBe(401);
    const limited = await attempt('limited-password-1');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(cookiesSet(limited).quiz_session).toBeUndefined();
    expect(errorText(await limited.text())).toMatch(
      /^Too many failed login attempts\. Try again in \d+ minutes?\.$/,
    );
  });

  it('refuses logged-in forms with a wrong CSRF token, shows bad hosts on the page, and keeps other users’ keys out of reach', async () => {
    const session = await logInWithFetch(EMAIL, PASSWORD);
    const cookie = `quiz_session=${session}`;
    const list = await visit(`${app.url}/keys`, { headers: { cookie } });
    const csrf = inputValue(list.html, 'csrf') ?? '';
    expect(csrf).toMatch(/^[0-9a-f]{64}$/);
    const keys = dataSource.getRepository(ApiKey);

    const before = await keys.count();
    const forged = await postForm(
      `${app.url}/keys/create`,
      { csrf: '0'.repeat(64), host: 'localhost', label: 'forged' },
      { cookie },
    );
    expect(forged.status).toBe(403);
    expect(errorText(await forged.text())).toMatch(/form has expired/);
    expect(await keys.count()).toBe(before);

    // Another session's token does not fit this session.
    const otherSession = await logInWithFetch(OTHER_EMAIL, OTHER_PASSWORD);
    const otherList = await visit(`${app.url}/keys`, {
      headers: { cookie: `quiz_session=${otherSession}` },
    });
    const crossed = await postForm(
      `${app.url}/keys/create`,
      { csrf: inputValue(otherList.html, 'csrf') ?? '', host: 'localhost', label: 'crossed' },
      { cookie },
    );
    expect(crossed.status).toBe(403);
    expect(await keys.count()).toBe(before);

    const badHost = await postForm(
      `${app.url}/keys/create`,
      { csrf, host: 'not a host/<b>', label: '<i>label</i>' },
      { cookie },
    );
    expect(badHost.status).toBe(400);
    const badHtml = await badHost.text();
    expect(errorText(badHtml)).toMatch(/^The host must be a domain name or an IP address/);
    expect(badHtml).not.toContain('<b>');
    expect(badHtml).not.toContain('<i>label');
    expect(inputValue(badHtml, 'label')).toBe('<i>label</i>');
    expect(await keys.count()).toBe(before);

    const othersKey = await createTestApiKey(dataSource, 'localhost', otherUserId);
    const deleteOthers = await postForm(
      `${app.url}/keys/${othersKey.id}/delete`,
      { csrf },
      { cookie },
    );
    expect(deleteOthers.status).toBe(404);
    expect((await keys.findOneByOrFail({ id: othersKey.id })).revokedAt).toBeNull();

    const mine = await postForm(
      `${app.url}/keys/create`,
      { csrf, host: 'school.example', label: 'mine' },
      { cookie },
    );
    expect(mine.status).toBe(200);
    const mineKey = await keys.findOneByOrFail({ label: 'mine' });
    const forgedDelete = await postForm(
      `${app.url}/keys/${mineKey.id}/delete`,
      { csrf: inputValue(otherList.html, 'csrf') ?? '' },
      { cookie },
    );
    expect(forgedDelete.status).toBe(403);
    expect((await keys.findOneByOrFail({ id: mineKey.id })).revokedAt).toBeNull();
    const deleted = await postForm(`${app.url}/keys/${mineKey.id}/delete`, { csrf }, { cookie });
    expect(deleted.status).toBe(303);
    expect((await keys.findOneByOrFail({ id: mineKey.id })).revokedAt).not.toBeNull();
  });

  it('leaves unknown paths to the JSON error model', async () => {
    const res = await fetch(`${app.url}/keys/nothing-here`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(((await res.json()) as { type?: string }).type).toBe('UnsupportedRequestException');
  });
});

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
import { openSqliteTestDatabase, openTestDatabase } from '../helpers/database';
import { checkPostRedirectGet, logInToKeyManager, probeKey } from '../helpers/key-manager';

const EMAIL = 'keyowner@example.test';
const PASSWORD = 'key-owner-password-42';
const OTHER_EMAIL = 'other@example.test';
const OTHER_PASSWORD = 'other-password-4242';

describe('key manager', () => {
  let dataSource: DataSource;
  let closeDb: () => Promise<void>;
  let app: TestApp;
  let browser: Browser;
  let otherUserId: number;
  let ownerId: number;

  const probe = (apiKey: string) => probeKey(app.url, apiKey);
  const logInWithFetch = (email: string, password: string) =>
    logInToKeyManager(app.url, email, password);

  beforeAll(async () => {
    ({ dataSource, close: closeDb } = await openTestDatabase('browser_keys'));
    ownerId = (await createLoginUser(dataSource, EMAIL, PASSWORD)).id;
    otherUserId = (await createLoginUser(dataSource, OTHER_EMAIL, OTHER_PASSWORD)).id;
    app = await startTestApp(dataSource, { LOGIN_MAX_FAILURES_PER_ACCOUNT: '3' });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await closeDb();
  });

  it('logs in, creates a key shown once with a copy button, survives a reload, confirms before deleting, and logs out (Chromium)', async () => {
    const context = await browser.newContext();
    // Clipboard access for the page's origin, so the test can read what the copy button wrote.
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    const page = await context.newPage();
    const keys = dataSource.getRepository(ApiKey);
    const ownKeys = () => keys.countBy({ ownerId: ownerId });
    try {
      await page.goto(`${app.url}/keys`);
      expect(await page.isVisible('#login-form')).toBe(true);
      await page.fill('#email', EMAIL);
      await page.fill('#password', PASSWORD);
      await Promise.all([page.waitForSelector('#create-form'), page.click('#login-submit')]);
      expect(await page.isVisible('#no-keys')).toBe(true);
      const before = await ownKeys();

      await page.fill('#host', 'localhost');
      await page.fill('#label', 'Browser key');
      const [posted] = await Promise.all([
        page.waitForResponse((res) => res.url().endsWith('/keys/create')),
        page.click('#create-submit'),
      ]);
      // POST-redirect-GET: the POST answers 303, the page the browser stays on is a GET of /keys.
      expect(posted.status()).toBe(303);
      expect(posted.headers().location).toBe('/keys');
      await page.waitForSelector('#new-key');
      expect(page.url()).toBe(`${app.url}/keys`);
      expect(await ownKeys()).toBe(before + 1);
      const secret = (await page.textContent('#new-key'))?.trim() ?? '';
      expect(secret).toMatch(/^qk_[A-Za-z0-9_-]{43}$/);
      const stored = await keys.findOneByOrFail({ label: 'Browser key' });
      const row = page.locator(`tr[data-key-id="${stored.id}"]`);
      expect(await row.locator('.prefix').textContent()).toBe(`${secret.slice(0, 9)}…`);
      expect(await row.locator('.label').textContent()).toBe('Browser key');
      expect(await row.locator('.host').textContent()).toBe('localhost');

      // The copy button (shown by its script) puts the whole key on the clipboard and says so.
      const copy = page.locator('#copy-new-key');
      expect(await copy.isVisible()).toBe(true);
      expect(await copy.textContent()).toBe('Copy');
      await copy.click();
      await page.waitForSelector('#copy-new-key.copied');
      expect(await copy.textContent()).toBe('Copied');
      expect(await page.textContent('#new-key-copy-status')).toBe('Copied to the clipboard.');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
      await page.screenshot({ path: testOutputPath('key-manager-created.png'), fullPage: true });

      // A reload asks the GET page again: no key is created and the secret is not shown again.
      const reloaded = await page.reload();
      expect(reloaded?.request().method()).toBe('GET');
      expect(reloaded?.status()).toBe(200);
      expect(await ownKeys()).toBe(before + 1);
      expect(await page.content()).not.toContain(secret);
      expect(await page.isVisible('#new-key')).toBe(false);
      expect(await page.textContent('#notice')).toBe(
        `The key ${secret.slice(0, 9)}… was shown once, when it was created, and is not shown again. If you did not copy it, delete it and create a new one.`,
      );
      expect(await page.isVisible(`tr[data-key-id="${stored.id}"]`)).toBe(true);
      await page.screenshot({ path: testOutputPath('key-manager-reloaded.png'), fullPage: true });
      // A second reload is the plain list.
      await page.reload();
      expect(await page.isVisible('#notice')).toBe(false);
      expect(await ownKeys()).toBe(before + 1);

      const working = await probe(secret);
      expect(working.status).not.toBe(401);
      expect(working).toMatchObject({ status: 404, type: 'BadParameterException' });

      // "Delete…" only asks: the key still works until the question is answered.
      await Promise.all([
        page.waitForURL(`${app.url}/keys/${stored.id}/delete`),
        page.click(`tr[data-key-id="${stored.id}"] a.delete`),
      ]);
      expect(await page.textContent('h1')).toBe('Delete this API key?');
      expect(await page.textContent('#confirm-delete')).toBe(
        `Yes, delete key ${secret.slice(0, 9)}…`,
      );
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('cancel-delete');
      await page.screenshot({ path: testOutputPath('key-manager-confirm.png'), fullPage: true });
      expect((await keys.findOneByOrFail({ id: stored.id })).revokedAt).toBeNull();
      expect((await probe(secret)).status).toBe(404);

      // Cancel keeps it.
      await Promise.all([page.waitForURL(`${app.url}/keys`), page.click('#cancel-delete')]);
      expect(await page.isVisible(`tr[data-key-id="${stored.id}"]`)).toBe(true);
      expect((await keys.findOneByOrFail({ id: stored.id })).revokedAt).toBeNull();

      await Promise.all([
        page.waitForURL(`${app.url}/keys/${stored.id}/delete`),
        page.click(`tr[data-key-id="${stored.id}"] a.delete`),
      ]);
      const [confirmed] = await Promise.all([
        page.waitForResponse(
          (res) =>
            res.url().endsWith(`/keys/${stored.id}/delete`) && res.request().method() === 'POST',
        ),
        page.click('#confirm-delete'),
      ]);
      expect(confirmed.status()).toBe(303);
      await page.waitForURL(`${app.url}/keys`);
      await page.waitForSelector('#no-keys');
      expect(await page.textContent('#notice')).toBe(
        `The key ${secret.slice(0, 9)}… for localhost is deleted: requests with it are refused from now on.`,
      );
      expect(await page.isVisible(`tr[data-key-id="${stored.id}"]`)).toBe(false);
      expect((await keys.findOneByOrFail({ id: stored.id })).revokedAt).not.toBeNull();
      const refused = await probe(secret);
      expect(refused).toMatchObject({ status: 401, type: 'UnauthorizedOperationException' });
      expect(refused.reason).toMatch(/unknown or revoked/);
      // Reloading after the delete posts nothing either.
      expect((await page.reload())?.request().method()).toBe('GET');
      expect(await page.isVisible('#notice')).toBe(false);

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

  it('copies by selecting the key where the Clipboard API is missing (Chromium)', async () => {
    const context = await browser.newContext();
    // As on a page served over plain HTTP to another host, where navigator.clipboard is absent.
    await context.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'clipboard', {
        get: () => undefined,
        configurable: true,
      });
    });
    const page = await context.newPage();
    try {
      await page.goto(`${app.url}/keys`);
      await page.fill('#email', EMAIL);
      await page.fill('#password', PASSWORD);
      await Promise.all([page.waitForSelector('#create-form'), page.click('#login-submit')]);
      await page.fill('#host', 'localhost');
      await page.fill('#label', 'Fallback key');
      await Promise.all([page.waitForSelector('#new-key'), page.click('#create-submit')]);
      const secret = (await page.textContent('#new-key'))?.trim() ?? '';
      expect(secret).toMatch(/^qk_/);
      expect(await page.evaluate(() => navigator.clipboard)).toBeUndefined();
      expect(await page.evaluate(() => window.getSelection()?.toString())).toBe('');
      await page.click('#copy-new-key');
      await page.waitForSelector('#copy-new-key.copied');
      // The fallback selects the key and copies the selection with the legacy command.
      expect(await page.evaluate(() => window.getSelection()?.toString())).toBe(secret);
      expect(await page.textContent('#copy-new-key')).toBe('Copied');
      expect(await page.textContent('#new-key-copy-status')).toBe('Copied to the clipboard.');
    } finally {
      await context.close();
    }
  });

  it('sets the session cookie HttpOnly, SameSite=Strict, on the key manager path only', async () => {
    const form = await visit(`${app.url}/keys`);
    expect(form.res.headers.get('cache-control')).toBe('no-store');
    expect(form.res.headers.get('x-frame-options')).toBe('DENY');
    expect(form.res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'",
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
      { csrf, confirm: 'yes' },
      { cookie },
    );
    expect(deleteOthers.status).toBe(404);
    expect(errorText(await deleteOthers.text())).toBe('That API key does not exist.');
    const askOthers = await visit(`${app.url}/keys/${othersKey.id}/delete`, {
      headers: { cookie },
    });
    expect(askOthers.res.status).toBe(404);
    expect(askOthers.html).not.toContain('id="confirm-delete-form"');
    expect((await keys.findOneByOrFail({ id: othersKey.id })).revokedAt).toBeNull();

    const mine = await postForm(
      `${app.url}/keys/create`,
      { csrf, host: 'school.example', label: 'mine' },
      { cookie },
    );
    expect(mine.status).toBe(303);
    expect(mine.headers.get('location')).toBe('/keys');
    const mineKey = await keys.findOneByOrFail({ label: 'mine' });
    const forgedDelete = await postForm(
      `${app.url}/keys/${mineKey.id}/delete`,
      { csrf: inputValue(otherList.html, 'csrf') ?? '', confirm: 'yes' },
      { cookie },
    );
    expect(forgedDelete.status).toBe(403);
    expect((await keys.findOneByOrFail({ id: mineKey.id })).revokedAt).toBeNull();
    const deleted = await postForm(
      `${app.url}/keys/${mineKey.id}/delete`,
      { csrf, confirm: 'yes' },
      { cookie },
    );
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get('location')).toBe('/keys');
    expect((await keys.findOneByOrFail({ id: mineKey.id })).revokedAt).not.toBeNull();
  });

  it('answers every successful form with 303 to a GET page: the secret shown once from a session-bound encrypted cookie, delete only once confirmed (MariaDB)', async () => {
    await checkPostRedirectGet(app.url, dataSource, {
      id: ownerId,
      email: EMAIL,
      password: PASSWORD,
    });
  });

  it('leaves unknown paths to the JSON error model', async () => {
    const res = await fetch(`${app.url}/keys/nothing-here`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(((await res.json()) as { type?: string }).type).toBe('UnsupportedRequestException');
  });
});

describe('key manager on embedded SQLite', () => {
  let dataSource: DataSource;
  let closeDb: () => Promise<void>;
  let app: TestApp;
  let userId: number;

  beforeAll(async () => {
    ({ dataSource, close: closeDb } = await openSqliteTestDatabase());
    userId = (await createLoginUser(dataSource, EMAIL, PASSWORD)).id;
    app = await startTestApp(dataSource);
  });

  afterAll(async () => {
    await app?.close();
    await closeDb();
  });

  it('answers every successful form with 303 to a GET page: the secret shown once, delete only once confirmed (SQLite)', async () => {
    await checkPostRedirectGet(app.url, dataSource, {
      id: userId,
      email: EMAIL,
      password: PASSWORD,
    });
  });
});

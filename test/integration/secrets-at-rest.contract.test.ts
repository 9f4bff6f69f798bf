import type { DataSource } from 'typeorm';
import { hashSecret } from '../../src/security/secrets';
import { startTestApp, type TestApp } from '../helpers/app';
import {
  cookieHeader,
  cookiesSet,
  createLoginUser,
  inputValue,
  loginThroughPage,
  postForm,
  visit,
} from '../helpers/browser';
import { createTestApiKey } from '../helpers/credentials';
import { openTestDatabase, type TestDatabase } from '../helpers/database';

/** Every cell of a row as the texts a secret could hide in. */
function cellTexts(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (Buffer.isBuffer(value)) {
    return [value.toString('utf8'), value.toString('hex'), value.toString('base64')];
  }
  if (value instanceof Date) return [value.toISOString()];
  return [typeof value === 'object' ? JSON.stringify(value) : String(value)];
}

describe('no secret is stored or logged in clear', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let closeDb: () => Promise<void>;
  let app: TestApp;

  beforeAll(async () => {
    ({ db, dataSource, close: closeDb } = await openTestDatabase('secrets_at_rest'));
    app = await startTestApp(dataSource);
  });

  afterAll(async () => {
    await app?.close();
    await closeDb();
  });

  it('keeps tokens, keys, passwords and session cookies out of every table and the logs', async () => {
    const secrets: Record<string, string> = {};
    const alicePassword = 'alice-password-9f8e7d6c';
    const bobPassword = 'bob-password-1a2b3c4d5e';
    const wrongPassword = 'a-wrong-guess-55aa66bb';
    secrets.alicePassword = alicePassword;
    secrets.bobPassword = bobPassword;
    secrets.wrongPassword = wrongPassword;
    const alice = await createLoginUser(dataSource, 'alice@example.test', alicePassword);
    await createLoginUser(dataSource, 'bob@example.test', bobPassword);

    const cliKey = await createTestApiKey(dataSource, 'localhost', alice.id);
    secrets.cliKey = cliKey.secret;

    // Access tokens through the login page, and one failed attempt (its password must not stay either).
    for (const [name, email, password] of [
      ['aliceToken', 'alice@example.test', alicePassword],
      ['bobToken', 'bob@example.test', bobPassword],
    ]) {
      const login = await loginThroughPage(
        app.url,
        cliKey.secret,
        'http://localhost:5173/cb?x=1#top',
        email,
        password,
      );
      expect(login.res.status).toBe(303);
      secrets[name] = login.issued?.token ?? '';
      expect(secrets[name]).toMatch(/^qt_/);
    }
    const failed = await loginThroughPage(
      app.url,
      cliKey.secret,
      'http://localhost/',
      'alice@example.test',
      wrongPassword,
    );
    expect(failed.res.status).toBe(401);

    // A key made in the key manager, with its session cookie.
    const form = await visit(`${app.url}/keys`);
    const loggedIn = await postForm(
      `${app.url}/keys/login`,
      {
        csrf: inputValue(form.html, 'csrf') ?? '',
        email: 'alice@example.test',
        password: alicePassword,
      },
      { cookie: cookieHeader(form.cookies) },
    );
    expect(loggedIn.status).toBe(303);
    const session = cookiesSet(loggedIn).quiz_session;
    expect(session).toMatch(/^qs_/);
    secrets.sessionCookie = session;
    secrets.csrfNonce = form.cookies.quiz_keys_csrf;
    const cookie = `quiz_session=${session}`;
    const list = await visit(`${app.url}/keys`, { headers: { cookie } });
    const created = await visit(`${app.url}/keys/create`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        csrf: inputValue(list.html, 'csrf') ?? '',
        host: 'localhost',
        label: 'at rest',
      }).toString(),
    });
    // The page the creation redirects to shows the key, from the encrypted flash cookie.
    expect(created.res.status).toBe(303);
    secrets.keyFlashCookie = created.cookies.quiz_keys_flash;
    const shown = await visit(`${app.url}/keys`, {
      headers: { cookie: `${cookie}; quiz_keys_flash=${secrets.keyFlashCookie}` },
    });
    const managerKey = /id="new-key">([^<]+)</.exec(shown.html)?.[1] ?? '';
    expect(managerKey).toMatch(/^qk_/);
    secrets.managerKey = managerKey;

    // Requests that carry the secrets in their query string, as clients send them.
    await fetch(
      `${app.url}/getQuiz?quizId=1&apiKey=${secrets.managerKey}&accessToken=${secrets.aliceToken}`,
    );

    const tables = (await dataSource.query(
      'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ?',
      [db.name],
    )) as { name: string }[];
    expect(tables.map((table) => table.name)).toEqual(
      expect.arrayContaining([
        'users',
        'api_keys',
        'access_tokens',
        'web_sessions',
        'login_failures',
      ]),
    );
    const cells: { table: string; text: string }[] = [];
    for (const { name } of tables) {
      const rows = (await dataSource.query(`SELECT * FROM \`${name}\``)) as Record<
        string,
        unknown
      >[];
      for (const row of rows) {
        for (const value of Object.values(row)) {
          for (const text of cellTexts(value)) cells.push({ table: name, text });
        }
      }
    }

    // The scan sees the stored forms: hashes of the same secrets are there.
    const texts = cells.map((cell) => cell.text);
    expect(texts).toContain(hashSecret(secrets.managerKey));
    expect(texts).toContain(hashSecret(secrets.cliKey));
    expect(texts).toContain(hashSecret(secrets.aliceToken));
    expect(texts).toContain(hashSecret(secrets.sessionCookie));
    expect(cells.filter((cell) => cell.table === 'login_failures')).not.toHaveLength(0);

    for (const secret of Object.values(secrets)) expect(secret.length).toBeGreaterThan(10);
    const leaks = Object.entries(secrets).flatMap(([name, secret]) =>
      cells.filter((cell) => cell.text.includes(secret)).map((cell) => `${name} in ${cell.table}`),
    );
    expect(leaks).toEqual([]);

    const logs = app.logs.text;
    expect(logs).toContain('/authentication/login.php');
    expect(logs).toContain('/keys/create');
    const logLeaks = Object.entries(secrets)
      .filter(([, secret]) => logs.includes(secret))
      .map(([name]) => name);
    expect(logLeaks).toEqual([]);
  });
});

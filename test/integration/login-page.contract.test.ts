import type { DataSource } from 'typeorm';
import argon2 from 'argon2';
import { AccessToken, LoginFailure, User } from '../../src/db/entities';
import { PASSWORD_COST } from '../../src/security/password';
import { hashSecret } from '../../src/security/secrets';
import { revokeApiKey } from '../../src/services/api-keys/api-key.service';
import { startTestApp, type TestApp } from '../helpers/app';
import {
  cookieHeader,
  createLoginUser,
  errorText,
  inputValue,
  loginPageUrl,
  loginThroughPage,
  postForm,
  setCookieLine,
  visit,
} from '../helpers/browser';
import { createTestApiKey } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';
import { operatorServiceContext } from '../helpers/service-context';

const PASSWORD = 'correct horse battery staple';
const GENERIC_FAILURE = 'The email or password is incorrect.';

describe('login page (spec §5.3)', () => {
  let dataSource: DataSource;
  let closeDb: () => Promise<void>;
  let app: TestApp;
  let localKey: string;
  let schoolKey: string;
  let revokedKey: string;
  let ipCounter = 0;

  /** A client IP of its own for each scenario (the app trusts X-Forwarded-For from loopback). */
  const freshIp = () => {
    ipCounter += 1;
    return { 'x-forwarded-for': `198.51.100.${ipCounter}` };
  };

  const tokenCount = () => dataSource.getRepository(AccessToken).count();

  /** A valid CSRF pair: the cookie and field a real visit of a valid login page gives. */
  async function csrfPair(): Promise<{ cookie: string; csrf: string }> {
    const page = await visit(
      loginPageUrl(app.url, { apiKey: localKey, redirectURL: 'http://localhost/' }),
    );
    const csrf = inputValue(page.html, 'csrf');
    if (!csrf) throw new Error('no csrf field');
    return { cookie: cookieHeader(page.cookies), csrf };
  }

  beforeAll(async () => {
    ({ dataSource, close: closeDb } = await openTestDatabase('login_page'));
    await createLoginUser(dataSource, 'alice@example.test', PASSWORD);
    await createLoginUser(dataSource, 'carol@example.test', PASSWORD);
    await createLoginUser(dataSource, 'dave@example.test', PASSWORD);
    await createLoginUser(dataSource, 'pupil@example.test', null);
    await createLoginUser(dataSource, 'timing@example.test', PASSWORD);
    localKey = (await createTestApiKey(dataSource, 'localhost')).secret;
    schoolKey = (await createTestApiKey(dataSource, 'school.example')).secret;
    const revoked = await createTestApiKey(dataSource, 'localhost');
    const operator = operatorServiceContext(dataSource);
    await revokeApiKey(operator, revoked.id);
    revokedKey = revoked.secret;
    app = await startTestApp(dataSource, {
      LOGIN_MAX_FAILURES_PER_ACCOUNT: '3',
      LOGIN_MAX_FAILURES_PER_IP: '6',
      TRUST_PROXY: 'loopback',
    });
  });

  afterAll(async () => {
    await app?.close();
    await closeDb();
  });

  describe('the form', () => {
    it('is served with the security headers and a CSRF cookie', async () => {
      const redirectURL = 'http://localhost:5173/app?x=1#frag';
      const page = await visit(loginPageUrl(app.url, { apiKey: localKey, redirectURL }));
      expect(page.res.status).toBe(200);
      expect(page.res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.res.headers.get('cache-control')).toBe('no-store');
      expect(page.res.headers.get('x-frame-options')).toBe('DENY');
      expect(page.res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(page.res.headers.get('content-security-policy')).toBe(
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self' http://localhost:5173; frame-ancestors 'none'",
      );
      const cookie = setCookieLine(page.res, 'quiz_login_csrf') ?? '';
      expect(cookie).toMatch(/; HttpOnly/i);
      expect(cookie).toMatch(/; SameSite=Lax/i);
      expect(cookie).not.toMatch(/; Secure/i);
      expect(inputValue(page.html, 'apiKey')).toBe(localKey);
      expect(inputValue(page.html, 'redirectURL')).toBe(redirectURL);
      expect(inputValue(page.html, 'csrf')).toMatch(/^[A-Za-z0-9_-]{43}\.[0-9a-f]{64}$/);
      expect(page.html).toContain('<input type="password"');
    });

    it('answers a form it cannot read with an HTML page, not the JSON error model', async () => {
      const url = loginPageUrl(app.url, { apiKey: localKey, redirectURL: 'http://localhost/' });
      const huge = await postForm(url, { email: 'x'.repeat(app.config.bodyLimitBytes + 10) });
      expect(huge.status).toBe(413);
      expect(huge.headers.get('content-type')).toMatch(/^text\/html/);
      expect(huge.headers.get('cache-control')).toBe('no-store');
      expect(errorText(await huge.text())).toBe('The form is too large.');
      expect(huge.headers.get('location')).toBeNull();

      const twice = await fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=a%40b.test&email=c%40d.test&password=x',
      });
      expect(twice.status).toBe(400);
      expect(twice.headers.get('content-type')).toMatch(/^text\/html/);
      expect(errorText(await twice.text())).toMatch(/^Email must be given once/);
    });

    it('marks the CSRF cookie Secure when the request came over TLS', async () => {
      const page = await visit(
        loginPageUrl(app.url, { apiKey: localKey, redirectURL: 'https://localhost/' }),
        { headers: { 'x-forwarded-proto': 'https' } },
      );
      expect(page.res.status).toBe(200);
      expect(setCookieLine(page.res, 'quiz_login_csrf')).toMatch(/; Secure/i);
    });
  });

  it('lives under BASE_PATH, with its form and cookie there too', async () => {
    // A database of its own: closing an app closes its data source.
    const own = await openTestDatabase('login_base_path');
    const based = await startTestApp(own.dataSource, { BASE_PATH: '/api' });
    try {
      await createLoginUser(own.dataSource, 'alice@example.test', PASSWORD);
      const apiKey = (await createTestApiKey(own.dataSource, 'localhost')).secret;
      const redirectURL = 'http://localhost/';
      const page = await visit(loginPageUrl(`${based.url}/api`, { apiKey, redirectURL }));
      expect(page.res.status).toBe(200);
      expect(page.html).toContain('action="/api/authentication/login.php?apiKey=');
      expect(setCookieLine(page.res, 'quiz_login_csrf')).toMatch(
        /; Path=\/api\/authentication(;|$)/,
      );
      const login = await loginThroughPage(
        `${based.url}/api`,
        apiKey,
        redirectURL,
        'alice@example.test',
        PASSWORD,
      );
      expect(login.res.status).toBe(303);
      const outside = await fetch(loginPageUrl(based.url, { apiKey, redirectURL }));
      expect(outside.status).toBe(404);
      expect(((await outside.json()) as { type?: string }).type).toBe(
        'UnsupportedRequestException',
      );
    } finally {
      await based.close();
      await own.close();
    }
  });

  describe('a missing or invalid apiKey or redirectURL', () => {
    const cases: [string, (key: string) => Record<string, string>, RegExp][] = [
      [
        'missing apiKey',
        () => ({ redirectURL: 'http://localhost/' }),
        /apiKey parameter is missing/,
      ],
      [
        'unknown apiKey',
        () => ({ apiKey: 'qk_unknown', redirectURL: 'http://localhost/' }),
        /API key is unknown or revoked/,
      ],
      ['missing redirectURL', (apiKey) => ({ apiKey }), /redirectURL parameter is missing/],
      [
        'empty redirectURL',
        (apiKey) => ({ apiKey, redirectURL: '' }),
        /redirectURL parameter is missing/,
      ],
    ];

    it.each(cases)('%s: error on the page, no redirect, no token', async (_name, query, text) => {
      const url = loginPageUrl(app.url, query(localKey));
      const page = await visit(url);
      expect(page.res.status).toBe(400);
      expect(page.res.headers.get('location')).toBeNull();
      expect(errorText(page.html)).toMatch(text);
      expect(page.html).not.toContain('<form');

      const before = await tokenCount();
      const { cookie, csrf } = await csrfPair();
      const res = await postForm(
        url,
        { csrf, email: 'alice@example.test', password: PASSWORD },
        { cookie },
      );
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await tokenCount()).toBe(before);
    });

    it('a revoked apiKey: error on the page, no redirect, no token', async () => {
      const url = loginPageUrl(app.url, { apiKey: revokedKey, redirectURL: 'http://localhost/' });
      const page = await visit(url);
      expect(page.res.status).toBe(400);
      expect(page.res.headers.get('location')).toBeNull();
      expect(errorText(page.html)).toMatch(/API key is unknown or revoked/);
      const before = await tokenCount();
      const { cookie, csrf } = await csrfPair();
      const res = await postForm(
        url,
        {
          csrf,
          apiKey: revokedKey,
          redirectURL: 'http://localhost/',
          email: 'alice@example.test',
          password: PASSWORD,
        },
        { cookie },
      );
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await tokenCount()).toBe(before);
    });
  });

  describe('hostile redirect URLs', () => {
    const forLocalhost = [
      'http://evil.test/',
      'https://evil.test/cb',
      'HTTP://EVIL.TEST/',
      'http://localhost.evil.test/',
      'https://localhost.evil.test:443/',
      'http://evil-localhost/',
      'http://localhost@evil.test/',
      'http://evil.test@localhost/',
      'http://localhost:80@evil.test/',
      'http://127.0.0.1@evil.test/',
      'javascript:alert(1)',
      'javascript://localhost/%0aalert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      'ftp://localhost/',
      'http://localhost\\@evil.test/',
      'http:\\\\evil.test',
      'https://evil.test:443\\@localhost/',
      'http://evil.test%2f@localhost/',
      'http://localhost%2eevil.test/',
      'http://localhost%00.evil.test/',
      'http://%6c%6f%63%61%6c%68%6f%73%74.evil.test/',
      '//evil.test/',
      '///evil.test/',
      '/\\evil.test/',
      '/path',
      'http:/evil.test/',
      'http:evil.test',
      'http://evil.test\t',
      'http://local\thost/',
      'http://evil.test\n.localhost/',
      'http://localhost/\r\nSet-Cookie: x=1',
      ' http://evil.test/',
      'http://127.0.0.1.evil.test/',
      'http://0x7f000001.evil.test/',
      'http://0177.0.0.1.evil.test/',
      'http://[::1].evil.test/',
      'http://locaIhost/',
      'http://lоcalhost/',
      'http://evil.test#.localhost',
      'http://evil.test?.localhost',
      'http://evil.test/.localhost',
      `http://evil.test/${'a'.repeat(3000)}`,
    ];
    const forSchool = [
      'http://school.example.evil.test/',
      'http://evilschool.example/',
      'https://xschool.example/',
      'https://school.examplee/',
      'https://example/',
      'http://school.example@evil.test/',
      'http://evil.test@school.example/',
      'http://school.example:80@evil.test/',
      'http://school.example\\@evil.test/',
      'http://evil.test%2f@school.example/',
      'http://school.example%2eevil.test/',
      'http://%73chool.example/',
      'http://localhost/',
      'http://127.0.0.1/',
      '//school.example/',
      'https://school.examp1e/',
      'https://schooI.example/',
      'https://sсhool.example/',
      'javascript:alert(1)//school.example',
      'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
      'ftp://school.example/',
      'http://school.example\t/',
      'https://evil.test/?next=https://school.example/',
      'https://evil.test/#school.example',
    ];
    /** [key host, shown name (long values shortened), redirect URL] */
    const cases = [
      ...forLocalhost.map((url) => ['localhost', url]),
      ...forSchool.map((url) => ['school.example', url]),
    ].map(([host, url]): [string, string, string] => [
      host,
      JSON.stringify(url.length > 60 ? `${url.slice(0, 60)}… (${url.length} chars)` : url),
      url,
    ]);

    it('has at least 30 values per key', () => {
      expect(forLocalhost.length).toBeGreaterThanOrEqual(30);
      expect(forSchool.length).toBeGreaterThanOrEqual(20);
    });

    it.each(cases)('key for %s refuses %s', async (host, _shown, redirectURL) => {
      const apiKey = host === 'localhost' ? localKey : schoolKey;
      const url = loginPageUrl(app.url, { apiKey, redirectURL });
      const page = await visit(url);
      expect(page.res.status).toBe(400);
      expect(page.res.headers.get('location')).toBeNull();
      expect(errorText(page.html)).toMatch(/redirect URL must be an absolute http or https URL/);
      expect(page.html).not.toContain('<form');

      const before = await tokenCount();
      const { cookie, csrf } = await csrfPair();
      const res = await postForm(
        url,
        { csrf, apiKey, redirectURL, email: 'alice@example.test', password: PASSWORD },
        { cookie },
      );
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toMatch(/redirect URL must be an absolute http or https URL/);
      expect(await tokenCount()).toBe(before);
    });
  });

  describe('a successful login', () => {
    it.each([
      ['localhost', 'http://localhost:5173/app?x=1#frag'],
      ['school.example', 'http://sub.school.example/'],
      ['school.example', 'https://school.example/cb'],
    ])(
      'key for %s redirects (303) to %s with the access token added',
      async (host, redirectURL) => {
        const apiKey = host === 'localhost' ? localKey : schoolKey;
        const before = await tokenCount();
        const login = await loginThroughPage(
          app.url,
          apiKey,
          redirectURL,
          'alice@example.test',
          PASSWORD,
        );
        expect(login.res.status).toBe(303);
        expect(login.res.headers.get('cache-control')).toBe('no-store');
        const location = login.location ?? '';
        const target = new URL(redirectURL);
        expect(login.res.headers.get('content-security-policy')).toContain(
          `form-action 'self' ${target.origin};`,
        );
        const hashAt = redirectURL.indexOf('#');
        const beforeHash = hashAt < 0 ? redirectURL : redirectURL.slice(0, hashAt);
        const fragment = hashAt < 0 ? '' : redirectURL.slice(hashAt);
        const separator = beforeHash.includes('?') ? '&' : '?';
        expect(location.startsWith(`${beforeHash}${separator}accessToken=`)).toBe(true);
        expect(location.endsWith(fragment)).toBe(true);
        const raw = location.slice(
          `${beforeHash}${separator}accessToken=`.length,
          location.length - fragment.length,
        );
        const issued = JSON.parse(decodeURIComponent(raw)) as {
          token: unknown;
          expiresIn: unknown;
        };
        expect(typeof issued.token).toBe('string');
        expect(issued.expiresIn).toBe(app.config.tokenTtlSeconds);
        expect(login.issued).toEqual(issued);
        if (redirectURL.includes('x=1')) {
          expect(new URL(location).searchParams.get('x')).toBe('1');
          expect(new URL(location).hash).toBe('#frag');
        }
        expect(await tokenCount()).toBe(before + 1);
        const stored = await dataSource
          .getRepository(AccessToken)
          .findOneByOrFail({ tokenHash: hashSecret(String(issued.token)) });
        expect(stored.expiresAt.getTime()).toBeGreaterThan(Date.now());
      },
    );

    it('replaces a stale accessToken of the redirect URL instead of adding a second one', async () => {
      const login = await loginThroughPage(
        app.url,
        localKey,
        'http://localhost:5173/cb?accessToken=stale&y=2',
        'alice@example.test',
        PASSWORD,
      );
      expect(login.res.status).toBe(303);
      const url = new URL(login.location ?? '');
      expect(url.searchParams.getAll('accessToken')).toHaveLength(1);
      expect(url.searchParams.get('y')).toBe('2');
      expect(login.issued?.token).toMatch(/^qt_/);
    });

    it('accepts the email in another case and with surrounding spaces', async () => {
      const login = await loginThroughPage(
        app.url,
        localKey,
        'http://localhost/',
        '  Alice@Example.TEST ',
        PASSWORD,
      );
      expect(login.res.status).toBe(303);
    });
  });

  describe('CSRF', () => {
    const redirectURL = 'http://localhost/';
    const fields = () => ({
      apiKey: localKey,
      redirectURL,
      email: 'alice@example.test',
      password: PASSWORD,
    });

    async function expectRefused(res: Response, before: number): Promise<void> {
      expect(res.status).toBe(403);
      expect(res.headers.get('location')).toBeNull();
      expect(errorText(await res.text())).toMatch(
        /form has expired or was not sent from this page/,
      );
      expect(await tokenCount()).toBe(before);
    }

    it('refuses a POST without the cookie', async () => {
      const before = await tokenCount();
      const { csrf } = await csrfPair();
      await expectRefused(
        await postForm(loginPageUrl(app.url, { apiKey: localKey, redirectURL }), {
          ...fields(),
          csrf,
        }),
        before,
      );
    });

    it('refuses a POST without the field', async () => {
      const before = await tokenCount();
      const { cookie } = await csrfPair();
      await expectRefused(
        await postForm(loginPageUrl(app.url, { apiKey: localKey, redirectURL }), fields(), {
          cookie,
        }),
        before,
      );
    });

    it('refuses a field whose nonce is not the cookie nonce (both validly signed)', async () => {
      const before = await tokenCount();
      const first = await csrfPair();
      const second = await csrfPair();
      expect(first.csrf).not.toBe(second.csrf);
      await expectRefused(
        await postForm(
          loginPageUrl(app.url, { apiKey: localKey, redirectURL }),
          { ...fields(), csrf: second.csrf },
          { cookie: first.cookie },
        ),
        before,
      );
    });

    it('refuses a forged HMAC on the cookie nonce', async () => {
      const before = await tokenCount();
      const { cookie, csrf } = await csrfPair();
      const nonce = csrf.split('.')[0];
      const forged = `${nonce}.${'0'.repeat(64)}`;
      await expectRefused(
        await postForm(
          loginPageUrl(app.url, { apiKey: localKey, redirectURL }),
          { ...fields(), csrf: forged },
          { cookie },
        ),
        before,
      );
    });

    it('refuses a nonce of the attacker’s choosing in both places', async () => {
      const before = await tokenCount();
      const nonce = 'A'.repeat(43);
      await expectRefused(
        await postForm(
          loginPageUrl(app.url, { apiKey: localKey, redirectURL }),
          { ...fields(), csrf: `${nonce}.${'a'.repeat(64)}` },
          { cookie: `quiz_login_csrf=${nonce}` },
        ),
        before,
      );
    });
  });

  describe('wrong identifiers', () => {
    /** The page without what legitimately differs: the echoed email and the CSRF field. */
    const normalized = (html: string) =>
      html
        .replace(/name="email"([^>]*)value="[^"]*"/, 'name="email"$1value=""')
        .replace(/name="csrf" value="[^"]*"/, 'name="csrf" value=""');

    it('gives the same page for an unknown email, a wrong password and an account without password', async () => {
      const headers = freshIp();
      const redirectURL = 'http://localhost/';
      const wrongPassword = await loginThroughPage(
        app.url,
        localKey,
        redirectURL,
        'dave@example.test',
        'not the password',
        headers,
      );
      const unknownEmail = await loginThroughPage(
        app.url,
        localKey,
        redirectURL,
        'nobody@example.test',
        PASSWORD,
        freshIp(),
      );
      const noPassword = await loginThroughPage(
        app.url,
        localKey,
        redirectURL,
        'pupil@example.test',
        PASSWORD,
        freshIp(),
      );
      const pages = [wrongPassword, unknownEmail, noPassword];
      const htmls = await Promise.all(pages.map((login) => login.res.text()));
      for (const [index, login] of pages.entries()) {
        expect(login.res.status).toBe(401);
        expect(login.location).toBeNull();
        expect(errorText(htmls[index])).toBe(GENERIC_FAILURE);
      }
      expect(normalized(htmls[1])).toBe(normalized(htmls[0]));
      expect(normalized(htmls[2])).toBe(normalized(htmls[0]));
    });

    it('runs one argon2 verification at the account cost for an unknown email, an account without password and a wrong password', async () => {
      // What a wrong attempt costs is the argon2 verification: the same one, at the same
      // parameters, whichever part was wrong, so timing does not tell an unknown email apart.
      const stored = await dataSource.getRepository(User).findOneByOrFail({
        email: 'timing@example.test',
      });
      const costOf = (hash: string) => /^\$argon2id\$v=\d+\$([^$]+)\$/.exec(hash)?.[1];
      const accountCost = costOf(stored.passwordHash ?? '');
      const { memoryCost, parallelism, timeCost } = PASSWORD_COST;
      expect(accountCost).toBe(`m=${memoryCost},p=${parallelism},t=${timeCost}`);
      const verify = jest.spyOn(argon2, 'verify');
      // Nor does a first unknown email make a hash to verify against (which would cost more).
      const hashing = jest.spyOn(argon2, 'hash');
      try {
        for (const email of ['timing@example.test', 'nobody1@example.test', 'pupil@example.test']) {
          verify.mockClear();
          hashing.mockClear();
          const url = loginPageUrl(app.url, { apiKey: localKey, redirectURL: 'http://localhost/' });
          const { cookie, csrf } = await csrfPair();
          const res = await postForm(
            url,
            { csrf, email, password: 'wrong password!' },
            { ...freshIp(), cookie },
          );
          expect(res.status).toBe(401);
          expect(verify).toHaveBeenCalledTimes(1);
          expect(hashing).not.toHaveBeenCalled();
          const [hash, candidate] = verify.mock.calls[0];
          expect(costOf(hash)).toBe(accountCost);
          expect(candidate).toBe('wrong password!');
          expect(await verify.mock.results[0].value).toBe(false);
        }
      } finally {
        verify.mockRestore();
        hashing.mockRestore();
      }
    });

    it('escapes everything it echoes', async () => {
      const redirectURL = 'http://localhost:5173/cb?q=<script>alert(1)</script>';
      const page = await visit(loginPageUrl(app.url, { apiKey: localKey, redirectURL }));
      expect(page.res.status).toBe(200);
      expect(page.html).not.toContain('<script>');
      expect(page.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');

      const hostile = await visit(
        loginPageUrl(app.url, {
          apiKey: localKey,
          redirectURL: 'http://evil.test/"><script>alert(1)</script>',
        }),
      );
      expect(hostile.res.status).toBe(400);
      expect(hostile.html).not.toContain('<script>');
      expect(hostile.html).toContain('&quot;&gt;&lt;script&gt;');

      const email = '"><script>alert(1)</script>@example.test';
      const login = await loginThroughPage(
        app.url,
        localKey,
        'http://localhost/',
        email,
        'whatever',
        freshIp(),
      );
      const html = await login.res.text();
      expect(login.res.status).toBe(401);
      expect(html).not.toContain('<script>');
      expect(html).toContain(
        'value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@example.test"',
      );
    });
  });

  describe('rate limiting', () => {
    const redirectURL = 'http://localhost/';

    it('refuses the right password (429, Retry-After) once an account has too many failures', async () => {
      const failuresBefore = await dataSource.getRepository(LoginFailure).count();
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const login = await loginThroughPage(
          app.url,
          localKey,
          redirectURL,
          'carol@example.test',
          'wrong',
          freshIp(),
        );
        expect(login.res.status).toBe(401);
      }
      const tokensBefore = await tokenCount();
      const limited = await loginThroughPage(
        app.url,
        localKey,
        redirectURL,
        'CAROL@example.test',
        PASSWORD,
        freshIp(),
      );
      expect(limited.res.status).toBe(429);
      expect(limited.location).toBeNull();
      const retryAfter = Number(limited.res.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(app.config.login.failureWindowSeconds);
      expect(errorText(await limited.res.text())).toBe(
        `Too many failed login attempts. Try again in ${Math.ceil(retryAfter / 60)} minutes.`,
      );
      expect(await tokenCount()).toBe(tokensBefore);
      // Refused attempts are not checked, so they add no failure and do not extend the lock.
      const wrongWhileLocked = await loginThroughPage(
        app.url,
        localKey,
        redirectURL,
        'carol@example.test',
        'wrong',
        freshIp(),
      );
      expect(wrongWhileLocked.res.status).toBe(429);
      expect(await dataSource.getRepository(LoginFailure).count()).toBe(failuresBefore + 3);
    });

    it('lets no burst of parallel guesses past the account limit', async () => {
      const email = 'burst@example.test';
      await createLoginUser(dataSource, email, PASSWORD);
      const attempts = await Promise.all(
        Array.from({ length: 8 }, () =>
          loginThroughPage(app.url, localKey, redirectURL, email, 'wrong', freshIp()),
        ),
      );
      const statuses = attempts.map((login) => login.res.status);
      const checked = statuses.filter((status) => status === 401).length;
      // Attempts in flight count against each other, so a burst may get fewer than the limit, never more.
      expect(checked).toBeGreaterThanOrEqual(1);
      expect(checked).toBeLessThanOrEqual(3);
      expect(statuses.filter((status) => status === 429)).toHaveLength(8 - checked);
      const failures = await dataSource
        .getRepository(LoginFailure)
        .countBy({ accountHash: hashSecret(email) });
      expect(failures).toBe(checked);
    });

    it('refuses every account from a client IP with too many failures, not from other IPs', async () => {
      const ip = { 'x-forwarded-for': '203.0.113.50' };
      for (let attempt = 0; attempt < 6; attempt += 1) {
        const login = await loginThroughPage(
          app.url,
          localKey,
          redirectURL,
          `guess${attempt}@example.test`,
          'wrong',
          ip,
        );
        expect(login.res.status).toBe(401);
      }
      const limited = await loginThroughPage(
        app.url,
        localKey,
        redirectURL,
        'dave@example.test',
        PASSWORD,
        ip,
      );
      expect(limited.res.status).toBe(429);
      expect(Number(limited.res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.location).toBeNull();

      const elsewhere = await loginThroughPage(
        app.url,
        localKey,
        redirectURL,
        'dave@example.test',
        PASSWORD,
        freshIp(),
      );
      expect(elsewhere.res.status).toBe(303);
    });
  });
});

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { DataSource } from 'typeorm';
import { ACCESS_TOKEN_STORAGE_KEY, type StoredAccessToken } from '@quiz-results/client';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap, ImportDocument } from '../../src/data/import/import-document';
import { startTestApp, type TestApp } from '../helpers/app';
import { launchChromium, testOutputPath, watchPage } from '../helpers/browser';
import { ensureBuilt } from '../helpers/build';
import { createTestApiKey } from '../helpers/credentials';
import { parseCsv } from '../helpers/csv';
import { openTestDatabase } from '../helpers/database';

const ROOT = path.resolve(__dirname, '../..');
const EMAIL = 'tess@school.example';
const PASSWORD = 'teacher-password-123';
const SHORT_TTL_SECONDS = 4;

const DOCUMENT: ImportDocument = {
  users: [
    {
      ref: 'T',
      email: EMAIL,
      password: PASSWORD,
      firstName: 'Tess',
      lastName: 'Teacher',
      publicProfile: true,
      canCreatePrivateQuizzes: true,
    },
    {
      ref: 'O',
      email: 'otto@school.example',
      firstName: 'Otto',
      lastName: 'Other',
      canCreatePrivateQuizzes: true,
    },
    ...['Ana', 'Ben', 'Cleo', 'Dan'].map((firstName) => ({
      ref: firstName,
      email: `${firstName.toLowerCase()}@school.example`,
      firstName,
      lastName: 'Pupil',
    })),
  ],
  quizzes: [
    {
      ref: 'public',
      author: 'T',
      title: 'Public fractions',
      visibility: 'public',
      survey: false,
      tags: ['math', 'fractions'],
      creationDate: '2026-09-01 08:00:00',
      questions: [
        { title: '1/2 = 0.5', type: 'TrueFalse', goodAnswer: true },
        { title: '1/4 = 0.4', type: 'TrueFalse', goodAnswer: false },
      ],
    },
    {
      ref: 'secret',
      author: 'T',
      title: 'Secret fractions',
      visibility: 'private',
      survey: false,
      tags: ['math', 'exam'],
      creationDate: '2026-09-02 08:00:00',
      questions: [{ title: '3/4 = 0.75', type: 'TrueFalse', goodAnswer: true }],
    },
    {
      ref: 'others',
      author: 'O',
      title: 'Someone else’s secret',
      visibility: 'private',
      survey: false,
      tags: ['other', 'private'],
      creationDate: '2026-09-03 08:00:00',
    },
  ],
  sessions: [
    {
      ref: 'R',
      owner: 'T',
      title: 'Monday math',
      startDate: '2026-09-07 09:00:00',
      quizzes: ['public', 'secret'],
      attendees: ['Ana', 'Ben', 'Cleo', 'Dan'].map((user) => ({ user })),
    },
  ],
  answers: [
    // Good answers: Ana 2/2 and 1/1, Ben 1/2 and 1/1, Cleo 0/1 and 1/1; Dan does not answer.
    ...[
      ['Ana', 'public', 0, true],
      ['Ana', 'public', 1, false],
      ['Ana', 'secret', 0, true],
      ['Ben', 'public', 0, true],
      ['Ben', 'public', 1, true],
      ['Ben', 'secret', 0, true],
      ['Cleo', 'public', 0, false],
      ['Cleo', 'secret', 0, true],
    ].map(([user, quiz, question, answer], index) => ({
      session: 'R',
      user: String(user),
      quiz: String(quiz),
      question: Number(question),
      answer,
      answeredAt: `2026-09-07 09:0${index}:00`,
    })),
  ],
};

async function storedToken(page: Page): Promise<StoredAccessToken | null> {
  const text = await page.evaluate(
    (key) => window.localStorage.getItem(key),
    ACCESS_TOKEN_STORAGE_KEY,
  );
  return text === null ? null : (JSON.parse(text) as StoredAccessToken);
}

async function quizTitles(page: Page): Promise<string[]> {
  return page.$$eval('#quiz-rows tr td:first-child', (cells) =>
    cells.map((cell) => cell.textContent ?? ''),
  );
}

/** Waits until the quiz table has loaded for the given login state. */
async function waitForState(page: Page, loggedIn: boolean): Promise<void> {
  await page.waitForSelector(`#login-button[data-logged-in="${loggedIn}"]`);
  await page.waitForSelector(`#login-state[data-logged-in="${loggedIn}"]`);
  await page.waitForFunction((secretShown) => {
    const titles = Array.from(document.querySelectorAll('#quiz-rows tr td:first-child')).map(
      (cell) => cell.textContent,
    );
    return (
      titles.includes('Public fractions') && titles.includes('Secret fractions') === secretShown
    );
  }, loggedIn);
}

/** Clicks the login button and logs in on the login page; resolves back on the demo page. */
async function logInFromDemo(page: Page, app: TestApp): Promise<void> {
  await Promise.all([
    page.waitForURL((url) => url.pathname === '/authentication/login.php'),
    page.click('#login-button'),
  ]);
  await page.fill('#email', EMAIL);
  await page.fill('#password', PASSWORD);
  await Promise.all([
    page.waitForURL((url) => url.href.startsWith(`${app.url}/demo/`)),
    page.click('#login-submit'),
  ]);
  await waitForState(page, true);
}

describe('the JavaScript client in a real browser: the demo page', () => {
  let dataSource: DataSource;
  let closeDb: () => Promise<void>;
  let app: TestApp;
  let shortLived: TestApp;
  let browser: Browser;
  let ids: IdMap;
  let apiKey: string;

  const demoUrl = (target: TestApp) => `${target.url}/demo/?apiKey=${encodeURIComponent(apiKey)}`;

  beforeAll(async () => {
    // The tests run from source; the browser files come from the run's one `npm run build`, which
    // runs `npm run build:client` (test/helpers/build.ts).
    await ensureBuilt();
    ({ dataSource, close: closeDb } = await openTestDatabase('client_demo'));
    ids = await loadData(dataSource, DOCUMENT);
    apiKey = (await createTestApiKey(dataSource, 'localhost')).secret;
    app = await startTestApp(dataSource);
    shortLived = await startTestApp(dataSource, { TOKEN_TTL_SECONDS: String(SHORT_TTL_SECONDS) });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await shortLived?.close();
    await app?.close();
    await closeDb();
  });

  describe('the browser build', () => {
    it('serves the SDK as a script (global QuizApi) and as an ES module, cacheable and revalidated', async () => {
      const script = await fetch(`${app.url}/sdk/quiz-api-client.js`);
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(script.headers.get('cache-control')).toBe('public, max-age=300');
      expect(script.headers.get('access-control-allow-origin')).toBe('*');
      const etag = script.headers.get('etag');
      expect(etag).toBeTruthy();
      const source = await script.text();
      expect(source).toContain('var QuizApi = (() => {');
      expect(source).toMatch(/QuizApiClient = class/);
      // Shipped alone: nothing of Node or of the server is bundled in.
      expect(source).not.toMatch(/require\(|node:|typeorm|express/);

      const revalidated = await fetch(`${app.url}/sdk/quiz-api-client.js`, {
        // fetch adds `Cache-Control: no-cache` to conditional requests unless one is given.
        headers: { 'if-none-match': etag ?? '', 'cache-control': 'max-age=0' },
      });
      expect(revalidated.status).toBe(304);

      const esm = await fetch(`${app.url}/sdk/quiz-api-client.mjs`);
      expect(esm.status).toBe(200);
      expect(esm.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(await esm.text()).toMatch(/export \{[^}]*QuizApiClient/);
    });

    it('serves the demo page with a strict CSP and no inline script', async () => {
      const bare = await fetch(`${app.url}/demo?apiKey=k`, { redirect: 'manual' });
      expect(bare.status).toBe(301);
      expect(bare.headers.get('location')).toBe('/demo/?apiKey=k');

      const res = await fetch(`${app.url}/demo/`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toContain('unsafe-inline');
      const html = await res.text();
      const scripts = html.match(/<script[^>]*>/g) ?? [];
      expect(scripts).toEqual([
        '<script src="../sdk/quiz-api-client.js">',
        '<script src="demo-page.js">',
      ]);
      expect(html).not.toMatch(/<script>|\son\w+=|style="/);

      const script = await fetch(`${app.url}/demo/demo-page.js`);
      expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      // The demo uses the SDK that is served, not a copy bundled into it.
      expect(await script.text()).not.toMatch(/QuizApiClient = class/);
      const css = await fetch(`${app.url}/demo/demo-page.css`);
      expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    });

    it('the client package, through the workspace link, exports the client to Node, as CommonJS and as an ES module, with its types', () => {
      const node = (args: string[]) =>
        execFileSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' }).trim();
      expect(
        node([
          '-e',
          "const c = require('@quiz-results/client'); console.log(typeof c.QuizApiClient, typeof c.DataSet, typeof c.setLoginButton)",
        ]),
      ).toBe('function function function');
      expect(
        node([
          '--input-type=module',
          '-e',
          "import { QuizApiClient, UnauthorizedOperationException } from '@quiz-results/client'; console.log(typeof QuizApiClient, typeof UnauthorizedOperationException)",
        ]),
      ).toBe('function function');
      const exportsField = (
        JSON.parse(
          fs.readFileSync(path.join(ROOT, 'packages', 'client', 'package.json'), 'utf8'),
        ) as {
          exports: Record<string, { require?: { types?: string } }>;
        }
      ).exports;
      const declarations = fs.readFileSync(
        path.join(ROOT, 'packages', 'client', exportsField['.']?.require?.types ?? ''),
        'utf8',
      );
      expect(declarations).toContain('QuizApiClient');
    });
  });

  it('logs in from the demo page, shows the private quiz and the results, then logs out', async () => {
    const context: BrowserContext = await browser.newContext({
      viewport: { width: 1100, height: 900 },
    });
    const page = await context.newPage();
    const problems = watchPage(page);
    try {
      await page.goto(demoUrl(app));
      await waitForState(page, false);
      expect(await page.textContent('#login-button')).toBe('Log in');
      expect(await page.textContent('#login-state')).toContain('Not logged in');
      expect(await quizTitles(page)).toEqual(['Public fractions']);

      await logInFromDemo(page, app);
      const landed = new URL(page.url());
      expect(landed.pathname).toBe('/demo/');
      expect(landed.searchParams.get('apiKey')).toBe(apiKey);
      expect(landed.searchParams.has('accessToken')).toBe(false);
      const stored = await storedToken(page);
      expect(stored?.token).toMatch(/^qt_/);
      const expectedExpiry = Date.now() + app.config.tokenTtlSeconds * 1000;
      expect(Math.abs((stored?.expiresAt ?? 0) - expectedExpiry)).toBeLessThan(60_000);
      expect(await page.textContent('#login-button')).toBe('Log out');
      expect(await page.textContent('#login-state')).toContain('Logged in until');
      // The user's private quiz appears; another user's never does.
      expect(await quizTitles(page)).toEqual(['Public fractions', 'Secret fractions']);

      await page.fill('#session-id', ids.sessions.R);
      await page.click('#results-form button[type="submit"]');
      await page.waitForSelector('#results:not([hidden])');
      const rows = await page.$$eval('#result-rows tr', (trs) =>
        trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent)),
      );
      expect(rows).toEqual([
        ['Ana Pupil', '1.5', '100'],
        ['Ben Pupil', '1', '75'],
        ['Cleo Pupil', '0.5', '50'],
        ['Dan Pupil', '—', '—'],
      ]);
      expect(await page.textContent('#results-message')).toBe(
        `Session ${ids.sessions.R}: 3 of 4 attendees answered.`,
      );
      // One bar per attendee who answered, as wide as their percentage.
      const bars = await page.$$eval('#results-chart svg rect.bar', (rects) =>
        rects.map((rect) => Number(rect.getAttribute('width'))),
      );
      expect(bars).toEqual([400, 300, 200]);
      // The results set as a file: the link downloads its CSV (exportDataSet).
      expect(await page.textContent('#results-csv')).toBe('Download CSV');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.click('#results-csv'),
      ]);
      expect(download.suggestedFilename()).toMatch(/^computedResult-[0-9]+\.csv$/);
      const csv = fs.readFileSync(await download.path()).toString('utf8');
      expect(csv.startsWith('\uFEFF')).toBe(true);
      expect(parseCsv(csv.slice(1))).toEqual([
        ['id', 'userId', 'aggregationFunction', 'nbGoodAnswers', 'goodAnswersPercent'],
        ['1', ids.users.Ana, 'average', '1.5', '100'],
        ['2', ids.users.Ben, 'average', '1', '75'],
        ['3', ids.users.Cleo, 'average', '0.5', '50'],
        ['4', ids.users.Dan, 'average', '', ''],
      ]);
      await page.screenshot({ path: testOutputPath('demo-page.png'), fullPage: true });

      await page.click('#login-button');
      await waitForState(page, false);
      expect(await storedToken(page)).toBeNull();
      expect(await page.textContent('#login-button')).toBe('Log in');
      expect(await quizTitles(page)).toEqual(['Public fractions']);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows the logged-out state once the token has expired, and after a reload', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = watchPage(page);
    try {
      await page.goto(demoUrl(shortLived));
      await waitForState(page, false);
      await logInFromDemo(page, shortLived);
      const stored = await storedToken(page);
      expect((stored?.expiresAt ?? 0) - Date.now()).toBeLessThanOrEqual(SHORT_TTL_SECONDS * 1000);

      // The label follows the expiry by itself, then a reload finds no valid token.
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, (stored?.expiresAt ?? 0) - Date.now() + 500)),
      );
      await waitForState(page, false);
      const sent: URL[] = [];
      page.on('request', (request) => sent.push(new URL(request.url())));
      await page.reload();
      await waitForState(page, false);
      expect(await page.textContent('#login-button')).toBe('Log in');
      expect(await page.textContent('#login-state')).toContain('Not logged in');
      expect(await quizTitles(page)).toEqual(['Public fractions']);
      const apiCalls = sent.filter((url) => url.pathname === '/getQuizSet');
      expect(apiCalls.length).toBeGreaterThan(0);
      // The expired token stays in storage but is never sent.
      expect(apiCalls.every((url) => !url.searchParams.has('accessToken'))).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

import type { Browser, Page } from 'playwright-core';
import type { DataSource } from 'typeorm';
import { QuizApiClient } from '@quiz-results/client';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap, ImportDocument } from '../../src/data/import/import-document';
import { startTestApp, type TestApp } from '../helpers/app';
import { launchChromium, testOutputPath } from '../helpers/browser';
import { ensureBuilt } from '../helpers/build';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';

/**
 * The demo page's live session in Chromium: the teacher logs in, follows a session, and the
 * table and chart follow the answers a classroom app sends with addAnswers; a pupil the teacher
 * does not know joins with the code the page shows her, through the page's join form, and
 * appears at once; a session of another teacher is refused; the end of the login ends the live
 * results.
 */

const EMAIL = 'tess@school.example';
const PASSWORD = 'teacher-password-123';
const EVE = { email: 'eve@school.example', password: 'pupil-password-456' };
const SHORT_TTL_SECONDS = 6;
const PUPILS = ['Ana', 'Ben', 'Cleo', 'Dan'];

/** Four statements, true, false, true, true. */
const STATEMENTS = [true, false, true, true];

const DOCUMENT: ImportDocument = {
  users: [
    {
      ref: 'T',
      email: EMAIL,
      password: PASSWORD,
      firstName: 'Tess',
      lastName: 'Teacher',
      publicProfile: true,
    },
    { ref: 'O', email: 'otto@school.example', firstName: 'Otto', lastName: 'Other' },
    ...[...PUPILS, 'Eve'].map((firstName) => ({
      ref: firstName,
      email: `${firstName.toLowerCase()}@school.example`,
      // Eve logs in to join with the code.
      ...(firstName === 'Eve' ? { password: EVE.password } : {}),
      firstName,
      lastName: 'Pupil',
    })),
  ],
  quizzes: [
    {
      ref: 'q',
      author: 'T',
      title: 'True or false',
      visibility: 'public',
      survey: false,
      tags: ['logic', 'live'],
      questions: STATEMENTS.map((goodAnswer, index) => ({
        title: `Statement ${index + 1}`,
        type: 'TrueFalse',
        goodAnswer,
      })),
    },
  ],
  sessions: [
    {
      ref: 'L',
      owner: 'T',
      title: 'Thursday logic',
      startDate: '2026-10-08 09:00:00',
      quizzes: ['q'],
      attendees: PUPILS.map((user) => ({ user })),
    },
    {
      ref: 'X',
      owner: 'O',
      title: 'Someone else’s class',
      startDate: '2026-10-08 10:00:00',
      quizzes: ['q'],
      attendees: [{ user: 'Ana' }],
    },
  ],
  // Ana has answered two statements, both right; nobody else has answered yet.
  answers: [0, 1].map((question) => ({
    session: 'L',
    user: 'Ana',
    quiz: 'q',
    question,
    answer: STATEMENTS[question],
    answeredAt: `2026-10-08 09:0${question + 1}:00`,
  })),
};

/** Problems the page reports: uncaught exceptions and console errors (CSP refusals among them). */
function watchPage(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  return problems;
}

/** The live table as the page shows it: one row of cell texts per pupil. */
function liveRows(page: Page): Promise<string[][]> {
  return page.$$eval('#live-rows tr', (trs) =>
    trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? '')),
  );
}

/** The chart's bars: each pupil's label, the bar's width (0 to 400, none without answers), the value shown. */
function liveBars(page: Page): Promise<{ label: string; width: number | null; value: string }[]> {
  return page.$eval('#live-chart svg', (svg) => {
    const labels = Array.from(svg.querySelectorAll('text.chart-label'));
    return labels.map((label) => {
      const rect = label.nextElementSibling?.matches('rect.bar') ? label.nextElementSibling : null;
      const value = (rect ?? label).nextElementSibling;
      return {
        label: label.textContent ?? '',
        width: rect ? Number(rect.getAttribute('width')) : null,
        value: value?.textContent ?? '',
      };
    });
  });
}

async function waitForLiveState(page: Page, state: string): Promise<void> {
  await page.waitForSelector(`#live-status[data-state="${state}"]`);
}

/** Waits until the page has drawn `count` messages. */
async function waitForMessages(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    (wanted) => Number(document.getElementById('live-updated')?.dataset.messages ?? 0) >= wanted,
    count,
  );
}

describe('the demo page follows a session live in a real browser', () => {
  let dataSource: DataSource;
  let closeDb: () => Promise<void>;
  let app: TestApp;
  let shortLived: TestApp;
  let browser: Browser;
  let ids: IdMap;
  let apiKey: string;
  let classroomApp: QuizApiClient;

  const demoUrl = (target: TestApp, sessionId: string) =>
    `${target.url}/demo/?apiKey=${encodeURIComponent(apiKey)}&sessionId=${sessionId}`;

  /** Opens the demo page for a session and logs in (as the teacher) through the login page. */
  async function openLoggedIn(
    page: Page,
    target: TestApp,
    sessionId: string,
    login = { email: EMAIL, password: PASSWORD },
  ): Promise<void> {
    await page.goto(demoUrl(target, sessionId));
    await waitForLiveState(page, 'logged-out');
    expect(await page.isDisabled('#live-start')).toBe(true);
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/authentication/login.php'),
      page.click('#login-button'),
    ]);
    await page.fill('#email', login.email);
    await page.fill('#password', login.password);
    await Promise.all([
      page.waitForURL((url) => url.href.startsWith(`${target.url}/demo/`)),
      page.click('#login-submit'),
    ]);
    await waitForLiveState(page, 'idle');
    expect(await page.inputValue('#live-session-id')).toBe(sessionId);
  }

  const answers = (user: string, values: boolean[]) =>
    values.map((answer, questionIndex) => ({
      userId: ids.users[user],
      quizId: ids.quizzes.q,
      questionIndex,
      answer,
    }));

  beforeAll(async () => {
    await ensureBuilt();
    ({ dataSource, close: closeDb } = await openTestDatabase('live_demo'));
    ids = await loadData(dataSource, DOCUMENT);
    const key = await createTestApiKey(dataSource, 'localhost');
    apiKey = key.secret;
    app = await startTestApp(dataSource);
    shortLived = await startTestApp(dataSource, { TOKEN_TTL_SECONDS: String(SHORT_TTL_SECONDS) });
    // The classroom app: what the pupils answer, sent with the teacher's token.
    classroomApp = new QuizApiClient({
      baseUrl: app.url,
      apiKey,
      accessToken: await createTestToken(dataSource, Number(ids.users.T), key.id),
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await shortLived?.close();
    await app?.close();
    await closeDb();
  });

  it('redraws the table and the chart with the numbers of each message as answers are stored', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    const problems = watchPage(page);
    try {
      const sessionId = ids.sessions.L;
      await openLoggedIn(page, app, sessionId);
      await page.click('#live-start');
      await waitForLiveState(page, 'live');
      await waitForMessages(page, 1);
      expect(await liveRows(page)).toEqual([
        ['Ana Pupil', '2', '2', '50'],
        ['Ben Pupil', '—', '—', '—'],
        ['Cleo Pupil', '—', '—', '—'],
        ['Dan Pupil', '—', '—', '—'],
      ]);
      expect(await liveBars(page)).toEqual([
        { label: 'Ana Pupil', width: 200, value: '50%' },
        { label: 'Ben Pupil', width: null, value: '—' },
        { label: 'Cleo Pupil', width: null, value: '—' },
        { label: 'Dan Pupil', width: null, value: '—' },
      ]);
      expect(await page.textContent('#live-updated')).toMatch(
        /^Updated \d\d:\d\d:\d\d · 1 message$/,
      );
      expect(await page.textContent('#live-status')).toBe(
        `Session ${sessionId}, live: 1 of 4 pupils answered.`,
      );
      expect(await page.isVisible('#live-stop')).toBe(true);
      await page.locator('#live-form').scrollIntoViewIfNeeded();
      await page.screenshot({ path: testOutputPath('live-demo-before.png'), fullPage: true });

      // Ben answers the four statements (three right), Ana the third one (right).
      await classroomApp.addAnswers({
        sessionId,
        answers: [
          ...answers('Ben', [true, true, true, true]),
          ...answers('Ana', STATEMENTS).slice(2, 3),
        ],
      });
      await page.waitForFunction(
        () =>
          document.querySelector('#live-rows tr:nth-child(2) td:nth-child(2)')?.textContent === '4',
      );
      expect(await liveRows(page)).toEqual([
        ['Ana Pupil', '3', '3', '75'],
        ['Ben Pupil', '4', '3', '75'],
        ['Cleo Pupil', '—', '—', '—'],
        ['Dan Pupil', '—', '—', '—'],
      ]);
      expect((await liveBars(page)).map((bar) => [bar.label, bar.width, bar.value])).toEqual([
        ['Ana Pupil', 300, '75%'],
        ['Ben Pupil', 300, '75%'],
        ['Cleo Pupil', null, '—'],
        ['Dan Pupil', null, '—'],
      ]);
      const messages = Number(await page.getAttribute('#live-updated', 'data-messages'));
      expect(messages).toBeGreaterThanOrEqual(2);
      expect(await page.textContent('#live-updated')).toMatch(
        new RegExp(`^Updated \\d\\d:\\d\\d:\\d\\d · ${messages} messages$`),
      );
      expect(await page.textContent('#live-status')).toBe(
        `Session ${sessionId}, live: 2 of 4 pupils answered.`,
      );

      // Eve is in none of Tess's groups: the classroom app may not write for her (§9)...
      await expect(
        classroomApp.addAnswers({ sessionId, answers: answers('Eve', [false]) }),
      ).rejects.toMatchObject({ status: 400, parameterName: 'answers[0].userId' });
      // ...until she joins with the code the page shows Tess, on the page's join form.
      const code = (await page.getAttribute('#live-join', 'data-code')) as string;
      expect(code).toMatch(/^[2-9A-HJKMNP-Z]{8}$/);
      expect(await page.textContent('#live-join')).toMatch(
        new RegExp(
          `^Pupils who are in none of your groups join with the code ${code.slice(0, 4)} ${code.slice(4)} until \\d\\d:\\d\\d:\\d\\d on .+\\.$`,
        ),
      );
      const eveContext = await browser.newContext();
      try {
        const evePage = await eveContext.newPage();
        const eveProblems = watchPage(evePage);
        // A page of her own, for no session: she attends none of Tess's yet.
        await openLoggedIn(evePage, app, '', EVE);
        await evePage.waitForSelector('#join-message[data-state="idle"]');
        // Typed as a pupil types it: lower case, the halves apart.
        await evePage.fill('#join-code', `${code.slice(0, 4).toLowerCase()} ${code.slice(4)}`);
        await evePage.click('#join-submit');
        await evePage.waitForSelector('#join-message[data-state="joined"]');
        expect(await evePage.textContent('#join-message')).toBe(
          `You joined session ${sessionId}, “Thursday logic”: 5 attendees.`,
        );
        // A pupil's page shows no code.
        expect(await evePage.isHidden('#live-join')).toBe(true);
        expect(eveProblems).toEqual([]);
      } finally {
        await eveContext.close();
      }
      // Tess's page shows Eve at once, without answers yet; then her answer.
      await page.waitForFunction(() => document.querySelectorAll('#live-rows tr').length === 5);
      expect((await liveRows(page)).at(-1)).toEqual(['Eve Pupil', '—', '—', '—']);
      await classroomApp.addAnswers({ sessionId, answers: answers('Eve', [false]) });
      await page.waitForFunction(
        () =>
          document.querySelector('#live-rows tr:last-child td:nth-child(2)')?.textContent === '1',
      );
      expect((await liveRows(page)).at(-1)).toEqual(['Eve Pupil', '1', '0', '0']);
      expect(await page.textContent('#live-status')).toBe(
        `Session ${sessionId}, live: 3 of 5 pupils answered.`,
      );
      await page.locator('#live-form').scrollIntoViewIfNeeded();
      await page.screenshot({ path: testOutputPath('live-demo-after.png'), fullPage: true });

      // Stopped: answers that follow change nothing on the page.
      await page.click('#live-stop');
      await waitForLiveState(page, 'idle');
      const before = await liveRows(page);
      await classroomApp.addAnswers({ sessionId, answers: answers('Cleo', [true]) });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await liveRows(page)).toEqual(before);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('refuses a session of another teacher, saying why', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      const sessionId = ids.sessions.X;
      await openLoggedIn(page, app, sessionId);
      await page.click('#live-start');
      await waitForLiveState(page, 'ended');
      expect(await page.textContent('#live-status')).toBe(
        `Session ${sessionId} cannot be followed: only the owner of session ${sessionId} may follow its results.`,
      );
      expect(await page.isHidden('#live-results')).toBe(true);
      // Still logged in: another session may be followed.
      expect(await page.isEnabled('#live-start')).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('ends the live results when the login ends, keeping the last numbers', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    const problems = watchPage(page);
    try {
      await openLoggedIn(page, shortLived, ids.sessions.L);
      const loggedInAt = Date.now();
      await page.click('#live-start');
      await waitForLiveState(page, 'live');
      const rows = await liveRows(page);
      expect(rows[0]).toEqual(['Ana Pupil', '3', '3', '75']);

      await page.waitForSelector('#live-status[data-state="ended"]', {
        timeout: SHORT_TTL_SECONDS * 1000 + 10_000,
      });
      expect(Date.now() - loggedInAt).toBeLessThan(SHORT_TTL_SECONDS * 1000 + 5_000);
      expect(await page.textContent('#live-status')).toMatch(
        /^Live results (of session \d+ )?stopped at \d\d:\d\d:\d\d: (your login has ended \(the access token has expired\)|you are not logged in any more)\. Log in again to follow the session\.$/,
      );
      // The last numbers stay on the page, dimmed; the page is logged out.
      expect(await liveRows(page)).toEqual(rows);
      expect(await page.getAttribute('#live-results', 'class')).toBe('ended');
      await page.waitForSelector('#login-button[data-logged-in="false"]');
      expect(await page.isDisabled('#live-start')).toBe(true);
      await page.locator('#live-form').scrollIntoViewIfNeeded();
      await page.screenshot({ path: testOutputPath('live-demo-ended.png'), fullPage: true });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

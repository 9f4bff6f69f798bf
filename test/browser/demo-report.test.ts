import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { DataSource } from 'typeorm';
import {
  ACCESS_TOKEN_STORAGE_KEY,
  type QuestionStatistic,
  type QuizStatistic,
  type StoredAccessToken,
} from '@quiz-results/client';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap } from '../../src/data/import/import-document';
import { startTestApp, type TestApp } from '../helpers/app';
import {
  cspViolations,
  launchChromium,
  recordCspViolations,
  testOutputPath,
  watchPage,
} from '../helpers/browser';
import { ensureBuilt } from '../helpers/build';
import { createTestApiKey } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';
import {
  REPORT_DOCUMENT,
  REPORT_TEACHER_EMAIL,
  REPORT_TEACHER_PASSWORD,
} from '../helpers/report-fixtures';

/**
 * The demo page's quiz report (item analysis, contract.md §12) in a real browser, over the
 * session of report-fixtures.ts, compared with what REST gives for the same sets.
 */

/** The cells' texts of each row of a table body. */
function rowsOf(page: Page, selector: string): Promise<string[][]> {
  return page.$$eval(`${selector} tr`, (rows) =>
    rows.map((row) =>
      Array.from(row.querySelectorAll('td')).map((cell) =>
        Array.from(cell.children).length > 0 && cell.querySelector('li, .flag')
          ? Array.from(cell.querySelectorAll('li, .flag'))
              .map((part) => part.textContent ?? '')
              .join(' | ')
          : (cell.textContent ?? ''),
      ),
    ),
  );
}

/** As the page writes a number: 2 decimals at most, a dash for none. */
const shown = (value: number | null) =>
  value === null ? '—' : String(Math.round(value * 100) / 100);
const percent = (value: number | null) => (value === null ? '—' : `${shown(value)}%`);

const BANDS = [
  '0–10%',
  '10–20%',
  '20–30%',
  '30–40%',
  '40–50%',
  '50–60%',
  '60–70%',
  '70–80%',
  '80–90%',
  '90–100%',
];

/** Highest discrimination first, none last, ties in quiz order: the order the report promises. */
function byDiscrimination(questions: QuestionStatistic[]): QuestionStatistic[] {
  return [...questions].sort((a, b) => {
    if (a.discrimination === b.discrimination) return a.questionIndex - b.questionIndex;
    if (a.discrimination === null) return 1;
    if (b.discrimination === null) return -1;
    return b.discrimination - a.discrimination;
  });
}

/** The flags a question of the designed quiz must carry, in words. */
const EXPECTED_FLAGS: Record<string, string> = {
  'Half of a half': 'Too easy: facility over 95',
  'Hardest reduction': 'Too hard: facility under 20',
  'Coin toss': 'Low discrimination: under 0.2',
};

describe('the demo page: the quiz report of a session', () => {
  let dataSource: DataSource;
  let closeDb: () => Promise<void>;
  let app: TestApp;
  let browser: Browser;
  let ids: IdMap;
  let apiKey: string;

  const demoUrl = () =>
    `${app.url}/demo/?apiKey=${encodeURIComponent(apiKey)}&sessionId=${ids.sessions.R}`;

  /** A REST operation's first page, as the teacher of the page. */
  async function rest<T>(
    operation: string,
    token: string,
    params: Record<string, string>,
  ): Promise<{ dataSetId: string; items: T[] }> {
    const query = new URLSearchParams({ apiKey, accessToken: token, ...params });
    const res = await app.get(`/${operation}?${query.toString()}`);
    expect({ operation, status: res.status }).toEqual({ operation, status: 200 });
    return (await res.json()) as { dataSetId: string; items: T[] };
  }

  /** The demo page, watched from its first request, logged in as the teacher if asked. */
  async function openDemo(
    context: BrowserContext,
    loggedIn: boolean,
  ): Promise<{ page: Page; problems: string[] }> {
    const page = await context.newPage();
    const problems = watchPage(page);
    await page.goto(demoUrl());
    await page.waitForSelector('#login-state[data-logged-in="false"]');
    if (!loggedIn) return { page, problems };
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/authentication/login.php'),
      page.click('#login-button'),
    ]);
    await page.fill('#email', REPORT_TEACHER_EMAIL);
    await page.fill('#password', REPORT_TEACHER_PASSWORD);
    await Promise.all([
      page.waitForURL((url) => url.href.startsWith(`${app.url}/demo/`)),
      page.click('#login-submit'),
    ]);
    await page.waitForSelector('#login-state[data-logged-in="true"]');
    return { page, problems };
  }

  beforeAll(async () => {
    await ensureBuilt();
    ({ dataSource, close: closeDb } = await openTestDatabase('demo_report'));
    ids = await loadData(dataSource, REPORT_DOCUMENT);
    apiKey = (await createTestApiKey(dataSource, 'localhost')).secret;
    app = await startTestApp(dataSource);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await closeDb();
  });

  it('without an access token, says the report needs a login', async () => {
    const context = await browser.newContext();
    await recordCspViolations(context);
    try {
      const { page, problems } = await openDemo(context, false);
      await page.waitForSelector('#report-status[data-state="logged-out"]');
      expect(await page.textContent('#report-status')).toBe(
        'Log in as the teacher of a session to see its quiz report.',
      );
      expect(await page.isDisabled('#report-show')).toBe(true);
      expect(await page.isHidden('#report')).toBe(true);
      expect(problems).toEqual([]);
      expect(await cspViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows the scores, histogram and flagged questions of each quiz, as REST gives them', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    await recordCspViolations(context);
    try {
      const { page, problems } = await openDemo(context, true);
      expect(await page.inputValue('#report-session-id')).toBe(ids.sessions.R);
      await page.click('#report-show');
      await page.waitForSelector('#report-status[data-state="shown"]');

      // The same statistics through REST, with the teacher's token from the page.
      const stored = JSON.parse(
        (await page.evaluate((key) => localStorage.getItem(key), ACCESS_TOKEN_STORAGE_KEY)) ?? '',
      ) as StoredAccessToken;
      const sessionId = ids.sessions.R;
      const users = await rest('getUserSet', stored.token, { sessionId });
      const quizSet = await rest('getQuizSet', stored.token, { sessionId });
      const sets = { userSetId: users.dataSetId, quizSetId: quizSet.dataSetId, sessionId };
      const quizzes = (await rest<QuizStatistic>('getQuizStatistics', stored.token, sets)).items;
      const questions = (await rest<QuestionStatistic>('getQuestionStatistics', stored.token, sets))
        .items;
      const fractions = quizzes.find((quiz) => quiz.quizId === ids.quizzes.fractions);
      const warmUp = quizzes.find((quiz) => quiz.quizId === ids.quizzes.warmup);
      if (!fractions || !warmUp) throw new Error('both quizzes have statistics');

      // The data is what the quiz was designed to be (worked by hand, see the top).
      expect(fractions).toMatchObject({
        nbAttempts: 20,
        mean: 53,
        median: 60,
        stddev: 23.04,
        cronbachAlpha: 0.51,
        histogram: [0, 0, 4, 0, 5, 0, 6, 0, 4, 1],
      });
      const fractionQuestions = questions.filter((q) => q.quizId === ids.quizzes.fractions);
      expect(fractionQuestions.map((q) => [q.title, q.facility, q.discrimination])).toEqual([
        ['Largest fraction', 60, 0.56],
        ['Half of a half', 100, null],
        ['Hardest reduction', 5, 0.3],
        ['Coin toss', 50, 0.05],
        ['Quarters', 50, 0.57],
      ]);

      // The picker lists the quizzes of the session; the first is shown.
      const options = await page.$$eval('#report-quiz option', (items) =>
        items.map((item) => [(item as HTMLOptionElement).value, item.textContent]),
      );
      expect(options).toEqual([
        [ids.quizzes.fractions, 'Fractions check (20 attempts)'],
        [ids.quizzes.warmup, 'Warm-up (5 attempts)'],
        [ids.quizzes.feedback, 'Term feedback (3 attempts)'],
      ]);
      expect(await page.inputValue('#report-quiz')).toBe(ids.quizzes.fractions);

      const summary = async () => ({
        attempts: await page.textContent('#report-attempts'),
        mean: await page.textContent('#report-mean'),
        median: await page.textContent('#report-median'),
        stddev: await page.textContent('#report-stddev'),
        alpha: await page.textContent('#report-alpha'),
      });
      const expectedSummary = (quiz: QuizStatistic) => ({
        attempts: String(quiz.nbAttempts),
        mean: percent(quiz.mean),
        median: percent(quiz.median),
        stddev: percent(quiz.stddev),
        alpha: shown(quiz.cronbachAlpha),
      });
      expect(await summary()).toEqual(expectedSummary(fractions));

      // The histogram: one bar per non-empty band, its count in the chart and in the table.
      const bars = await page.$$eval('#report-histogram svg rect.bar', (rects) =>
        rects.map((rect) => [
          Number(rect.getAttribute('data-count')),
          Number(rect.getAttribute('height')),
        ]),
      );
      const nonEmpty = (fractions.histogram ?? []).filter((count) => count > 0);
      expect(bars.map(([count]) => count)).toEqual(nonEmpty);
      // Heights in proportion to the counts.
      const perAttempt = bars[0][1] / bars[0][0];
      for (const [count, height] of bars) expect(height).toBeCloseTo(count * perAttempt, 6);
      expect(await page.getAttribute('#report-histogram svg', 'aria-label')).toContain(
        '60–70% 6 attempts',
      );
      expect(await rowsOf(page, '#report-histogram-rows')).toEqual(
        BANDS.map((band, index) => [band, String(fractions.histogram?.[index])]),
      );

      // Questions: most discriminating first, none last; figures and flags as REST says.
      const sorted = byDiscrimination(fractionQuestions);
      expect(sorted.map((q) => q.title)).toEqual([
        'Quarters',
        'Largest fraction',
        'Hardest reduction',
        'Coin toss',
        'Half of a half',
      ]);
      const choices = (q: QuestionStatistic) =>
        q.choiceCounts === null
          ? '—'
          : q.choiceCounts
              .map((count, index) => `${['1/3', '3/4 (good answer)', '2/5'][index]}: ${count}`)
              .join(' | ');
      expect(await rowsOf(page, '#report-question-rows')).toEqual(
        sorted.map((q) => [
          String(q.questionIndex + 1),
          q.title,
          shown(q.facility),
          shown(q.discrimination),
          String(q.nbAnswers),
          choices(q),
          EXPECTED_FLAGS[q.title] ?? '—',
        ]),
      );
      // The counts the choices column shows are those designed: 4 chose 1/3, 12 3/4, 4 2/5.
      expect(fractionQuestions[0].choiceCounts).toEqual([4, 12, 4]);
      expect(fractionQuestions[2].nbAnswers).toBe(15);
      // Flagged rows carry a mark besides the words, on exactly those questions.
      const flagged = await page.$$eval(
        '#report-question-rows tr.flagged td:nth-child(2)',
        (cells) => cells.map((cell) => cell.textContent),
      );
      expect(flagged.sort()).toEqual(Object.keys(EXPECTED_FLAGS).sort());

      // The table of the histogram is one click away, under the chart.
      expect(await page.isVisible('#report-histogram-table')).toBe(false);
      await page.click('#report-histogram-details summary');
      expect(await page.isVisible('#report-histogram-table')).toBe(true);

      await page.screenshot({ path: testOutputPath('demo-report.png'), fullPage: true });
      await page.locator('#report-section').screenshot({
        path: testOutputPath('demo-report-section.png'),
      });

      // The other quiz, through the picker.
      await page.selectOption('#report-quiz', ids.quizzes.warmup);
      expect(await summary()).toEqual(expectedSummary(warmUp));
      const warmUpRows = await rowsOf(page, '#report-question-rows');
      const warmUpQuestions = byDiscrimination(
        questions.filter((q) => q.quizId === ids.quizzes.warmup),
      );
      // Neither discriminates (no variance in one or the other): quiz order.
      expect(warmUpQuestions.map((q) => [q.title, q.discrimination])).toEqual([
        ['One is odd', null],
        ['Two is even', null],
      ]);
      expect(warmUpRows.map((row) => [row[1], row[2], row[3], row[6]])).toEqual(
        warmUpQuestions.map((q) => [
          q.title,
          shown(q.facility),
          shown(q.discrimination),
          q.title === 'Two is even' ? 'Too easy: facility over 95' : '—',
        ]),
      );

      // The survey: no score, and its choices kept back, 3 attempts being under the minimum.
      await page.selectOption('#report-quiz', ids.quizzes.feedback);
      const feedback = quizzes.find((quiz) => quiz.quizId === ids.quizzes.feedback);
      expect(feedback).toMatchObject({ nbAttempts: 3, mean: null, histogram: null });
      expect(await summary()).toEqual({ ...expectedSummary(feedback as QuizStatistic), mean: '—' });
      expect(await page.textContent('#report-note')).toBe(
        '“Term feedback” is a survey: it has no good answers, so no scores; too few pupils answered it to show their choices without telling whose they are.',
      );
      expect(await page.isHidden('#report-histogram-figure')).toBe(true);
      const feedbackQuestions = questions.filter((q) => q.quizId === ids.quizzes.feedback);
      expect(feedbackQuestions.map((q) => [q.nbAnswers, q.choiceCounts])).toEqual([
        [3, null],
        [3, null],
      ]);
      expect((await rowsOf(page, '#report-question-rows')).map((row) => row[5])).toEqual([
        '—',
        '—',
      ]);
      await page.locator('#report-section').screenshot({
        path: testOutputPath('demo-report-survey.png'),
      });

      // The session's averages leave the survey out: P00 has 5/5 and 2/2.
      await page.fill('#session-id', sessionId);
      await page.click('#results-form button[type="submit"]');
      await page.waitForSelector('#results:not([hidden])');
      const averages = await page.$$eval('#result-rows tr', (trs) =>
        trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent)),
      );
      // P01: 3/5 (60 %) and 2/2 (100 %); P02: 4/5 (80 %) and 2/2 — the survey counts as nothing.
      expect(averages.slice(0, 3)).toEqual([
        ['P00 Pupil', '3.5', '100'],
        ['P01 Pupil', '2.5', '80'],
        ['P02 Pupil', '3', '90'],
      ]);
      await page.screenshot({ path: testOutputPath('demo-report-averages.png'), fullPage: true });

      // Logged out, the teacher's report goes away and the login message comes back.
      await page.click('#login-button');
      await page.waitForSelector('#report-status[data-state="logged-out"]');
      expect(await page.isHidden('#report')).toBe(true);
      expect(await page.isDisabled('#report-show')).toBe(true);

      expect(problems).toEqual([]);
      expect(await cspViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

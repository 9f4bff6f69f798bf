/**
 * The script of the demo page (bundled to demo-page.js with its parts, demo-live.panel.ts,
 * demo-report.panel.ts and their drawing files). It uses the SDK as a page would: the global
 * `QuizApi` of the served browser build, never an import of it, so it shows the SDK as shipped.
 */
import type * as QuizApiModule from '@quiz-results/client';
import type { DataSet, Quiz, UserAggregateResult } from '@quiz-results/client';
import { joinPanel } from './demo-join.panel';
import { livePanel } from './demo-live.panel';
import { reportPanel } from './demo-report.panel';
import { barChart, byId, formatNumber, textCell, userName } from './demo-page.drawing';

declare const QuizApi: typeof QuizApiModule;

/**
 * The token carries no user id and the contract has no "who am I", so the page lists every quiz
 * the requester may see (any creation date): public ones, and once logged in also the user's own
 * quizzes of any visibility and the private ones played in their sessions.
 */
const ALL_TIME = { from: '1000-01-01', to: '9999-12-30' } as const;
const QUIZZES_PER_PAGE = 20;

function start(): void {
  QuizApi.storeAccessTokenFromUrl();
  const pageUrl = new URL(location.href);
  const apiKey = pageUrl.searchParams.get('apiKey');
  const loginButton = byId<HTMLButtonElement>('login-button');
  const loginState = byId('login-state');
  const errorBox = byId('error');
  if (!apiKey) {
    loginState.textContent = 'No API key yet.';
    byId('api-key-form').hidden = false;
    return;
  }
  byId('app').hidden = false;

  // The page is served at {base}/demo/: the operations are at {base}/<operation>.
  const baseUrl = new URL('..', location.href).href;
  const client = new QuizApi.QuizApiClient({ baseUrl, apiKey });

  const showError = (message: string | undefined): void => {
    errorBox.textContent = message ?? '';
    errorBox.hidden = message === undefined;
  };

  /** A refused token (expired or revoked on the service) is wiped: the page shows the logged-out state. */
  const failed = (error: unknown): void => {
    if (
      error instanceof QuizApi.UnauthorizedOperationException &&
      error.status === 401 &&
      client.accessToken !== undefined
    ) {
      showError('Your login has ended; log in again to see your quizzes.');
      QuizApi.wipeAccessToken();
      return;
    }
    showError(error instanceof Error ? error.message : String(error));
  };

  // Quizzes: the first page of the set, then one more page per click.
  const quizRows = byId<HTMLTableSectionElement>('quiz-rows');
  const quizSummary = byId('quizzes-summary');
  const moreQuizzes = byId<HTMLButtonElement>('quizzes-more');
  let quizRun = 0;
  let quizSet: DataSet<Quiz> | undefined;

  const showQuizzes = (set: DataSet<Quiz>): void => {
    quizSet = set;
    for (const quiz of set.items) {
      const row = quizRows.insertRow();
      row.dataset.quizId = quiz.id;
      textCell(row, quiz.title);
      const badge = document.createElement('span');
      badge.className = `badge ${quiz.visibility}`;
      badge.textContent = quiz.visibility;
      row.insertCell().append(badge);
      textCell(row, quiz.tags.join(', '));
      textCell(row, String(quiz.nbQuestions), 'number');
      textCell(row, userName(quiz.author, quiz.author.id));
      textCell(row, quiz.creationDate.toISOString().slice(0, 10));
    }
    const shown = quizRows.rows.length;
    quizSummary.textContent =
      set.totalNumberOfItems === 0
        ? 'No quiz to show.'
        : `${shown} of ${set.totalNumberOfItems} quizzes, by id.`;
    moreQuizzes.hidden = !set.hasNextPage;
  };

  const loadQuizzes = async (): Promise<void> => {
    const run = ++quizRun;
    quizRows.replaceChildren();
    quizSummary.textContent = 'Loading…';
    moreQuizzes.hidden = true;
    try {
      const set = await client.getQuizSet({
        creationDate: ALL_TIME,
        numberOfItemsPerPage: QUIZZES_PER_PAGE,
      });
      if (run === quizRun) showQuizzes(set);
    } catch (error) {
      if (run === quizRun) failed(error);
    }
  };

  moreQuizzes.addEventListener('click', () => {
    const run = quizRun;
    void quizSet
      ?.nextPage()
      .then((next) => {
        if (next && run === quizRun) showQuizzes(next);
      })
      .catch(failed);
  });

  // Results: average good answers per attendee of the chosen session, as a table and a chart.
  const resultsForm = byId<HTMLFormElement>('results-form');
  const sessionInput = byId<HTMLInputElement>('session-id');
  const resultsMessage = byId('results-message');
  const results = byId('results');
  const resultRows = byId<HTMLTableSectionElement>('result-rows');
  const chart = byId('results-chart');
  const resultsCsv = byId<HTMLAnchorElement>('results-csv');
  let resultRun = 0;

  /** A plain link to the set's export, so the browser streams the file to disk itself. */
  const exportLink = (dataSetId: string): string => {
    const url = new URL('exportDataSet', baseUrl);
    url.searchParams.set('dataSetId', dataSetId);
    url.searchParams.set('format', 'csv');
    url.searchParams.set('apiKey', client.apiKey);
    if (client.accessToken) url.searchParams.set('accessToken', client.accessToken);
    return url.href;
  };

  const loadResults = async (sessionId: string): Promise<void> => {
    const run = ++resultRun;
    results.hidden = true;
    resultRows.replaceChildren();
    chart.replaceChildren();
    resultsMessage.textContent = `Computing the results of session ${sessionId}…`;
    try {
      const users = await client.getUserSet({ sessionId });
      const quizzes = await client.getQuizSet({ sessionId });
      if (users.totalNumberOfItems === 0 || quizzes.totalNumberOfItems === 0) {
        if (run === resultRun) {
          resultsMessage.textContent = `Session ${sessionId} has no attendee or no quiz you can see.`;
        }
        return;
      }
      const set = await client.getResults({
        userSetId: users,
        quizSetId: quizzes,
        sessionId,
        resultTypes: ['nbGoodAnswers', 'goodAnswersPercent'],
        aggregationFunctions: ['average'],
        groupBy: 'user',
      });
      const [rows, attendees] = await Promise.all([set.toArray(), users.toArray()]);
      if (run !== resultRun) return;
      resultsCsv.href = exportLink(set.dataSetId);
      resultsCsv.download = `computedResult-${set.dataSetId}.csv`;
      const names = new Map(attendees.map((user) => [user.id, userName(user, user.id)]));
      const answered = rows.filter(
        (row): row is UserAggregateResult & { goodAnswersPercent: number } =>
          typeof row.goodAnswersPercent === 'number',
      );
      if (answered.length === 0) {
        resultsMessage.textContent = `No results yet for session ${sessionId}.`;
        return;
      }
      for (const result of rows) {
        const row = resultRows.insertRow();
        row.dataset.userId = result.userId;
        textCell(row, names.get(result.userId) ?? `User ${result.userId}`);
        textCell(row, formatNumber(result.nbGoodAnswers), 'number');
        textCell(row, formatNumber(result.goodAnswersPercent), 'number');
      }
      chart.append(
        barChart(
          answered.map((result) => ({
            label: names.get(result.userId) ?? `User ${result.userId}`,
            value: result.goodAnswersPercent,
          })),
          'Average percentage of good answers per attendee',
        ),
      );
      resultsMessage.textContent = `Session ${sessionId}: ${answered.length} of ${rows.length} attendees answered.`;
      results.hidden = false;
    } catch (error) {
      if (run !== resultRun) return;
      if (error instanceof QuizApi.UnsupportedRequestException && error.status === 404) {
        resultsMessage.textContent = 'This service does not compute results yet (no getResults).';
        return;
      }
      resultsMessage.textContent = '';
      failed(error);
    }
  };

  /**
   * A session's results read its attendance, which only its owner and its attendees may
   * (contract.md §6): without a token the page asks for a login instead of a refusal.
   */
  const showResults = (sessionId: string): void => {
    if (sessionId === '') return;
    if (client.accessToken !== undefined) {
      void loadResults(sessionId);
      return;
    }
    resultRun += 1;
    results.hidden = true;
    resultsMessage.textContent = `Log in as the teacher or an attendee of session ${sessionId} to see its results.`;
  };

  resultsForm.addEventListener('submit', (event) => {
    event.preventDefault();
    showResults(sessionInput.value.trim());
  });

  // A link may choose the session: ?sessionId=… (kept through the login redirect).
  sessionInput.value = pageUrl.searchParams.get('sessionId') ?? '';
  const live = livePanel(client, { sessionId: sessionInput.value, failed });
  const report = reportPanel(client, { sessionId: sessionInput.value, failed });
  const join = joinPanel(client, { failed });

  // The login button decides what the page shows: it calls back once now and on every change.
  client.setLoginButton('login-button', {
    onChange: (loggedIn) => {
      showError(undefined);
      const stored = QuizApi.getStoredAccessToken();
      loginState.textContent =
        loggedIn && stored
          ? `Logged in until ${new Date(stored.expiresAt).toLocaleString()}: your own and shared quizzes are listed too.`
          : 'Not logged in: only public quizzes are listed.';
      loginState.dataset.loggedIn = String(loggedIn);
      void loadQuizzes();
      live.loginChanged(loggedIn);
      report.loginChanged(loggedIn);
      join.loginChanged(loggedIn);
      showResults(sessionInput.value.trim());
    },
  });
  loginButton.disabled = false;
}

start();

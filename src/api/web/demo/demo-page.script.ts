/**
 * The script of the demo page (bundled to demo-page.js with its parts, the demo-*.panel.ts files
 * and what they draw with). It uses the SDK as a page would: the global `QuizApi` of the served
 * browser build, never an import of it, so it shows the SDK as shipped.
 */
import type * as QuizApiModule from '@quiz-results/client';
import type { QuizApiClient } from '@quiz-results/client';
import { joinPanel } from './demo-join.panel';
import { livePanel } from './demo-live.panel';
import { byId } from './demo-page.drawing';
import { quizzesPanel } from './demo-quizzes.panel';
import { reportPanel } from './demo-report.panel';
import { resultsPanel } from './demo-results.panel';

declare const QuizApi: typeof QuizApiModule;

/** The page's error line: a failure's message, or nothing. */
interface PageErrors {
  show(message: string | undefined): void;
  /** How the parts report a failure of a REST call. */
  failed(error: unknown): void;
}

function start(): void {
  QuizApi.storeAccessTokenFromUrl();
  const pageUrl = new URL(location.href);
  const apiKey = pageUrl.searchParams.get('apiKey');
  const loginButton = byId<HTMLButtonElement>('login-button');
  const loginState = byId('login-state');
  if (!apiKey) {
    loginState.textContent = 'No API key yet.';
    byId('api-key-form').hidden = false;
    return;
  }
  byId('app').hidden = false;

  // The page is served at {base}/demo/: the operations are at {base}/<operation>.
  const baseUrl = new URL('..', location.href).href;
  const client = new QuizApi.QuizApiClient({ baseUrl, apiKey });
  const errors = pageErrors(client, byId('error'));
  const { failed } = errors;

  // A link may choose the session: ?sessionId=… (kept through the login redirect).
  const sessionId = pageUrl.searchParams.get('sessionId') ?? '';
  const quizzes = quizzesPanel(client, { failed });
  const results = resultsPanel(client, { sessionId, baseUrl, failed });
  // In the order they hear of a login change: the results part last, as it may load.
  const panels = [
    quizzes,
    livePanel(client, { sessionId, failed }),
    reportPanel(client, { sessionId, failed }),
    joinPanel(client, { failed }),
    results,
  ];

  // The login button decides what the page shows: it calls back once now and on every change.
  client.setLoginButton('login-button', {
    onChange: (loggedIn) => {
      errors.show(undefined);
      showLoginState(loginState, loggedIn);
      for (const panel of panels) panel.loginChanged(loggedIn);
    },
  });
  loginButton.disabled = false;
}

function pageErrors(client: QuizApiClient, errorBox: HTMLElement): PageErrors {
  const show = (message: string | undefined): void => {
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
      show('Your login has ended; log in again to see your quizzes.');
      QuizApi.wipeAccessToken();
      return;
    }
    show(error instanceof Error ? error.message : String(error));
  };
  return { show, failed };
}

function showLoginState(loginState: HTMLElement, loggedIn: boolean): void {
  const stored = QuizApi.getStoredAccessToken();
  loginState.textContent =
    loggedIn && stored
      ? `Logged in until ${new Date(stored.expiresAt).toLocaleString()}: your own and shared quizzes are listed too.`
      : 'Not logged in: only public quizzes are listed.';
  loginState.dataset.loggedIn = String(loggedIn);
}

start();

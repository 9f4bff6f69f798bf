/**
 * The "Results of a session" part of the demo page: average good answers per attendee of the
 * chosen session, as a table and a chart, with a link to the results' CSV export.
 */
import type * as QuizApiModule from '@quiz-results/client';
import type { QuizApiClient, User, UserAggregateResult } from '@quiz-results/client';
import { barChart, byId, formatNumber, textCell, userName } from './demo-page.drawing';

declare const QuizApi: typeof QuizApiModule;

export interface ResultsPanel {
  /** The login button's news: the chosen session's results are shown again, or a login asked. */
  loginChanged(loggedIn: boolean): void;
}

export interface ResultsPanelOptions {
  /** The session the page was opened for (?sessionId=), if any. */
  sessionId: string;
  /** `{base}/`, where the service's operations are. */
  baseUrl: string;
  /** How the page reports a failure of a REST call. */
  failed: (error: unknown) => void;
}

/** The elements of the part, found once. */
interface ResultsElements {
  form: HTMLFormElement;
  input: HTMLInputElement;
  message: HTMLElement;
  results: HTMLElement;
  rows: HTMLTableSectionElement;
  chart: HTMLElement;
  csv: HTMLAnchorElement;
}

/** What the service computed for a session: one row per attendee, and who they are. */
interface SessionResults {
  dataSetId: string;
  rows: UserAggregateResult[];
  attendees: User[];
}

type AnsweredResult = UserAggregateResult & { goodAnswersPercent: number };

function resultsElements(): ResultsElements {
  return {
    form: byId<HTMLFormElement>('results-form'),
    input: byId<HTMLInputElement>('session-id'),
    message: byId('results-message'),
    results: byId('results'),
    rows: byId<HTMLTableSectionElement>('result-rows'),
    chart: byId('results-chart'),
    csv: byId<HTMLAnchorElement>('results-csv'),
  };
}

export function resultsPanel(client: QuizApiClient, options: ResultsPanelOptions): ResultsPanel {
  const view = resultsElements();
  // Each load is a run; what an older run brings is dropped.
  let run = 0;

  const loadResults = async (sessionId: string): Promise<void> => {
    const mine = ++run;
    view.results.hidden = true;
    view.rows.replaceChildren();
    view.chart.replaceChildren();
    view.message.textContent = `Computing the results of session ${sessionId}…`;
    try {
      const found = await fetchResults(client, sessionId);
      if (mine !== run) return;
      if (!found) {
        view.message.textContent = `Session ${sessionId} has no attendee or no quiz you can see.`;
        return;
      }
      view.csv.href = exportLink(client, options.baseUrl, found.dataSetId);
      view.csv.download = `computedResult-${found.dataSetId}.csv`;
      drawResults(view, sessionId, found);
    } catch (error) {
      if (mine !== run) return;
      if (error instanceof QuizApi.UnsupportedRequestException && error.status === 404) {
        view.message.textContent = 'This service does not compute results yet (no getResults).';
        return;
      }
      view.message.textContent = '';
      options.failed(error);
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
    run += 1;
    view.results.hidden = true;
    view.message.textContent = `Log in as the teacher or an attendee of session ${sessionId} to see its results.`;
  };

  view.form.addEventListener('submit', (event) => {
    event.preventDefault();
    showResults(view.input.value.trim());
  });
  view.input.value = options.sessionId;

  return { loginChanged: () => showResults(view.input.value.trim()) };
}

/**
 * Averages per attendee over the session's user set and quiz set; undefined when the session
 * has no attendee or no quiz the requester sees.
 */
async function fetchResults(
  client: QuizApiClient,
  sessionId: string,
): Promise<SessionResults | undefined> {
  const users = await client.getUserSet({ sessionId });
  const quizzes = await client.getQuizSet({ sessionId });
  if (users.totalNumberOfItems === 0 || quizzes.totalNumberOfItems === 0) return undefined;
  const set = await client.getResults({
    userSetId: users,
    quizSetId: quizzes,
    sessionId,
    resultTypes: ['nbGoodAnswers', 'goodAnswersPercent'],
    aggregationFunctions: ['average'],
    groupBy: 'user',
  });
  const [rows, attendees] = await Promise.all([set.toArray(), users.toArray()]);
  return { dataSetId: set.dataSetId, rows, attendees };
}

/** A plain link to the set's export, so the browser streams the file to disk itself. */
function exportLink(client: QuizApiClient, baseUrl: string, dataSetId: string): string {
  const url = new URL('exportDataSet', baseUrl);
  url.searchParams.set('dataSetId', dataSetId);
  url.searchParams.set('format', 'csv');
  url.searchParams.set('apiKey', client.apiKey);
  if (client.accessToken) url.searchParams.set('accessToken', client.accessToken);
  return url.href;
}

/** The table of every attendee and the chart of those who answered; or why there is none. */
function drawResults(view: ResultsElements, sessionId: string, found: SessionResults): void {
  const names = new Map(found.attendees.map((user) => [user.id, userName(user, user.id)]));
  const nameOf = (userId: string) => names.get(userId) ?? `User ${userId}`;
  const { rows } = found;
  const answered = rows.filter(
    (row): row is AnsweredResult => typeof row.goodAnswersPercent === 'number',
  );
  if (answered.length === 0) {
    view.message.textContent = `No results yet for session ${sessionId}.`;
    return;
  }
  for (const result of rows) {
    const row = view.rows.insertRow();
    row.dataset.userId = result.userId;
    textCell(row, nameOf(result.userId));
    textCell(row, formatNumber(result.nbGoodAnswers), 'number');
    textCell(row, formatNumber(result.goodAnswersPercent), 'number');
  }
  view.chart.append(
    barChart(
      answered.map((result) => ({
        label: nameOf(result.userId),
        value: result.goodAnswersPercent,
      })),
      'Average percentage of good answers per attendee',
    ),
  );
  view.message.textContent = `Session ${sessionId}: ${answered.length} of ${rows.length} attendees answered.`;
  view.results.hidden = false;
}

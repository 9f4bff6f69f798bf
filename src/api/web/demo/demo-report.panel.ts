/**
 * The "Quiz report" part of the demo page: item analysis (contract.md §12) of the quizzes of a
 * session the logged-in teacher owns. The page makes the session's user set and quiz set as the
 * results part does, asks getQuizStatistics and getQuestionStatistics over them, then shows one
 * quiz at a time: its scores, their histogram, and its questions, most discriminating first.
 */
import type * as QuizApiModule from '@quiz-results/client';
import type { QuestionStatistic, Quiz, QuizApiClient, QuizStatistic } from '@quiz-results/client';
import { byId, formatNumber } from './demo-page.drawing';
import {
  byDiscrimination,
  histogramChart,
  histogramRows,
  questionRow,
} from './demo-report.drawing';

declare const QuizApi: typeof QuizApiModule;

/** What the part shows, in its status line's data-state. */
type ReportState = 'logged-out' | 'idle' | 'loading' | 'shown' | 'empty';

export interface ReportPanel {
  /** The login button's news: logged out hides the report (it is the teacher's). */
  loginChanged(loggedIn: boolean): void;
}

export interface ReportPanelOptions {
  /** The session the page was opened for (?sessionId=), if any. */
  sessionId: string;
  /** How the page reports a failure of a REST call. */
  failed: (error: unknown) => void;
}

/** The statistics of one session's quizzes, kept while the teacher picks among them. */
interface Report {
  quizzes: QuizStatistic[];
  questions: QuestionStatistic[];
  titles: Map<string, Quiz>;
}

const percent = (value: number | null) => (value === null ? '—' : `${formatNumber(value)}%`);

/** The elements of the part, found once. */
interface ReportElements {
  form: HTMLFormElement;
  input: HTMLInputElement;
  showButton: HTMLButtonElement;
  status: HTMLElement;
  report: HTMLElement;
  picker: HTMLSelectElement;
  note: HTMLElement;
  figure: HTMLElement;
  chart: HTMLElement;
  details: HTMLElement;
  histogramBody: HTMLTableSectionElement;
  questionBody: HTMLTableSectionElement;
  summary: Record<'attempts' | 'mean' | 'median' | 'stddev' | 'alpha', HTMLElement>;
}

function reportElements(): ReportElements {
  return {
    form: byId<HTMLFormElement>('report-form'),
    input: byId<HTMLInputElement>('report-session-id'),
    showButton: byId<HTMLButtonElement>('report-show'),
    status: byId('report-status'),
    report: byId('report'),
    picker: byId<HTMLSelectElement>('report-quiz'),
    note: byId('report-note'),
    figure: byId('report-histogram-figure'),
    chart: byId('report-histogram'),
    details: byId('report-histogram-details'),
    histogramBody: byId<HTMLTableSectionElement>('report-histogram-rows'),
    questionBody: byId<HTMLTableSectionElement>('report-question-rows'),
    summary: {
      attempts: byId('report-attempts'),
      mean: byId('report-mean'),
      median: byId('report-median'),
      stddev: byId('report-stddev'),
      alpha: byId('report-alpha'),
    },
  };
}

export function reportPanel(client: QuizApiClient, options: ReportPanelOptions): ReportPanel {
  const view = reportElements();
  view.input.value = options.sessionId;

  // Each load is a run; what an older run brings is dropped.
  let run = 0;
  let shown: Report | undefined;

  const show = (state: ReportState, text: string): void => {
    view.status.dataset.state = state;
    view.status.textContent = text;
    view.showButton.disabled = state === 'logged-out' || state === 'loading';
    view.report.hidden = state !== 'shown';
  };

  const load = async (sessionId: string): Promise<void> => {
    const mine = ++run;
    shown = undefined;
    show('loading', `Computing the report of session ${sessionId}…`);
    try {
      const report = await fetchReport(client, sessionId);
      if (mine !== run) return;
      if (!report) {
        show('empty', `Session ${sessionId} has no attendee or no quiz you can see.`);
        return;
      }
      shown = report;
      showFirstQuiz(view, report);
      show('shown', shownText(sessionId, report.quizzes.length));
    } catch (error) {
      if (mine !== run) return;
      if (error instanceof QuizApi.UnsupportedRequestException && error.status === 404) {
        show('empty', 'This service does not compute item statistics yet (no getQuizStatistics).');
        return;
      }
      show('idle', `The report of session ${sessionId} could not be made.`);
      options.failed(error);
    }
  };

  view.form.addEventListener('submit', (event) => {
    event.preventDefault();
    const sessionId = view.input.value.trim();
    if (sessionId !== '' && !view.showButton.disabled) void load(sessionId);
  });
  view.picker.addEventListener('change', () => {
    if (shown) drawQuiz(view, shown, view.picker.value);
  });

  return {
    loginChanged: (loggedIn) => {
      run += 1;
      shown = undefined;
      if (loggedIn) {
        show('idle', 'Enter the id of a session you teach to see the report of its quizzes.');
        return;
      }
      // Item statistics need an access token: the report is the teacher's only.
      show('logged-out', 'Log in as the teacher of a session to see its quiz report.');
    },
  };
}

/**
 * The statistics of the session's quizzes over its user set and quiz set, made as the results
 * part makes them; undefined when the session has no attendee or no quiz the requester sees.
 */
async function fetchReport(client: QuizApiClient, sessionId: string): Promise<Report | undefined> {
  const users = await client.getUserSet({ sessionId });
  const quizSet = await client.getQuizSet({ sessionId });
  if (users.totalNumberOfItems === 0 || quizSet.totalNumberOfItems === 0) return undefined;
  const params = { userSetId: users, quizSetId: quizSet, sessionId };
  const [quizStatistics, questionStatistics] = await Promise.all([
    client.getQuizStatistics(params),
    client.getQuestionStatistics(params),
  ]);
  const [quizzes, questions, quizList] = await Promise.all([
    quizStatistics.toArray(),
    questionStatistics.toArray(),
    quizSet.toArray(),
  ]);
  return { quizzes, questions, titles: new Map(quizList.map((quiz) => [quiz.id, quiz])) };
}

function shownText(sessionId: string, quizCount: number): string {
  return quizCount === 1
    ? `Session ${sessionId}: one quiz.`
    : `Session ${sessionId}: ${quizCount} quizzes; choose one to see its report.`;
}

/** The picker lists the session's quizzes with their attempts; the first one is drawn. */
function showFirstQuiz(view: ReportElements, report: Report): void {
  view.picker.replaceChildren(
    ...report.quizzes.map((quiz) => {
      const option = document.createElement('option');
      option.value = quiz.quizId;
      const title = report.titles.get(quiz.quizId)?.title ?? `Quiz ${quiz.quizId}`;
      option.textContent = `${title} (${quiz.nbAttempts} attempt${quiz.nbAttempts === 1 ? '' : 's'})`;
      return option;
    }),
  );
  view.picker.value = report.quizzes[0].quizId;
  drawQuiz(view, report, view.picker.value);
}

/** One quiz of the report: its scores, their histogram and its questions. */
function drawQuiz(view: ReportElements, report: Report, quizId: string): void {
  const quiz = report.quizzes.find((item) => item.quizId === quizId);
  if (!quiz) return;
  const quizDetails = report.titles.get(quizId);
  const title = quizDetails?.title ?? `Quiz ${quizId}`;
  const { summary } = view;
  summary.attempts.textContent = String(quiz.nbAttempts);
  summary.mean.textContent = percent(quiz.mean);
  summary.median.textContent = percent(quiz.median);
  summary.stddev.textContent = percent(quiz.stddev);
  summary.alpha.textContent = formatNumber(quiz.cronbachAlpha);

  const questions = report.questions.filter((item) => item.quizId === quizId);
  view.note.hidden = quiz.histogram !== null && quiz.nbAttempts > 0;
  view.note.textContent = quizNote(quiz, title, questions);
  drawHistogram(view, quiz.histogram, title);

  view.questionBody.replaceChildren();
  for (const question of [...questions].sort(byDiscrimination)) {
    questionRow(view.questionBody, question, quizDetails);
  }
}

/** Why a quiz shows no scores (a survey) or none yet; empty when it has some. */
function quizNote(quiz: QuizStatistic, title: string, questions: QuestionStatistic[]): string {
  if (quiz.histogram === null) {
    // The service keeps a survey's choices to itself below its minimum of answers (§14.1).
    const choicesHidden = questions.some(
      (item) => item.type.startsWith('MultipleChoices') && item.choiceCounts === null,
    );
    return choicesHidden
      ? `“${title}” is a survey: it has no good answers, so no scores; too few pupils answered it to show their choices without telling whose they are.`
      : `“${title}” is a survey: it has no good answers, so no scores; its choices are counted below.`;
  }
  return quiz.nbAttempts === 0 ? `Nobody has answered “${title}” in this session yet.` : '';
}

/** The scores' histogram and its table; a survey (no histogram) hides both. */
function drawHistogram(view: ReportElements, histogram: number[] | null, title: string): void {
  view.figure.hidden = histogram === null;
  view.details.hidden = histogram === null;
  view.chart.replaceChildren();
  if (histogram !== null) {
    view.chart.append(
      histogramChart(histogram, `Attempts of “${title}” by percentage of good answers`),
    );
    histogramRows(view.histogramBody, histogram);
  } else {
    view.histogramBody.replaceChildren();
  }
}

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

export function reportPanel(client: QuizApiClient, options: ReportPanelOptions): ReportPanel {
  const form = byId<HTMLFormElement>('report-form');
  const input = byId<HTMLInputElement>('report-session-id');
  const showButton = byId<HTMLButtonElement>('report-show');
  const status = byId('report-status');
  const report = byId('report');
  const picker = byId<HTMLSelectElement>('report-quiz');
  const note = byId('report-note');
  const figure = byId('report-histogram-figure');
  const chart = byId('report-histogram');
  const details = byId('report-histogram-details');
  const histogramBody = byId<HTMLTableSectionElement>('report-histogram-rows');
  const questionBody = byId<HTMLTableSectionElement>('report-question-rows');
  const summary = {
    attempts: byId('report-attempts'),
    mean: byId('report-mean'),
    median: byId('report-median'),
    stddev: byId('report-stddev'),
    alpha: byId('report-alpha'),
  };
  input.value = options.sessionId;

  // Each load is a run; what an older run brings is dropped.
  let run = 0;
  let shown: Report | undefined;

  const show = (state: ReportState, text: string): void => {
    status.dataset.state = state;
    status.textContent = text;
    showButton.disabled = state === 'logged-out' || state === 'loading';
    report.hidden = state !== 'shown';
  };

  const drawQuiz = (quizId: string): void => {
    const quiz = shown?.quizzes.find((item) => item.quizId === quizId);
    if (!shown || !quiz) return;
    const quizDetails = shown.titles.get(quizId);
    const title = quizDetails?.title ?? `Quiz ${quizId}`;
    summary.attempts.textContent = String(quiz.nbAttempts);
    summary.mean.textContent = percent(quiz.mean);
    summary.median.textContent = percent(quiz.median);
    summary.stddev.textContent = percent(quiz.stddev);
    summary.alpha.textContent = formatNumber(quiz.cronbachAlpha);

    const scored = quiz.histogram !== null;
    const questions = shown.questions.filter((item) => item.quizId === quizId);
    // The service keeps a survey's choices to itself below its minimum of answers (§14.1).
    const choicesHidden = questions.some(
      (item) => item.type.startsWith('MultipleChoices') && item.choiceCounts === null,
    );
    note.hidden = scored && quiz.nbAttempts > 0;
    note.textContent = !scored
      ? choicesHidden
        ? `“${title}” is a survey: it has no good answers, so no scores; too few pupils answered it to show their choices without telling whose they are.`
        : `“${title}” is a survey: it has no good answers, so no scores; its choices are counted below.`
      : quiz.nbAttempts === 0
        ? `Nobody has answered “${title}” in this session yet.`
        : '';
    figure.hidden = !scored;
    details.hidden = !scored;
    chart.replaceChildren();
    if (quiz.histogram !== null) {
      chart.append(
        histogramChart(quiz.histogram, `Attempts of “${title}” by percentage of good answers`),
      );
      histogramRows(histogramBody, quiz.histogram);
    } else {
      histogramBody.replaceChildren();
    }

    questionBody.replaceChildren();
    for (const question of [...questions].sort(byDiscrimination)) {
      questionRow(questionBody, question, quizDetails);
    }
  };

  const load = async (sessionId: string): Promise<void> => {
    const mine = ++run;
    shown = undefined;
    show('loading', `Computing the report of session ${sessionId}…`);
    try {
      const users = await client.getUserSet({ sessionId });
      const quizSet = await client.getQuizSet({ sessionId });
      if (users.totalNumberOfItems === 0 || quizSet.totalNumberOfItems === 0) {
        if (mine === run)
          show('empty', `Session ${sessionId} has no attendee or no quiz you can see.`);
        return;
      }
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
      if (mine !== run) return;
      shown = { quizzes, questions, titles: new Map(quizList.map((quiz) => [quiz.id, quiz])) };
      picker.replaceChildren(
        ...quizzes.map((quiz) => {
          const option = document.createElement('option');
          option.value = quiz.quizId;
          const title = shown?.titles.get(quiz.quizId)?.title ?? `Quiz ${quiz.quizId}`;
          option.textContent = `${title} (${quiz.nbAttempts} attempt${quiz.nbAttempts === 1 ? '' : 's'})`;
          return option;
        }),
      );
      picker.value = quizzes[0].quizId;
      drawQuiz(picker.value);
      show(
        'shown',
        quizzes.length === 1
          ? `Session ${sessionId}: one quiz.`
          : `Session ${sessionId}: ${quizzes.length} quizzes; choose one to see its report.`,
      );
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

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const sessionId = input.value.trim();
    if (sessionId !== '' && !showButton.disabled) void load(sessionId);
  });
  picker.addEventListener('change', () => drawQuiz(picker.value));

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

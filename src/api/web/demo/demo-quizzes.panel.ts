/**
 * The "Quizzes you can see" part of the demo page: the first page of the quiz set, then one more
 * page per click on "Show more". Listed again at each login change: what one may see changes.
 */
import type { DataSet, Quiz, QuizApiClient } from '@quiz-results/client';
import { byId, textCell, userName } from './demo-page.drawing';

export interface QuizzesPanel {
  /** The login button's news: the list is read again. */
  loginChanged(loggedIn: boolean): void;
}

export interface QuizzesPanelOptions {
  /** How the page reports a failure of a REST call. */
  failed: (error: unknown) => void;
}

/**
 * The token carries no user id and the contract has no "who am I", so the page lists every quiz
 * the requester may see (any creation date): public ones, and once logged in also the user's own
 * quizzes of any visibility and the private ones played in their sessions.
 */
const ALL_TIME = { from: '1000-01-01', to: '9999-12-30' } as const;
const QUIZZES_PER_PAGE = 20;

export function quizzesPanel(client: QuizApiClient, options: QuizzesPanelOptions): QuizzesPanel {
  const rows = byId<HTMLTableSectionElement>('quiz-rows');
  const summary = byId('quizzes-summary');
  const more = byId<HTMLButtonElement>('quizzes-more');
  // Each listing is a run; a page an older run brings is dropped.
  let run = 0;
  let quizSet: DataSet<Quiz> | undefined;

  const showQuizzes = (set: DataSet<Quiz>): void => {
    quizSet = set;
    for (const quiz of set.items) quizRow(rows, quiz);
    const shown = rows.rows.length;
    summary.textContent =
      set.totalNumberOfItems === 0
        ? 'No quiz to show.'
        : `${shown} of ${set.totalNumberOfItems} quizzes, by id.`;
    more.hidden = !set.hasNextPage;
  };

  const loadQuizzes = async (): Promise<void> => {
    const mine = ++run;
    rows.replaceChildren();
    summary.textContent = 'Loading…';
    more.hidden = true;
    try {
      const set = await client.getQuizSet({
        creationDate: ALL_TIME,
        numberOfItemsPerPage: QUIZZES_PER_PAGE,
      });
      if (mine === run) showQuizzes(set);
    } catch (error) {
      if (mine === run) options.failed(error);
    }
  };

  more.addEventListener('click', () => {
    const mine = run;
    void quizSet
      ?.nextPage()
      .then((next) => {
        if (next && mine === run) showQuizzes(next);
      })
      .catch(options.failed);
  });

  return { loginChanged: () => void loadQuizzes() };
}

function quizRow(rows: HTMLTableSectionElement, quiz: Quiz): void {
  const row = rows.insertRow();
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

/**
 * The "Live session" part of the demo page: a session the logged-in teacher owns, followed with
 * the SDK's watchSessionResults (contract.md §10). Each message redraws the table and the chart
 * of its pupils; the page says when it was updated, how many messages came, and why it stopped.
 * It also shows the teacher the session's join code, with which pupils who are in none of their
 * groups join (contract.md §9): each one who joins appears in the table.
 */
import type { QuizApiClient, Session, SessionResultsWatch } from '@quiz-results/client';
import { byId, clockTime } from './demo-page.drawing';
import { watchLiveResults, type LiveResultsView, type LiveState } from './demo-live.watch';

export interface LivePanel {
  /** The login button's news: logged out stops the watch. */
  loginChanged(loggedIn: boolean): void;
}

export interface LivePanelOptions {
  /** The session the page was opened for (?sessionId=), if any. */
  sessionId: string;
  /** How the page reports a failure of a REST call. */
  failed: (error: unknown) => void;
}

/** The elements of the part, found once. */
interface LiveElements extends LiveResultsView {
  form: HTMLFormElement;
  input: HTMLInputElement;
  startButton: HTMLButtonElement;
  stopButton: HTMLButtonElement;
  status: HTMLElement;
  joinLine: HTMLElement;
}

function liveElements(): LiveElements {
  return {
    form: byId<HTMLFormElement>('live-form'),
    input: byId<HTMLInputElement>('live-session-id'),
    startButton: byId<HTMLButtonElement>('live-start'),
    stopButton: byId<HTMLButtonElement>('live-stop'),
    status: byId('live-status'),
    results: byId('live-results'),
    updated: byId('live-updated'),
    rows: byId<HTMLTableSectionElement>('live-rows'),
    chart: byId('live-chart'),
    joinLine: byId('live-join'),
  };
}

export function livePanel(client: QuizApiClient, options: LivePanelOptions): LivePanel {
  const view = liveElements();
  view.input.value = options.sessionId;

  let watch: SessionResultsWatch | undefined;
  // Each follow is a run; what an older run's handlers bring is dropped.
  let run = 0;
  let state: LiveState = 'logged-out';

  const show = (next: LiveState, text: string): void => {
    state = next;
    showState(view, next, text);
  };

  const stop = (): void => {
    run += 1;
    watch?.close();
    watch = undefined;
    view.joinLine.hidden = true;
  };

  const follow = (sessionId: string): void => {
    stop();
    const mine = run;
    const isCurrent = () => mine === run;
    view.rows.replaceChildren();
    view.chart.replaceChildren();
    view.results.hidden = true;
    show('connecting', `Connecting to session ${sessionId}…`);
    // Refusals are the watch's to tell (below); a session of someone else shows no code.
    client
      .getSession({ sessionId })
      .then((session) => {
        if (isCurrent()) showJoinCode(view.joinLine, session);
      })
      .catch(() => undefined);
    watch = watchLiveResults(client, view, {
      sessionId,
      isCurrent,
      show,
      ended: () => (watch = undefined),
      failed: options.failed,
    });
  };

  view.form.addEventListener('submit', (event) => {
    event.preventDefault();
    const sessionId = view.input.value.trim();
    if (sessionId !== '' && state !== 'logged-out') follow(sessionId);
  });
  view.stopButton.addEventListener('click', () => {
    stop();
    show('idle', 'Stopped. Follow a session again when you like.');
  });

  const loginChanged = (loggedIn: boolean): void => {
    if (loggedIn) {
      if (state === 'logged-out' || state === 'ended') {
        show('idle', 'Enter the id of a session you teach to follow its results as it is played.');
      }
      return;
    }
    if (watch) {
      stop();
      show(
        'ended',
        `Live results stopped at ${clockTime(new Date())}: you are not logged in any more. Log in again to follow the session.`,
      );
    } else if (state !== 'ended') {
      show('logged-out', 'Log in as the teacher of a session to follow it live.');
    } else {
      view.startButton.disabled = true;
    }
  };
  return { loginChanged };
}

/** The status line, and the buttons and results as the state wants them. */
function showState(view: LiveElements, state: LiveState, text: string): void {
  view.status.dataset.state = state;
  view.status.textContent = text;
  const following = state === 'connecting' || state === 'live';
  view.stopButton.hidden = !following;
  view.startButton.disabled = state === 'logged-out';
  view.results.classList.toggle('ended', state === 'ended');
}

/** The join code the owner is shown (getSession gives it to the owner only). */
function showJoinCode(joinLine: HTMLElement, session: Session): void {
  if (session.joinCode === undefined || session.joinCodeExpiresAt === undefined) return;
  const code = document.createElement('code');
  code.textContent = `${session.joinCode.slice(0, 4)} ${session.joinCode.slice(4)}`;
  joinLine.replaceChildren(
    'Pupils who are in none of your groups join with the code ',
    code,
    ` until ${clockTime(session.joinCodeExpiresAt)} on ${session.joinCodeExpiresAt.toLocaleDateString()}.`,
  );
  joinLine.dataset.code = session.joinCode;
  joinLine.hidden = false;
}

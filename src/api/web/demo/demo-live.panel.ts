/**
 * The "Live session" part of the demo page: a session the logged-in teacher owns, followed with
 * the SDK's watchSessionResults (contract.md §10). Each message redraws the table and the chart
 * of its pupils; the page says when it was updated, how many messages came, and why it stopped.
 * It also shows the teacher the session's join code, with which pupils who are in none of their
 * groups join (contract.md §9): each one who joins appears in the table.
 */
import type * as QuizApiModule from '@quiz-results/client';
import type {
  QuizApiClient,
  ServiceApiException,
  Session,
  SessionResultsWatch,
  TransportException,
  UserAggregateResult,
} from '@quiz-results/client';
import { barChart, byId, clockTime, formatNumber, textCell, userName } from './demo-page.drawing';

declare const QuizApi: typeof QuizApiModule;

/** What the part shows, in its status line's data-state. */
type LiveState = 'logged-out' | 'idle' | 'connecting' | 'live' | 'ended';

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

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

export function livePanel(client: QuizApiClient, options: LivePanelOptions): LivePanel {
  const form = byId<HTMLFormElement>('live-form');
  const input = byId<HTMLInputElement>('live-session-id');
  const startButton = byId<HTMLButtonElement>('live-start');
  const stopButton = byId<HTMLButtonElement>('live-stop');
  const status = byId('live-status');
  const results = byId('live-results');
  const updated = byId('live-updated');
  const rows = byId<HTMLTableSectionElement>('live-rows');
  const chart = byId('live-chart');
  const joinLine = byId('live-join');
  input.value = options.sessionId;

  let watch: SessionResultsWatch | undefined;
  // Each follow is a run; what an older run's handlers bring is dropped.
  let run = 0;
  let state: LiveState = 'logged-out';

  const show = (next: LiveState, text: string): void => {
    state = next;
    status.dataset.state = next;
    status.textContent = text;
    const following = next === 'connecting' || next === 'live';
    stopButton.hidden = !following;
    startButton.disabled = next === 'logged-out';
    results.classList.toggle('ended', next === 'ended');
  };

  const stop = (): void => {
    run += 1;
    watch?.close();
    watch = undefined;
    joinLine.hidden = true;
  };

  /** The join code the owner is shown (getSession gives it to the owner only). */
  const showJoinCode = (session: Session): void => {
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
  };

  const follow = (sessionId: string): void => {
    stop();
    const mine = run;
    let messages = 0;
    let latest: UserAggregateResult[] = [];
    let receivedAt = new Date();
    let failure: ServiceApiException | TransportException | undefined;
    // Names of the session's attendees, read again when a pupil the page does not know appears.
    const names = new Map<string, string>();
    let loadingNames: Promise<void> | undefined;

    rows.replaceChildren();
    chart.replaceChildren();
    results.hidden = true;
    show('connecting', `Connecting to session ${sessionId}…`);
    // Refusals are the watch's to tell (below); a session of someone else shows no code.
    client
      .getSession({ sessionId })
      .then((session) => {
        if (mine === run) showJoinCode(session);
      })
      .catch(() => undefined);

    const draw = (): void => {
      const answered = latest.filter((result) => result.nbAnswers !== null).length;
      const nameOf = (userId: string) => names.get(userId) ?? `User ${userId}`;
      rows.replaceChildren();
      for (const result of latest) {
        const row = rows.insertRow();
        row.dataset.userId = result.userId;
        textCell(row, nameOf(result.userId));
        textCell(row, formatNumber(result.nbAnswers), 'number');
        textCell(row, formatNumber(result.nbGoodAnswers), 'number');
        textCell(row, formatNumber(result.goodAnswersPercent), 'number');
      }
      chart.replaceChildren(
        barChart(
          latest.map((result) => ({
            label: nameOf(result.userId),
            value: result.goodAnswersPercent ?? null,
          })),
          `Percentage of good answers per pupil in session ${sessionId}`,
        ),
      );
      updated.textContent = `Updated ${clockTime(receivedAt)} · ${plural(messages, 'message')}`;
      updated.dataset.messages = String(messages);
      results.hidden = false;
      show(
        'live',
        latest.length === 0
          ? `Session ${sessionId}, live: no pupil yet.`
          : `Session ${sessionId}, live: ${answered} of ${plural(latest.length, 'pupil')} answered.`,
      );
    };

    const loadNames = (): Promise<void> =>
      (loadingNames ??= client
        .getUserSet({ sessionId })
        .then((set) => set.toArray())
        .then((users) => {
          for (const user of users) names.set(user.id, userName(user, user.id));
        })
        .catch(options.failed)
        .finally(() => (loadingNames = undefined)));

    watch = client.watchSessionResults(
      {
        sessionId,
        resultTypes: ['nbAnswers', 'nbGoodAnswers', 'goodAnswersPercent'],
        aggregationFunctions: ['average'],
        groupBy: 'user',
      },
      {
        onResults: (items) => {
          if (mine !== run) return;
          messages += 1;
          latest = items;
          receivedAt = new Date();
          if (items.every((item) => names.has(item.userId))) {
            draw();
            return;
          }
          // Drawn once the names are in, with whatever message is the latest then.
          void loadNames().then(() => {
            if (mine === run) draw();
          });
        },
        onError: (error) => {
          if (mine === run) failure = error;
        },
        onEnd: () => {
          if (mine !== run) return;
          watch = undefined;
          const at = clockTime(new Date());
          if (failure instanceof QuizApi.UnauthorizedOperationException && failure.status === 401) {
            show(
              'ended',
              `Live results of session ${sessionId} stopped at ${at}: your login has ended (${failure.reason}). Log in again to follow the session.`,
            );
            // The service refused the token: the page shows the logged-out state too.
            if (client.accessToken !== undefined) QuizApi.wipeAccessToken();
            return;
          }
          show(
            'ended',
            failure instanceof QuizApi.ServiceApiException
              ? `Session ${sessionId} cannot be followed: ${failure.reason}.`
              : failure
                ? `Live results of session ${sessionId} stopped at ${at}: the connection to the service was lost.`
                : `Live results of session ${sessionId} ended at ${at}.`,
          );
        },
      },
    );
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const sessionId = input.value.trim();
    if (sessionId !== '' && state !== 'logged-out') follow(sessionId);
  });
  stopButton.addEventListener('click', () => {
    stop();
    show('idle', 'Stopped. Follow a session again when you like.');
  });

  return {
    loginChanged: (loggedIn) => {
      if (loggedIn) {
        if (state === 'logged-out' || state === 'ended') {
          show(
            'idle',
            'Enter the id of a session you teach to follow its results as it is played.',
          );
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
        startButton.disabled = true;
      }
    },
  };
}

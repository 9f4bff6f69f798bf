/**
 * The "Join a session" part of the demo page: a logged-in pupil types the code the teacher was
 * shown (the live part shows it to the teacher) and becomes an attendee with joinSession
 * (contract.md §9). The page says which session was joined, or why not.
 */
import type * as QuizApiModule from '@quiz-results/client';
import type { QuizApiClient } from '@quiz-results/client';
import { byId } from './demo-page.drawing';

declare const QuizApi: typeof QuizApiModule;

export interface JoinPanel {
  /** The login button's news: joining needs a token. */
  loginChanged(loggedIn: boolean): void;
}

export interface JoinPanelOptions {
  /** How the page reports a failure it does not explain itself (a refused token among them). */
  failed: (error: unknown) => void;
}

/** What the part shows, in its message's data-state. */
type JoinState = 'logged-out' | 'idle' | 'joining' | 'joined' | 'refused';

export function joinPanel(client: QuizApiClient, options: JoinPanelOptions): JoinPanel {
  const form = byId<HTMLFormElement>('join-form');
  const input = byId<HTMLInputElement>('join-code');
  const submit = byId<HTMLButtonElement>('join-submit');
  const message = byId('join-message');
  let run = 0;

  const show = (state: JoinState, text: string): void => {
    message.dataset.state = state;
    message.textContent = text;
    submit.disabled = state === 'logged-out' || state === 'joining';
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const joinCode = input.value.trim();
    if (joinCode === '' || client.accessToken === undefined) return;
    const mine = ++run;
    show('joining', 'Joining…');
    client
      .joinSession({ joinCode })
      .then((session) => {
        if (mine !== run) return;
        message.dataset.sessionId = session.id;
        show(
          'joined',
          `You joined session ${session.id}, “${session.title}”: ${session.nbAttendees} attendee${session.nbAttendees === 1 ? '' : 's'}.`,
        );
      })
      .catch((error: unknown) => {
        if (mine !== run) return;
        if (error instanceof QuizApi.BadParameterException) {
          show('refused', 'No session has this code, or it has expired: ask your teacher.');
        } else if (error instanceof QuizApi.TooManyRequestsException) {
          show(
            'refused',
            `Too many wrong codes: try again in ${error.retryAfterSeconds ?? 'a few'} seconds.`,
          );
        } else {
          show('idle', '');
          options.failed(error);
        }
      });
  });

  return {
    loginChanged: (loggedIn) => {
      run += 1;
      if (loggedIn) show('idle', 'Type the code your teacher shows to join their session.');
      else show('logged-out', 'Log in to join a session with its code.');
    },
  };
}

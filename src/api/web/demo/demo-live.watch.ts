/**
 * One follow of the live part (demo-live.panel.ts): the watch of a session's results with the
 * SDK's watchSessionResults, the names of its pupils, and what the part says when it stops.
 */
import type * as QuizApiModule from '@quiz-results/client';
import type {
  QuizApiClient,
  ServiceApiException,
  SessionResultsWatch,
  TransportException,
  UserAggregateResult,
} from '@quiz-results/client';
import { barChart, clockTime, formatNumber, textCell, userName } from './demo-page.drawing';

declare const QuizApi: typeof QuizApiModule;

/** What the part shows, in its status line's data-state. */
export type LiveState = 'logged-out' | 'idle' | 'connecting' | 'live' | 'ended';

/** Where a follow draws: the results' block, its table, its chart and its "updated" line. */
export interface LiveResultsView {
  results: HTMLElement;
  updated: HTMLElement;
  rows: HTMLTableSectionElement;
  chart: HTMLElement;
}

/** What a follow asks of its part. */
export interface LiveFollow {
  sessionId: string;
  /** False once the part started another follow or stopped: this one's news is dropped. */
  isCurrent(): boolean;
  show(state: LiveState, text: string): void;
  /** The watch ended on its own (the part then has no watch left to close). */
  ended(): void;
  /** How the page reports a failure of a REST call. */
  failed(error: unknown): void;
}

/** The latest message of the watch, and how many came. */
interface Received {
  items: UserAggregateResult[];
  messages: number;
  at: Date;
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** Starts the watch; each message redraws the view once the names of its pupils are known. */
export function watchLiveResults(
  client: QuizApiClient,
  view: LiveResultsView,
  follow: LiveFollow,
): SessionResultsWatch {
  const { sessionId } = follow;
  const names = attendeeNames(client, sessionId, follow.failed);
  const received: Received = { items: [], messages: 0, at: new Date() };
  let failure: ServiceApiException | TransportException | undefined;
  const draw = (): void => {
    drawLiveResults(view, sessionId, received, names.nameOf);
    follow.show('live', liveText(sessionId, received.items));
  };
  return client.watchSessionResults(
    {
      sessionId,
      resultTypes: ['nbAnswers', 'nbGoodAnswers', 'goodAnswersPercent'],
      aggregationFunctions: ['average'],
      groupBy: 'user',
    },
    {
      onResults: (items) => {
        if (!follow.isCurrent()) return;
        received.messages += 1;
        received.items = items;
        received.at = new Date();
        if (items.every((item) => names.has(item.userId))) {
          draw();
          return;
        }
        // Drawn once the names are in, with whatever message is the latest then.
        void names.load().then(() => {
          if (follow.isCurrent()) draw();
        });
      },
      onError: (error) => {
        if (follow.isCurrent()) failure = error;
      },
      onEnd: () => {
        if (!follow.isCurrent()) return;
        follow.ended();
        watchEnded(client, follow, failure);
      },
    },
  );
}

/** Names of the session's attendees, read again when a pupil the page does not know appears. */
function attendeeNames(client: QuizApiClient, sessionId: string, failed: (error: unknown) => void) {
  const names = new Map<string, string>();
  let loading: Promise<void> | undefined;
  return {
    has: (userId: string) => names.has(userId),
    nameOf: (userId: string) => names.get(userId) ?? `User ${userId}`,
    load: (): Promise<void> =>
      (loading ??= client
        .getUserSet({ sessionId })
        .then((set) => set.toArray())
        .then((users) => {
          for (const user of users) names.set(user.id, userName(user, user.id));
        })
        .catch(failed)
        .finally(() => (loading = undefined))),
  };
}

function drawLiveResults(
  view: LiveResultsView,
  sessionId: string,
  received: Received,
  nameOf: (userId: string) => string,
): void {
  const { rows, chart, updated, results } = view;
  rows.replaceChildren();
  for (const result of received.items) {
    const row = rows.insertRow();
    row.dataset.userId = result.userId;
    textCell(row, nameOf(result.userId));
    textCell(row, formatNumber(result.nbAnswers), 'number');
    textCell(row, formatNumber(result.nbGoodAnswers), 'number');
    textCell(row, formatNumber(result.goodAnswersPercent), 'number');
  }
  chart.replaceChildren(
    barChart(
      received.items.map((result) => ({
        label: nameOf(result.userId),
        value: result.goodAnswersPercent ?? null,
      })),
      `Percentage of good answers per pupil in session ${sessionId}`,
    ),
  );
  updated.textContent = `Updated ${clockTime(received.at)} · ${plural(received.messages, 'message')}`;
  updated.dataset.messages = String(received.messages);
  results.hidden = false;
}

function liveText(sessionId: string, items: readonly UserAggregateResult[]): string {
  const answered = items.filter((result) => result.nbAnswers !== null).length;
  return items.length === 0
    ? `Session ${sessionId}, live: no pupil yet.`
    : `Session ${sessionId}, live: ${answered} of ${plural(items.length, 'pupil')} answered.`;
}

/** Why the watch ended: a refused token (then wiped), a refusal, a lost connection, or its end. */
function watchEnded(
  client: QuizApiClient,
  follow: LiveFollow,
  failure: ServiceApiException | TransportException | undefined,
): void {
  const { sessionId } = follow;
  const at = clockTime(new Date());
  if (failure instanceof QuizApi.UnauthorizedOperationException && failure.status === 401) {
    follow.show(
      'ended',
      `Live results of session ${sessionId} stopped at ${at}: your login has ended (${failure.reason}). Log in again to follow the session.`,
    );
    // The service refused the token: the page shows the logged-out state too.
    if (client.accessToken !== undefined) QuizApi.wipeAccessToken();
    return;
  }
  follow.show(
    'ended',
    failure instanceof QuizApi.ServiceApiException
      ? `Session ${sessionId} cannot be followed: ${failure.reason}.`
      : failure
        ? `Live results of session ${sessionId} stopped at ${at}: the connection to the service was lost.`
        : `Live results of session ${sessionId} ended at ${at}.`,
  );
}

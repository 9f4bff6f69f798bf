import type { Client } from 'graphql-ws';
import { liveClient } from '../../helpers/live';
import type { Fixture } from './ingest-fixture';
import { LIVE_PER_CONNECTION, LIVE_REFLECT_TIMEOUT_MS } from './ingest-settings';

/**
 * The teacher's screens of the live phase: `subscribers` sessionResults subscriptions per session
 * over graphql-ws (the same query, variables and token, LIVE_PER_CONNECTION to a connection), and
 * for each acknowledged batch, on every subscription of its session, the time until the first
 * message on it whose results reflect the batch: the sum of nbAnswers over the message's items is
 * at least the session's answer count after the batch.
 */

const SESSION_RESULTS = `subscription ($sessionId: ID!) {
  sessionResults(sessionId: $sessionId, resultTypes: [nbAnswers, nbGoodAnswers]) {
    userId quizId nbAnswers nbGoodAnswers
  }
}`;

/** A subscription's error: an Error, a close event, or the errors of an `error` message. */
function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error && typeof error === 'object' && 'code' in error && 'reason' in error) {
    return `closed ${String(error.code)} ${String(error.reason)}`;
  }
  return JSON.stringify(error);
}

interface Pending {
  /** The session's answer count after the batch. */
  count: number;
  ackAt: number;
  /** Acknowledged within the measured window. */
  counted: boolean;
}

/** One subscription to a session and the batches it has yet to reflect. */
class SessionTracker {
  /** The highest answer count a message carried; -1 before the first message. */
  reflected = -1;
  /** The session's answer count after the batches acknowledged so far. */
  count = 0;
  firstMessage: Promise<void>;
  private resolveFirst: () => void = () => undefined;
  private readonly pending: Pending[] = [];

  constructor(private readonly watch: LiveWatch) {
    this.firstMessage = new Promise((resolve) => (this.resolveFirst = resolve));
  }

  /** Failed before its first message: nothing to wait for. */
  failed(): void {
    this.resolveFirst();
  }

  message(answers: number, at: number): void {
    if (this.reflected < 0) this.resolveFirst();
    this.reflected = Math.max(this.reflected, answers);
    if (this.watch.inWindow(at)) this.watch.messages += 1;
    while (this.pending.length > 0 && (this.pending[0] as Pending).count <= this.reflected) {
      const done = this.pending.shift() as Pending;
      if (done.counted) this.watch.latenciesMs.push(at - done.ackAt);
    }
  }

  acked(inserted: number, at: number): void {
    this.count += inserted;
    const counted = this.watch.inWindow(at);
    // A message computed after the commit may come before the acknowledgement does.
    if (this.reflected >= this.count) {
      if (counted) {
        this.watch.latenciesMs.push(0);
        this.watch.beforeAck += 1;
      }
    } else this.pending.push({ count: this.count, ackAt: at, counted });
  }

  /** Batches unreflected for LIVE_REFLECT_TIMEOUT_MS are failures (all of them, `all`). */
  expire(now: number, all = false): void {
    while (
      this.pending.length > 0 &&
      (all || now - (this.pending[0] as Pending).ackAt >= LIVE_REFLECT_TIMEOUT_MS)
    ) {
      const lost = this.pending.shift() as Pending;
      if (lost.counted) this.watch.error('batch not reflected within 10 s');
    }
  }

  get waiting(): number {
    return this.pending.length;
  }

  /**
   * Once every batch is acknowledged: a message that counted more answers than the
   * acknowledgements did would make the measure wrong (answers counted twice, say).
   */
  check(): void {
    if (this.reflected > this.count)
      this.watch.error('a message counted more answers than written');
  }
}

export class LiveWatch {
  readonly latenciesMs: number[] = [];
  /** Counted batches a message had already reflected when their acknowledgement came. */
  beforeAck = 0;
  /** Messages received within the window. */
  messages = 0;
  readonly errors = new Map<string, number>();
  window = { from: Infinity, to: Infinity };
  /** Each session's subscriptions. */
  private readonly trackers = new Map<number, SessionTracker[]>();
  private readonly clients: Client[] = [];
  private closing = false;

  constructor(
    private readonly url: string,
    private readonly f: Fixture,
  ) {}

  inWindow(at: number): boolean {
    return at >= this.window.from && at < this.window.to;
  }

  error(kind: string): void {
    this.errors.set(kind, (this.errors.get(kind) ?? 0) + 1);
  }

  /** A batch of the session was acknowledged: every subscription to it waits for its message. */
  acked(sessionId: number, inserted: number, at: number): void {
    for (const tracker of this.trackers.get(sessionId) ?? []) tracker.acked(inserted, at);
  }

  private all(): SessionTracker[] {
    return [...this.trackers.values()].flat();
  }

  /**
   * Subscribes `subscribers` times to each session; resolves when each subscription's first
   * message came. A session's subscriptions go to different connections (subscriber after
   * subscriber, each over all the sessions), as different screens would be.
   */
  async subscribe(sessionIds: readonly number[], subscribers: number): Promise<void> {
    const order = Array.from({ length: subscribers }, () => sessionIds).flat();
    const refused: string[] = [];
    order.forEach((sessionId, index) => {
      if (index % LIVE_PER_CONNECTION === 0) {
        this.clients.push(
          liveClient(this.url, {
            connectionParams: { apiKey: this.f.apiKey, accessToken: this.f.token },
          }),
        );
      }
      const client = this.clients[this.clients.length - 1] as Client;
      const tracker = new SessionTracker(this);
      this.trackers.set(sessionId, [...(this.trackers.get(sessionId) ?? []), tracker]);
      client.subscribe<{ sessionResults: { nbAnswers: number | null }[] }>(
        { query: SESSION_RESULTS, variables: { sessionId: String(sessionId) } },
        {
          next: (result) => {
            const at = performance.now();
            const items = result.data?.sessionResults;
            if (!items) {
              this.error(`subscription message without results: ${JSON.stringify(result.errors)}`);
              return;
            }
            tracker.message(
              items.reduce((sum, item) => sum + Number(item.nbAnswers ?? 0), 0),
              at,
            );
          },
          error: (error) => {
            if (this.closing) return;
            const text = `subscription error: ${describe(error).slice(0, 160)}`;
            // Refused before its first message: the run cannot measure it, so it stops (below).
            if (tracker.reflected < 0) {
              refused.push(text);
              tracker.failed();
            } else this.error(text);
          },
          complete: () => {
            if (!this.closing) this.error('subscription completed');
          },
        },
      );
    });
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(
        () => reject(new Error('the subscriptions sent no first message within 30 s')),
        30_000,
      ).unref(),
    );
    await Promise.race([Promise.all(this.all().map((tracker) => tracker.firstMessage)), timeout]);
    if (refused.length > 0) {
      throw new Error(
        `${refused.length} of ${order.length} subscriptions failed, the first with ${refused[0]}`,
      );
    }
  }

  /** Subscriptions held. */
  subscriptions(): number {
    return this.all().length;
  }

  /** Batches still waiting for a message that reflects them. */
  get waiting(): number {
    return this.all().reduce((sum, tracker) => sum + tracker.waiting, 0);
  }

  expire(now: number, all = false): void {
    for (const tracker of this.all()) tracker.expire(now, all);
  }

  /** After the last batch: every message's count within what was acknowledged. */
  check(): void {
    for (const tracker of this.all()) tracker.check();
  }

  connections(): number {
    return this.clients.length;
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.clients.map((client) => client.dispose()));
  }
}

/**
 * A value recomputed each time a versioned source changes, as an async iterator: the first value
 * at once, then one after each change, at most one per `gapMs`, changes that arrive meanwhile
 * coalesced into the next computation and none dropped: the version is taken before computing,
 * so a change during a computation (or during the gap) makes another one.
 *
 * Written by hand rather than as an async generator: `return()` (the client unsubscribed, the
 * connection closed) must end a wait for the next change at once, where a generator would only
 * see it at its next `yield`, holding the watch until the session changes again.
 */

/** The longest delay a Node timer keeps (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface CoalescingOptions<T> {
  /** Registers for the source's versions; returns the unwatch. */
  watch(listener: (version: number) => void): () => void;
  /** The source's version now (read once, after watching, before the first computation). */
  readVersion(): Promise<number>;
  /** A value that reflects at least every change up to `version`, taken before it. */
  compute(version: number): Promise<T>;
  /** The least time between two values, in milliseconds. */
  gapMs: number;
  /** When the stream ends (milliseconds since the epoch), or null. */
  endsAt: number | null;
  /**
   * Asked before each computation: false ends the stream (the credentials it was opened with
   * were revoked meanwhile), so nothing more is computed for them.
   */
  stillAllowed?: () => Promise<boolean>;
}

/** A computed value, or the end of the stream: at `endsAt`, or once no longer allowed. */
export type CoalescedEvent<T> =
  { kind: 'value'; value: T } | { kind: 'ended'; reason: 'expired' | 'revoked' };

export class CoalescingStream<T> implements AsyncIterableIterator<CoalescedEvent<T>> {
  private unwatch: (() => void) | null = null;
  /** The highest version heard of; -1 before any. */
  private latest = -1;
  /** The version taken before the last computation; null before the first. */
  private computed: number | null = null;
  /** When the consumer asked for the value after the last one (the gap runs from there). */
  private lastValueAt = 0;
  private done = false;
  private wake: (() => void) | null = null;

  constructor(private readonly options: CoalescingOptions<T>) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<CoalescedEvent<T>, undefined>> {
    try {
      if (this.done) return this.finished();
      if (this.computed === null) {
        // Watched first: a change after the version is read is heard.
        this.unwatch = this.options.watch((version) => this.heard(version));
        this.heard(await this.options.readVersion());
      } else {
        this.lastValueAt = Date.now();
        await this.waitUntil(null, () => this.latest > (this.computed as number));
        await this.waitUntil(this.lastValueAt + this.options.gapMs, () => false);
      }
      if (this.done) return this.finished();
      if (this.expired()) {
        this.stop();
        return { done: false, value: { kind: 'ended', reason: 'expired' } };
      }
      if (this.options.stillAllowed && !(await this.options.stillAllowed())) {
        this.stop();
        return { done: false, value: { kind: 'ended', reason: 'revoked' } };
      }
      const version = this.latest;
      const value = await this.options.compute(version);
      this.computed = version;
      if (this.done) return this.finished();
      return { done: false, value: { kind: 'value', value } };
    } catch (error) {
      this.stop();
      throw error;
    }
  }

  return(): Promise<IteratorReturnResult<undefined>> {
    this.stop();
    return Promise.resolve(this.finished());
  }

  private finished(): IteratorReturnResult<undefined> {
    return { done: true, value: undefined };
  }

  private heard(version: number): void {
    if (version <= this.latest) return;
    this.latest = version;
    this.poke();
  }

  private expired(): boolean {
    return this.options.endsAt !== null && Date.now() >= this.options.endsAt;
  }

  private stop(): void {
    if (this.done) return;
    this.done = true;
    this.unwatch?.();
    this.unwatch = null;
    this.poke();
  }

  private poke(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /**
   * Waits until `ready()` holds, the time `until` (or the end) comes, or the stream stops; a
   * change wakes it to look again.
   */
  private async waitUntil(until: number | null, ready: () => boolean): Promise<void> {
    const { endsAt } = this.options;
    const deadline = until === null ? endsAt : endsAt === null ? until : Math.min(until, endsAt);
    while (!this.done && !ready()) {
      const left = deadline === null ? null : deadline - Date.now();
      if (left !== null && left <= 0) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        if (left !== null) {
          // Node fires a delay beyond 2^31 - 1 ms at once: wait that long at most, then look again.
          const timer = setTimeout(() => this.poke(), Math.min(left, MAX_TIMER_MS));
          // A stream ends with its connection; its timers keep no process alive.
          timer.unref();
          const settle = this.wake;
          this.wake = () => {
            clearTimeout(timer);
            settle();
          };
        }
      });
    }
  }
}

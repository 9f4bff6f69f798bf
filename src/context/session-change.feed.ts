import type { Database } from '../db/database';
import { readSessionVersions } from '../db/sql/session-changes.sql';
import type { Logger } from '../observability/logger';

/** Called with a session's version each time a read finds it higher than the last read. */
export type SessionChangeListener = (version: number) => void;

/**
 * Tells the watchers of a session that its answers changed (contract.md §10), whichever instance
 * wrote them. The database implementation below reads the change markers the answer writer bumps;
 * a store an operator configures (Redis) would implement the same interface.
 */
export interface SessionChangeFeed {
  /**
   * Calls `listener` with the session's version after each read that finds it higher than the
   * previous one, and after the first read since the session became watched. Returns unwatch.
   */
  watch(sessionId: number, listener: SessionChangeListener): () => void;
  /**
   * A local writer committed answers of the session: its watchers here are told at once rather
   * than at the next interval. Best effort; the reads find every change anyway.
   */
  changed(sessionId: number): void;
  /** Stops reading and forgets every watcher. */
  close(): void;
}

export interface FeedOptions {
  /** Time between two reads while anything is watched. */
  intervalMs: number;
}

/** How often a failing read is logged: once per this many failures in a row. */
const FAILURES_PER_LOG = 100;

/**
 * One timer per process: while any session is watched, one statement per interval reads the
 * versions of every watched session (readSessionVersions, on the read handle). Reads never
 * overlap; a wake-up during a read makes the next one start as soon as it ends.
 */
class DatabaseSessionChangeFeed implements SessionChangeFeed {
  private readonly listeners = new Map<number, Set<SessionChangeListener>>();
  /** The version each watched session had at the last read; absent before its first read. */
  private readonly versions = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;
  private reading = false;
  private readAgain = false;
  private failures = 0;
  private closed = false;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    private readonly options: FeedOptions,
  ) {}

  watch(sessionId: number, listener: SessionChangeListener): () => void {
    if (this.closed) return () => undefined;
    let set = this.listeners.get(sessionId);
    if (!set) {
      set = new Set();
      this.listeners.set(sessionId, set);
    }
    set.add(listener);
    this.schedule(this.options.intervalMs);
    return () => {
      const current = this.listeners.get(sessionId);
      if (!current?.delete(listener) || current.size > 0) return;
      this.listeners.delete(sessionId);
      this.versions.delete(sessionId);
      if (this.listeners.size === 0) this.stopTimer();
    };
  }

  changed(sessionId: number): void {
    if (this.closed || !this.listeners.has(sessionId)) return;
    if (this.reading) this.readAgain = true;
    else this.schedule(0, true);
  }

  close(): void {
    this.closed = true;
    this.stopTimer();
    this.listeners.clear();
    this.versions.clear();
  }

  private stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** The next read in `delayMs`, unless one is already due (or, `sooner`, due later). */
  private schedule(delayMs: number, sooner = false): void {
    if (this.closed || this.reading || this.listeners.size === 0) return;
    if (this.timer) {
      if (!sooner) return;
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => void this.read(), delayMs);
    // The server's close() stops the feed; a watcher alone keeps no process alive.
    this.timer.unref();
  }

  private async read(): Promise<void> {
    this.timer = null;
    this.reading = true;
    this.readAgain = false;
    try {
      const ids = [...this.listeners.keys()];
      const read = await readSessionVersions(this.db.read, this.db.dialect, ids);
      this.failures = 0;
      for (const sessionId of ids) this.notify(sessionId, read.get(sessionId) ?? 0);
    } catch (error) {
      // The next interval reads again; a database that stays down is logged now and then.
      if (this.failures % FAILURES_PER_LOG === 0) {
        this.logger.warn({ err: error, failures: this.failures + 1 }, 'session changes unread');
      }
      this.failures += 1;
    } finally {
      this.reading = false;
    }
    this.schedule(this.readAgain ? 0 : this.options.intervalMs);
  }

  private notify(sessionId: number, version: number): void {
    const set = this.listeners.get(sessionId);
    // Unwatched while the statement ran.
    if (!set) return;
    const previous = this.versions.get(sessionId);
    if (previous !== undefined && version <= previous) return;
    this.versions.set(sessionId, version);
    for (const listener of [...set]) {
      try {
        listener(version);
      } catch (error) {
        this.logger.error({ err: error, sessionId }, 'session change listener failed');
      }
    }
  }
}

/** The feed of an instance that shares only the database with the others. */
export function createDatabaseSessionChangeFeed(
  db: Database,
  logger: Logger,
  options: FeedOptions,
): SessionChangeFeed {
  return new DatabaseSessionChangeFeed(db, logger, options);
}

import type { Database } from '../../src/db/database';
import { createLogger } from '../../src/observability/logger';
import { CoalescingStream } from '../../src/services/live/coalescing.stream';
import { createDatabaseSessionChangeFeed } from '../../src/context/session-change.feed';

/**
 * The two halves of live results that need no server: the change feed (one statement per read
 * for every watched session, a timer only while something is watched) and the stream that
 * recomputes after changes, coalesced, ending at once when asked.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** A database whose session_changes are `versions`, counting the statements it is sent. */
function fakeDatabase(versions: Map<number, number>) {
  const statements: unknown[][] = [];
  const db = {
    dialect: { placeholders: (count: number) => Array(count).fill('?').join(', ') },
    read: {
      query: async (_sql: string, params: number[]) => {
        statements.push(params);
        return params
          .filter((id) => versions.has(id))
          .map((id) => ({ session_id: id, version: versions.get(id) }));
      },
    },
  } as unknown as Database;
  return { db, statements };
}

describe('the session change feed', () => {
  const logger = createLogger('silent');

  it('reads every watched session in one statement, only while something is watched', async () => {
    const versions = new Map([
      [1, 3],
      [2, 0],
    ]);
    const { db, statements } = fakeDatabase(versions);
    const feed = createDatabaseSessionChangeFeed(db, logger, { intervalMs: 20 });
    await sleep(60);
    expect(statements).toStrictEqual([]);

    const heard: [number, number][] = [];
    const unwatch1 = feed.watch(1, (version) => heard.push([1, version]));
    const unwatch2 = feed.watch(2, (version) => heard.push([2, version]));
    await eventually(() => heard.length === 2, 'the first read');
    // The first read tells each its version (a session without a marker is at 0).
    expect(heard).toStrictEqual([
      [1, 3],
      [2, 0],
    ]);
    expect(statements.every((params) => params.length === 2)).toBe(true);

    versions.set(2, 1);
    await eventually(() => heard.length === 3, 'the change');
    expect(heard[2]).toStrictEqual([2, 1]);
    // Reads that find nothing new tell nobody.
    const reads = statements.length;
    await eventually(() => statements.length >= reads + 3, 'more reads');
    expect(heard).toHaveLength(3);

    unwatch1();
    unwatch2();
    const last = statements.length;
    await sleep(80);
    // At most the read that was under way when the last watcher left.
    expect(statements.length).toBeLessThanOrEqual(last + 1);
    feed.close();
  });

  it('reads at once when a local writer says a watched session changed', async () => {
    const versions = new Map([[7, 1]]);
    const { db, statements } = fakeDatabase(versions);
    // An interval no test waits for: only changed() can make the reads below.
    const feed = createDatabaseSessionChangeFeed(db, logger, { intervalMs: 60_000 });
    const heard: number[] = [];
    feed.watch(7, (version) => heard.push(version));
    feed.changed(8);
    await sleep(30);
    expect(statements).toStrictEqual([]);
    feed.changed(7);
    await eventually(() => heard.length === 1, 'the read changed() asked for');
    versions.set(7, 2);
    feed.changed(7);
    await eventually(() => heard.length === 2, 'the second');
    expect(heard).toStrictEqual([1, 2]);
    feed.close();
    feed.changed(7);
    await sleep(30);
    expect(statements).toHaveLength(2);
  });
});

describe('the coalescing stream', () => {
  /** A source whose version the test moves, and whose computations it counts. */
  function source(gapMs: number, endsAt: number | null = null) {
    const state = {
      version: 0,
      computations: [] as number[],
      listeners: new Set<(version: number) => void>(),
      failNext: false,
      computing: false,
    };
    const stream = new CoalescingStream({
      watch: (listener) => {
        state.listeners.add(listener);
        return () => state.listeners.delete(listener);
      },
      readVersion: async () => state.version,
      compute: async () => {
        state.computing = true;
        const seen = state.version;
        // Long enough for the test to change the version meanwhile.
        await sleep(40);
        state.computing = false;
        if (state.failNext) throw new Error('database down');
        state.computations.push(seen);
        return seen;
      },
      gapMs,
      endsAt,
    });
    const change = () => {
      state.version += 1;
      for (const listener of state.listeners) listener(state.version);
    };
    return { state, stream, change };
  }

  it('computes once per change burst, and again for a change made while computing', async () => {
    const { state, stream, change } = source(100);
    expect(await stream.next()).toStrictEqual({ done: false, value: { kind: 'value', value: 0 } });
    const second = stream.next();
    change();
    change();
    change();
    expect(await second).toStrictEqual({ done: false, value: { kind: 'value', value: 3 } });
    // A change while a value is being computed makes one more.
    const third = stream.next();
    change();
    await eventually(() => state.computing, 'the computation');
    change();
    expect(await third).toStrictEqual({ done: false, value: { kind: 'value', value: 4 } });
    expect(await stream.next()).toStrictEqual({ done: false, value: { kind: 'value', value: 5 } });
    expect(state.computations).toStrictEqual([0, 3, 4, 5]);
    await stream.return();
  });

  it('gives a value no sooner than gapMs after the previous one was taken, however soon the change', async () => {
    const { stream, change } = source(120);
    await stream.next();
    for (let round = 0; round < 3; round += 1) {
      const asked = Date.now();
      const next = stream.next();
      change();
      expect(await next).toStrictEqual({
        done: false,
        value: { kind: 'value', value: round + 1 },
      });
      // Timers never fire early; a busy machine only makes the wait longer.
      expect(Date.now() - asked).toBeGreaterThanOrEqual(119);
    }
    await stream.return();
  });

  it('ends a wait for the next change at once when returned, and stops watching', async () => {
    const { state, stream } = source(100);
    await stream.next();
    expect(state.listeners.size).toBe(1);
    const waiting = stream.next();
    await sleep(20);
    await stream.return();
    expect(await waiting).toStrictEqual({ done: true, value: undefined });
    expect(state.listeners.size).toBe(0);
    expect(await stream.next()).toStrictEqual({ done: true, value: undefined });
  });

  it('ends at endsAt with an ended event, then is done', async () => {
    const { state, stream } = source(50, Date.now() + 100);
    await stream.next();
    expect(await stream.next()).toStrictEqual({
      done: false,
      value: { kind: 'ended', reason: 'expired' },
    });
    expect(await stream.next()).toStrictEqual({ done: true, value: undefined });
    expect(state.listeners.size).toBe(0);
    expect(state.computations).toStrictEqual([0]);
  });

  it('rejects with the failure of a computation, and stops watching', async () => {
    const { state, stream, change } = source(10);
    await stream.next();
    state.failNext = true;
    const next = stream.next();
    change();
    await expect(next).rejects.toThrow('database down');
    expect(state.listeners.size).toBe(0);
  });
});

/**
 * Seeded randomness for suites that draw their data or their order of requests: a new seed per
 * run unless INGEST_SEED gives one, printed so that any run can be replayed.
 */

/** The run's seed: INGEST_SEED when set, else a new one. */
export function runSeed(env: NodeJS.ProcessEnv = process.env): number {
  const given = env.INGEST_SEED;
  if (given === undefined) return Math.floor(Math.random() * 0x80000000);
  const seed = Number(given);
  if (!Number.isSafeInteger(seed))
    throw new Error(`INGEST_SEED must be an integer, not "${given}"`);
  return seed;
}

/** The line a suite prints first. */
export function describeSeed(suite: string, seed: number): string {
  return `${suite}: seed ${seed} (replay: INGEST_SEED=${seed} npx jest ${suite})`;
}

/** A small seeded generator (mulberry32) and the draws the suites make with it. */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)] as T;
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i -= 1) {
      const j = this.int(0, i);
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy;
  }
}

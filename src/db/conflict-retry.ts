import { isRetryableConflict } from './sql-errors';

/**
 * Galera certifies a transaction at COMMIT against those other nodes committed meanwhile; the
 * loser is rolled back whole and fails with 1213 (ER_LOCK_DEADLOCK), as an InnoDB deadlock
 * victim does on one server. A write whose transaction is all of its effect, and that gives the
 * same outcome sent again, is retried here a few times after a short, growing, jittered pause,
 * so the writers that collided do not collide again. A key's rate-limit count is one row that
 * every instance writes for every request of that key: under load its writers collide often,
 * so there are enough attempts to spread them over about a second, and no more.
 */
export const CONFLICT_ATTEMPTS = 8;

/** The longest single pause between two attempts. */
const LONGEST_PAUSE_MS = 400;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function retryingConflicts<T>(
  work: () => Promise<T>,
  onRetry?: (attempt: number, error: unknown) => void,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= CONFLICT_ATTEMPTS || !isRetryableConflict(error)) throw error;
      onRetry?.(attempt, error);
      await sleep(Math.min(LONGEST_PAUSE_MS, 5 * 2 ** attempt) * (0.5 + Math.random()));
    }
  }
}

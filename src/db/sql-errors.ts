/**
 * What a failed statement means, whatever the driver: mysql2 errors carry MySQL's `code`
 * (possibly wrapped by TypeORM's QueryFailedError under `driverError`), better-sqlite3's carry
 * SQLite's extended code.
 */
import { CLOSED_CONNECTION, NODE_UNAVAILABLE_CODES } from '../errors/database-failures';

function codeOf(error: unknown): string | undefined {
  const raw = error as { code?: unknown; driverError?: { code?: unknown } } | null;
  const code = raw?.code ?? raw?.driverError?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A row with the same unique key exists (a concurrent writer got there first). */
export function isUniqueViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/**
 * The transaction was chosen as a deadlock victim, or lost a lock wait, and was rolled back as a
 * whole: an idempotent write may simply be sent again.
 */
export function isRetryableConflict(error: unknown): boolean {
  const code = codeOf(error);
  return code === 'ER_LOCK_DEADLOCK' || code === 'ER_LOCK_WAIT_TIMEOUT';
}

/**
 * The node did not answer (the shared list of src/errors): the request fails with a 503 and the
 * data source moves to its next node (failover.ts).
 */
export function isNodeUnavailable(error: unknown): boolean {
  const code = codeOf(error);
  if (code !== undefined && NODE_UNAVAILABLE_CODES.has(code)) return true;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && CLOSED_CONNECTION.test(message);
}

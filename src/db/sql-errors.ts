/**
 * What a failed statement means, whatever the driver: mysql2 errors carry MySQL's `code`
 * (possibly wrapped by TypeORM's QueryFailedError under `driverError`), better-sqlite3's carry
 * SQLite's extended code.
 */

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
 * Codes saying that the node did not answer: refused or lost connections, a connection that
 * could not be opened in time, a Galera node outside the primary component (1047 "WSREP has
 * not yet prepared node for application use"), a node shutting down or read only. The request
 * fails with a 503 and the data source moves to its next node (failover.ts).
 */
const NODE_UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_UNKNOWN_COM_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
  'ER_OPTION_PREVENTS_STATEMENT',
  'ER_READ_ONLY_MODE',
]);

/** mysql2's words for a statement sent on a connection that has already failed. */
const CLOSED_CONNECTION = /connection is in closed state|can't write in closed state/i;

export function isNodeUnavailable(error: unknown): boolean {
  const code = codeOf(error);
  if (code !== undefined && NODE_UNAVAILABLE_CODES.has(code)) return true;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && CLOSED_CONNECTION.test(message);
}

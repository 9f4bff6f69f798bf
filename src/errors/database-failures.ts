/**
 * Which database failures a client may retry, one list for the whole service: the error model
 * answers them with 503 (service-api.error.ts) and the database port moves away from a node that
 * fails this way (src/db/sql-errors.ts, failover.ts). mysql2 errors carry MySQL's `code`, maybe
 * wrapped by TypeORM (`driverError`) or another error (`cause`); better-sqlite3's carry SQLite's.
 */

/**
 * The node did not answer: refused or lost connections, a connection not opened in time, a
 * Galera node outside the primary component (1047 "WSREP has not yet prepared node for
 * application use"), a node shutting down or read only (1290).
 */
export const NODE_UNAVAILABLE_CODES: ReadonlySet<string> = new Set([
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
export const CLOSED_CONNECTION = /connection is in closed state|can't write in closed state/i;

/** Unreachable as far as this request goes; the request may be sent again. */
const DOWN_CODES: ReadonlySet<string> = new Set([
  ...NODE_UNAVAILABLE_CODES,
  'POOL_CLOSED',
  // A certification conflict (1213) that outlasted the write's own retries.
  'ER_LOCK_DEADLOCK',
  // 1180: a Galera node that could not replicate a COMMIT (it left the primary component, or
  // certification failed there); the transaction was rolled back.
  'ER_ERROR_DURING_COMMIT',
  'ER_CON_COUNT_ERROR',
  'ER_TOO_MANY_USER_CONNECTIONS',
  'SQLITE_BUSY',
]);

const DOWN_MESSAGE = /pool is (closed|full)|connection (is )?(lost|closed)/i;

/**
 * Waits the database gave up (1205): a lock held too long, or a Galera node that could not catch
 * up with the cluster within `repl.causal_read_timeout` before a causal read.
 */
const GAVE_UP_WAITING_CODES: ReadonlySet<string> = new Set(['ER_LOCK_WAIT_TIMEOUT']);

/** mysql2's refusals when every connection is busy and its wait queue is full. */
const POOL_EXHAUSTED = /^(Queue limit reached|No connections available)\.$/;

/** The error and those it wraps, outermost first (a few levels at most). */
function* causes(error: unknown): Generator<{ code?: unknown; message?: unknown }> {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth += 1) {
    const link = current as {
      code?: unknown;
      message?: unknown;
      driverError?: unknown;
      cause?: unknown;
    };
    yield link;
    current = link.driverError ?? link.cause;
  }
}

function anyCause(error: unknown, test: (code: string, message: string) => boolean): boolean {
  for (const { code, message } of causes(error)) {
    if (test(typeof code === 'string' ? code : '', String(message))) return true;
  }
  return false;
}

/** Why a database failure is one a client may retry: unreachable, or every connection busy. */
export function databaseUnavailability(error: unknown): 'down' | 'busy' | undefined {
  if (error instanceof Error && POOL_EXHAUSTED.test(error.message)) return 'busy';
  if (anyCause(error, (code) => GAVE_UP_WAITING_CODES.has(code))) return 'busy';
  const down = anyCause(
    error,
    (code, message) =>
      DOWN_CODES.has(code) || DOWN_MESSAGE.test(message) || CLOSED_CONNECTION.test(message),
  );
  return down ? 'down' : undefined;
}

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

import type { QueryRunner } from 'typeorm';
import type { Database } from './database';
import type { SqlStatement } from './sql/statement-batches';

/**
 * One transaction written the way the dialect writes fastest (Dialect.statementBatches): on
 * MySQL and MariaDB its statements travel as one batch, a single exchange with the server; on
 * SQLite they run one at a time on the single writer's connection (no round trips to save). A
 * failure rolls the whole transaction back, and nothing commits before the request was admitted.
 */

/** The same transaction in the two forms; each dialect runs one of them. */
export interface UnitOfWork<T> {
  /**
   * The statements between START TRANSACTION and COMMIT, sent at once, and what their results
   * (one per statement, in order) make of the unit.
   */
  batch(): { statements: readonly SqlStatement[]; outcome(results: unknown[]): T };
  /** The same statements, one at a time in the transaction `runner` holds open. */
  steps(runner: QueryRunner): Promise<T>;
}

/** Whether the request may commit (context/admission.ts), as the unit waits on it. */
export interface CommitAdmission {
  /** True once the answer is known, either way. */
  readonly settled: boolean;
  /** Resolves when the request may commit; rejects with its refusal. */
  wait(): Promise<void>;
}

export interface UnitOptions {
  /** MySQL/MariaDB: the transaction's isolation level. */
  isolation?: 'READ COMMITTED';
  /** Nothing commits before it lets the request through (a request charged already passes). */
  admission?: CommitAdmission;
  /** Told the time of the statements alone, in seconds, without the wait for admission. */
  timed?(seconds: number): void;
}

const ADMITTED: CommitAdmission = { settled: true, wait: () => Promise.resolve() };
const statement = (sql: string): SqlStatement => ({ sql, params: [] });

/**
 * MySQL and MariaDB: the server stops a batch at its first failing statement, so COMMIT only
 * runs when everything before it succeeded, and nothing runs outside the transaction even when
 * the failure ended it (a deadlock); after a failure the transaction is rolled back. When the
 * admission is still pending, the statements run at once and COMMIT follows it in a second
 * exchange, the connection holding the transaction open meanwhile.
 */
async function inOneExchange<T>(
  db: Database,
  work: UnitOfWork<T>,
  { isolation, admission = ADMITTED, timed }: UnitOptions,
): Promise<T> {
  // A refused request writes nothing; one let through already commits in the same exchange.
  if (admission.settled) await admission.wait();
  const commitAtOnce = admission.settled;
  const { statements, outcome } = work.batch();
  const opening = [
    ...(isolation ? [statement(`SET TRANSACTION ISOLATION LEVEL ${isolation}`)] : []),
    statement('START TRANSACTION'),
  ];
  return db.batches(async (run) => {
    try {
      const started = performance.now();
      const results = await run([
        ...opening,
        ...statements,
        ...(commitAtOnce ? [statement('COMMIT')] : []),
      ]);
      timed?.((performance.now() - started) / 1000);
      if (!commitAtOnce) {
        await admission.wait();
        await run([statement('COMMIT')]);
      }
      return outcome(results.slice(opening.length, opening.length + statements.length));
    } catch (error) {
      // The original error says what failed; a failing rollback must not hide it.
      await run([statement('ROLLBACK')]).catch(() => undefined);
      throw error;
    }
  });
}

/** SQLite: the single writer's transaction through TypeORM, alone among the writers (exclusive). */
function stepByStep<T>(
  db: Database,
  work: UnitOfWork<T>,
  { admission = ADMITTED, timed }: UnitOptions,
): Promise<T> {
  return db.exclusive(async () => {
    const runner = db.write.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      try {
        const started = performance.now();
        const result = await work.steps(runner);
        timed?.((performance.now() - started) / 1000);
        await admission.wait();
        await runner.commitTransaction();
        return result;
      } catch (error) {
        await runner.rollbackTransaction().catch(() => undefined);
        throw error;
      }
    } finally {
      await runner.release();
    }
  });
}

/** Runs `work` as one transaction, in the form the database's dialect writes fastest. */
export function runUnitOfWork<T>(
  db: Database,
  work: UnitOfWork<T>,
  options: UnitOptions = {},
): Promise<T> {
  return db.dialect.statementBatches
    ? inOneExchange(db, work, options)
    : stepByStep(db, work, options);
}

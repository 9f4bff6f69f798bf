import type { QueryRunner } from 'typeorm';
import type { Database } from '../../db/database';
import { toNumber } from '../../db/sql/dialect';
import type { SqlFragment } from '../../db/sql/sql-fragment';

/** How the delivery engine runs its statements (src/db/sql/webhook-delivery.sql.ts). */

export interface StatementResult {
  rows: Record<string, unknown>[];
  affected: number;
  /** The driver's raw result: the generated id of an INSERT (Dialect.insertId). */
  raw: unknown;
}

export type RunStatement = (statement: SqlFragment) => Promise<StatementResult>;

function runnerOf(runner: QueryRunner): RunStatement {
  return async (statement) => {
    const result = await runner.query(statement.sql, statement.params, true);
    return {
      rows: Array.isArray(result.records) ? (result.records as Record<string, unknown>[]) : [],
      affected: toNumber(result.affected ?? 0),
      raw: result.raw,
    };
  };
}

/** One statement on its own (autocommitted); on SQLite alone among the writers. */
export function runAlone(db: Database, statement: SqlFragment): Promise<StatementResult> {
  return db.exclusive(async () => {
    const runner = db.write.createQueryRunner();
    try {
      return await runnerOf(runner)(statement);
    } finally {
      await runner.release();
    }
  });
}

/** Reads rows through the write handle (the engine must see its own and others' latest writes). */
export async function readRows(
  db: Database,
  statement: SqlFragment,
): Promise<Record<string, unknown>[]> {
  return (await db.write.query(statement.sql, statement.params)) as Record<string, unknown>[];
}

/** Thrown by a transaction's work to roll it back without it being an error. */
export class RollBack extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'RollBack';
  }
}

/**
 * Runs `work` in one transaction (READ COMMITTED on MySQL/MariaDB: the engine reads rows by key);
 * any throw rolls it back and is rethrown.
 */
export function inTransaction<T>(
  db: Database,
  work: (run: RunStatement) => Promise<T>,
): Promise<T> {
  return db.exclusive(async () => {
    const runner = db.write.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction(db.dialect.name === 'mysql' ? 'READ COMMITTED' : undefined);
      try {
        const done = await work(runnerOf(runner));
        await runner.commitTransaction();
        return done;
      } catch (error) {
        await runner.rollbackTransaction().catch(() => undefined);
        throw error;
      }
    } finally {
      await runner.release();
    }
  });
}

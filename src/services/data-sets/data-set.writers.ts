import type { RequestContext } from '../../context/request-context';
import { toNumber } from '../../db/sql/dialect';
import { DataSet } from '../../db/entities/data-set.entity';
import {
  headerInsert,
  highestPosition,
  rememberInsertId,
  totalUpdate,
} from '../../db/sql/data-set.sql';
import { sqlVariable } from '../../db/sql/statement-batches';
import { kindOf } from './data-set.kinds';
import { pageRowsStatement } from './data-set.paging';
import type { AccessLogStatement, MembersStatement, ResultRow } from './data-set.types';

/**
 * The two ways a set is written, chosen by the dialect (Dialect.statementBatches): the same
 * transaction (header, members, total, first page), in one exchange or statement by statement.
 */

export interface WrittenSet {
  id: number;
  total: number;
  firstPageRows: ResultRow[];
}

/** The count an INSERT reports, whatever the driver's result shape. */
function affectedRows(result: unknown): number | undefined {
  const raw = result as { affectedRows?: unknown; affected?: unknown } | null;
  const value = raw?.affectedRows ?? raw?.affected;
  return typeof value === 'number' ? value : undefined;
}

/**
 * MySQL and MariaDB: the set in one transaction sent as one batch of statements, a single
 * exchange with the server: its row (whose id a session variable keeps for the statements that
 * follow), its members, its total, its first page, COMMIT. The server stops a batch at its
 * first failing statement, so COMMIT only runs when everything before it succeeded, and
 * nothing runs outside the transaction even when the failure ended it (a deadlock); after a
 * failure the transaction is rolled back.
 * READ COMMITTED keeps INSERT … SELECT from share-locking every answer it reads (answers being
 * written meanwhile are not blocked); each statement still reads one consistent snapshot.
 */
async function writeInOneBatch(
  ctx: RequestContext,
  set: DataSet,
  members: MembersStatement,
  accessLog: AccessLogStatement | undefined,
): Promise<WrittenSet> {
  const dataSetId = sqlVariable('data_set_id');
  const table = kindOf(set.itemType).membersTable;
  const { admission } = ctx;
  // A refused request writes nothing; one let through already commits in the same exchange.
  if (admission.settled) await admission.wait();
  const commitAtOnce = admission.settled;
  return ctx.db.batches(async (run) => {
    try {
      const started = performance.now();
      const [, , header, , written, , firstPage] = await run([
        { sql: 'SET TRANSACTION ISOLATION LEVEL READ COMMITTED', params: [] },
        { sql: 'START TRANSACTION', params: [] },
        headerInsert(set),
        rememberInsertId(ctx.db.dialect, dataSetId),
        members(dataSetId),
        totalUpdate(table, dataSetId),
        pageRowsStatement(set.itemType, dataSetId, 1, set.numberOfItemsPerPage),
        // The read's access-log entry, from the members just written (contract.md §14.6).
        ...(accessLog ? [accessLog(dataSetId)] : []),
        ...(commitAtOnce ? [{ sql: 'COMMIT', params: [] }] : []),
      ]);
      // The statements' time alone, not the wait for the request's charge below.
      ctx.metrics.observeSetStatement(set.itemType, (performance.now() - started) / 1000);
      if (!commitAtOnce) {
        // The charge is still in flight: the set commits once it let the request through.
        await admission.wait();
        await run([{ sql: 'COMMIT', params: [] }]);
      }
      return {
        id: toNumber((header as { insertId?: unknown }).insertId),
        total: toNumber(affectedRows(written)),
        firstPageRows: firstPage as ResultRow[],
      };
    } catch (error) {
      // The original error says what failed; a failing rollback must not hide it.
      await run([{ sql: 'ROLLBACK', params: [] }]).catch(() => undefined);
      throw error;
    }
  });
}

/** SQLite: the same transaction through TypeORM, one statement at a time (no round trips). */
async function writeStepByStep(
  ctx: RequestContext,
  set: DataSet,
  members: MembersStatement,
  accessLog: AccessLogStatement | undefined,
): Promise<WrittenSet> {
  return ctx.db.exclusive(async () => {
    const runner = ctx.db.write.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      try {
        const started = performance.now();
        const inserted = await runner.manager.insert(DataSet, { ...set });
        const id = toNumber(inserted.identifiers[0]?.id);
        const statement = members(id);
        const written = await runner.query(statement.sql, statement.params, true);
        const highest = highestPosition(kindOf(set.itemType).membersTable, id);
        const [{ n }] = (await runner.query(highest.sql, highest.params)) as { n: unknown }[];
        const total = affectedRows(written) ?? toNumber(n);
        if (accessLog) {
          const entry = accessLog(id);
          await runner.query(entry.sql, entry.params);
        }
        await runner.manager.update(DataSet, { id }, { totalNumberOfItems: total });
        const page = pageRowsStatement(set.itemType, id, 1, set.numberOfItemsPerPage);
        const firstPageRows = (await runner.query(page.sql, page.params)) as ResultRow[];
        ctx.metrics.observeSetStatement(set.itemType, (performance.now() - started) / 1000);
        // Nothing commits before the request's charge let it through.
        await ctx.admission.wait();
        await runner.commitTransaction();
        return { id, total, firstPageRows };
      } catch (error) {
        await runner.rollbackTransaction().catch(() => undefined);
        throw error;
      }
    } finally {
      await runner.release();
    }
  });
}

/**
 * Writes the header `set` and the members of a new set in one transaction, and the read's
 * access-log entry with them when `accessLog` is given.
 */
export function writeDataSet(
  ctx: RequestContext,
  set: DataSet,
  members: MembersStatement,
  accessLog?: AccessLogStatement,
): Promise<WrittenSet> {
  return ctx.db.dialect.statementBatches
    ? writeInOneBatch(ctx, set, members, accessLog)
    : writeStepByStep(ctx, set, members, accessLog);
}

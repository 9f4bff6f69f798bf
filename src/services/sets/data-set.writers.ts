import type { RequestContext } from '../../context/request-context';
import { toNumber, type Dialect } from '../../db/sql/dialect';
import { DataSet } from '../../db/entities/data-set.entity';
import {
  headerInsert,
  highestPosition,
  rememberInsertId,
  totalUpdate,
} from '../../db/sql/data-set.sql';
import { sqlVariable } from '../../db/sql/statement-batches';
import { runUnitOfWork, type UnitOfWork } from '../../db/unit-of-work';
import { kindOf } from './set-kind';
import { pageRowsStatement } from './data-set.paging';
import type { AccessLogStatement, MembersStatement, ResultRow } from './data-set.types';

/**
 * How a set is written: one transaction (header, members, total, first page), in one exchange
 * or statement by statement as the dialect prefers (db/unit-of-work.ts).
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
 * The set's transaction as a unit of work (db/unit-of-work.ts): its header, its members, its
 * total, its first page and the read's access-log entry; committed only once the request's
 * charge let it through. On MySQL and MariaDB the header's id is kept in a session variable for
 * the statements that follow it in the batch. READ COMMITTED keeps INSERT … SELECT from
 * share-locking every answer it reads (answers being written meanwhile are not blocked); each
 * statement still reads one consistent snapshot.
 */
function setWrite(
  set: DataSet,
  members: MembersStatement,
  accessLog: AccessLogStatement | undefined,
  dialect: Dialect,
): UnitOfWork<WrittenSet> {
  const table = kindOf(set.itemType).membersTable;
  return {
    batch: () => {
      const dataSetId = sqlVariable('data_set_id');
      return {
        statements: [
          headerInsert(set),
          rememberInsertId(dialect, dataSetId),
          members(dataSetId),
          totalUpdate(table, dataSetId),
          pageRowsStatement(set.itemType, dataSetId, 1, set.numberOfItemsPerPage),
          // The read's access-log entry, from the members just written (contract.md §14.6).
          ...(accessLog ? [accessLog(dataSetId)] : []),
        ],
        outcome: ([header, , written, , firstPage]) => ({
          id: toNumber((header as { insertId?: unknown }).insertId),
          total: toNumber(affectedRows(written)),
          firstPageRows: firstPage as ResultRow[],
        }),
      };
    },
    steps: async (runner) => {
      const inserted = await runner.manager.insert(DataSet, { ...set });
      const id = toNumber(inserted.identifiers[0]?.id);
      const statement = members(id);
      const written = await runner.query(statement.sql, statement.params, true);
      const highest = highestPosition(table, id);
      const [{ n }] = (await runner.query(highest.sql, highest.params)) as { n: unknown }[];
      const total = affectedRows(written) ?? toNumber(n);
      if (accessLog) {
        const entry = accessLog(id);
        await runner.query(entry.sql, entry.params);
      }
      await runner.manager.update(DataSet, { id }, { totalNumberOfItems: total });
      const page = pageRowsStatement(set.itemType, id, 1, set.numberOfItemsPerPage);
      const firstPageRows = (await runner.query(page.sql, page.params)) as ResultRow[];
      return { id, total, firstPageRows };
    },
  };
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
  return runUnitOfWork(ctx.db, setWrite(set, members, accessLog, ctx.db.dialect), {
    isolation: 'READ COMMITTED',
    admission: ctx.admission,
    // The statements' time alone, not the wait for the request's charge.
    timed: (seconds) => ctx.metrics.observeSetStatement(set.itemType, seconds),
  });
}

import type { RequestContext } from '../../context/request-context';
import { expiryIn } from '../../db/entities/column-types';
import { newDataSet } from '../../db/data-sets.store';
import type { DataSetItemType } from '../../domain/data-sets/item-types';
import { idMembers } from '../../db/sql/data-set.sql';
import { insertStatement, type RowsQuery } from '../../db/sql/rows-query.sql';
import type { SqlFragment, SqlParam } from '../../db/sql/sql-fragment';
import { dataSetOwner } from '../../domain/policy/access.policy';
import { rememberDataSet } from './data-set.cache';
import { kindOf } from './set-kind';
import { pageFrom } from './data-set.paging';
import { parsePageSize } from './data-set.params';
import type { DataSetId, DataSetOptions, DataSetPage, MembersStatement } from './data-set.types';
import { writeDataSet } from './data-set.writers';

/**
 * Data sets in the database (contract.md §5): computed once by INSERT … SELECT when made, then
 * paged by ranges of (data_set_id, position). Members never pass through the process; a page
 * is the most it ever holds.
 */

/**
 * Makes a set owned by the requester and fills it, all in one transaction: a set is either
 * complete or absent. Returns its first page. The lowest-level form: `members` writes them.
 */
export async function createDataSetWith(
  ctx: RequestContext,
  itemType: DataSetItemType,
  members: MembersStatement,
  options: DataSetOptions = {},
): Promise<DataSetPage> {
  const numberOfItemsPerPage = parsePageSize(
    ctx.operation,
    options.numberOfItemsPerPage,
    ctx.config.pageSize,
  );
  const now = new Date();
  const set = newDataSet(ctx.db, {
    itemType,
    ...dataSetOwner(ctx.requester),
    totalNumberOfItems: 0,
    numberOfItemsPerPage,
    parameters: options.parameters ?? null,
    createdAt: now,
    expiresAt: expiryIn(ctx.config.dataSetTtlSeconds, now.getTime()),
  });
  const written = await writeDataSet(ctx, set, members, options.accessLog);
  set.id = written.id;
  set.totalNumberOfItems = written.total;
  rememberDataSet(ctx.db.write, set);
  return pageFrom(set, 1, written.firstPageRows);
}

/**
 * The INSERT … SELECT that stores the rows of `query` as the members of set `dataSetId` of
 * this item type: its columns are those of the kind's members table, position first (1..n).
 */
export function membersInsert(
  itemType: DataSetItemType,
  dataSetId: DataSetId,
  query: RowsQuery,
): SqlFragment {
  return insertStatement(kindOf(itemType).membersTable, 'data_set_id', dataSetId, query);
}

/** Makes a set whose members are the rows of `query` (see membersInsert). */
export function createDataSetFrom(
  ctx: RequestContext,
  itemType: DataSetItemType,
  query: RowsQuery,
  options: DataSetOptions = {},
): Promise<DataSetPage> {
  return createDataSetWith(
    ctx,
    itemType,
    (dataSetId) => membersInsert(itemType, dataSetId, query),
    options,
  );
}

/**
 * Makes a set of ids: `selectSql` is a SELECT whose column `id` names the members (duplicates
 * allowed), `params` its `?` parameters. Members are numbered in id order by the database.
 * `selectSql` may read data_set_items (see idMembers). Returns the first page.
 */
export function createDataSet(
  ctx: RequestContext,
  itemType: Exclude<DataSetItemType, 'computedResult'>,
  selectSql: string,
  params: readonly SqlParam[],
  options: DataSetOptions = {},
): Promise<DataSetPage> {
  return createDataSetFrom(
    ctx,
    itemType,
    idMembers({ sql: selectSql, params: [...params] }),
    options,
  );
}

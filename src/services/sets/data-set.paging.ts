import type { RequestContext } from '../../context/request-context';
import type { DataSet } from '../../db/entities/data-set.entity';
import { pageRows } from '../../db/sql/data-set.sql';
import type { SqlFragment } from '../../db/sql/sql-fragment';
import { confirmStillStored } from './data-set.access';
import { kindOf, pageMembers } from './set-kind';
import { isGiven, parseIntegerParam, type RawParam } from './data-set.params';
import type { DataSetId, DataSetPage, ResultRow } from './data-set.types';

/** Paging a set: a page is a range of positions, read by one statement. */

export function numberOfPages(set: Pick<DataSet, 'totalNumberOfItems' | 'numberOfItemsPerPage'>) {
  return Math.ceil(set.totalNumberOfItems / set.numberOfItemsPerPage);
}

/** The members of a set at positions first..last, in position order. */
export function pageRowsStatement(
  itemType: DataSet['itemType'],
  dataSetId: DataSetId,
  first: number,
  last: number,
): SqlFragment {
  const kind = kindOf(itemType);
  return pageRows(kind.membersTable, kind.pageColumns, dataSetId, first, last);
}

/** Page `index` of a set from the rows its page statement read. */
export function pageFrom(set: DataSet, index: number, rows: ResultRow[]): DataSetPage {
  return {
    dataSetId: set.id,
    itemType: set.itemType,
    numberOfPages: numberOfPages(set),
    numberOfItemsPerPage: set.numberOfItemsPerPage,
    totalNumberOfItems: set.totalNumberOfItems,
    currentPageIndex: index,
    ...pageMembers(kindOf(set.itemType), rows),
    parameters: set.parameters,
  };
}

/** A page of a set already known to be readable (pageIndex 1..max(1, numberOfPages)). */
export async function pageOf(
  ctx: RequestContext,
  set: DataSet,
  pageIndex: RawParam = 1,
): Promise<DataSetPage> {
  const index = isGiven(pageIndex)
    ? parseIntegerParam(ctx.operation, 'pageIndex', pageIndex, 1, Math.max(1, numberOfPages(set)))
    : 1;
  const firstPosition = (index - 1) * set.numberOfItemsPerPage + 1;
  const lastPosition = Math.min(index * set.numberOfItemsPerPage, set.totalNumberOfItems);
  if (lastPosition < firstPosition) return pageFrom(set, index, []);
  const { sql, params } = pageRowsStatement(set.itemType, set.id, firstPosition, lastPosition);
  // The write handle: a set this instance has just made is read back at once.
  const rows = await ctx.db.writeRows.rows<ResultRow>(sql, params);
  if (rows.length < lastPosition - firstPosition + 1) await confirmStillStored(ctx, set);
  return pageFrom(set, index, rows);
}

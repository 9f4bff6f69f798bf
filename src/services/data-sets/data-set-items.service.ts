import type { RequestContext } from '../../context/request-context';
import { requiredIdParam, requireReadableDataSet } from './data-set.access';
import { pageFrom, pageRowsStatement } from './data-set.paging';
import type { RawParam } from './data-set.params';
import type { DataSetPage, ResultRow } from './data-set.types';

/**
 * A run of a set's members by position, for cursor pagination (getDataSetItems): the same
 * stored order, ownership and expiry as a page (getDataSetPage), any start and length.
 */
export interface DataSetRange {
  /** The members at positions firstPosition.., as a page holds them (currentPageIndex 1). */
  page: DataSetPage;
  firstPosition: number;
  /** The position of each member read (itemIds or resultRows, in order). */
  positions: number[];
}

/** Up to `count` members of one of the requester's sets after position `after` (0: the first). */
export async function getDataSetRange(
  ctx: RequestContext,
  dataSetId: RawParam,
  after: number,
  count: number,
): Promise<DataSetRange> {
  const set = await requireReadableDataSet(ctx, requiredIdParam(ctx, 'dataSetId', dataSetId));
  const firstPosition = after + 1;
  const lastPosition = Math.min(after + count, set.totalNumberOfItems);
  if (lastPosition < firstPosition) {
    return { page: pageFrom(set, 1, []), firstPosition, positions: [] };
  }
  const { sql, params } = pageRowsStatement(set.itemType, set.id, firstPosition, lastPosition);
  // The write handle, as for pages: a set this instance has just made is read back at once.
  const rows = await ctx.db.writeRows.rows<ResultRow>(sql, params);
  return {
    page: pageFrom(set, 1, rows),
    firstPosition,
    positions: rows.map((_row, index) => firstPosition + index),
  };
}

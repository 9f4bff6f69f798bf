import type { RequestContext } from '../../context/request-context';
import { Errors } from '../../errors';
import { confirmStillStored, requiredIdParam, requireReadableDataSet } from './data-set.access';
import { pageFrom, pageRowsStatement } from './data-set.paging';
import { isGiven, MAX_ITEMS_PER_PAGE, parseIntegerParam, type RawParam } from './data-set.params';
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
  /** Whether members come after the last one read. */
  hasNextPage: boolean;
}

/** Items of getDataSetItems without `first` (a page of the default size). */
export const DEFAULT_ITEMS_FIRST = 50;

/** A Relay cursor: opaque to clients, the set and a position within it. */
export function itemCursor(dataSetId: number, position: number): string {
  return Buffer.from(`${dataSetId}:${position}`).toString('base64url');
}

/** The position an `after` cursor names in set `dataSetId`; 0 without one. */
function positionAfter(operation: string, dataSetId: number, after: RawParam): number {
  if (!isGiven(after)) return 0;
  const [, set, position] =
    /^(\d+):(\d+)$/.exec(Buffer.from(String(after), 'base64url').toString('utf8')) ?? [];
  // By number: the id may be given as any text the id parameter accepts ("007" is set 7).
  if (set === undefined || Number(set) !== dataSetId) {
    throw Errors.badParameter(operation, 'after', after, 'not a cursor of this data set');
  }
  return Number(position);
}

/**
 * Up to `first` members (default 50) of one of the requester's sets after the cursor `after`.
 * The set is checked before the run is read, in getDataSetPage's order: a set the requester may
 * not read is refused as such whatever the other arguments.
 */
export async function getDataSetRange(
  ctx: RequestContext,
  dataSetId: RawParam,
  first: RawParam,
  after: RawParam,
): Promise<DataSetRange> {
  const set = await requireReadableDataSet(ctx, requiredIdParam(ctx, 'dataSetId', dataSetId));
  const count = isGiven(first)
    ? parseIntegerParam(ctx.operation, 'first', first, 0, MAX_ITEMS_PER_PAGE)
    : DEFAULT_ITEMS_FIRST;
  const from = positionAfter(ctx.operation, set.id, after);
  const firstPosition = from + 1;
  const lastPosition = Math.min(from + count, set.totalNumberOfItems);
  const hasNextPage = from + count < set.totalNumberOfItems;
  if (lastPosition < firstPosition) {
    return { page: pageFrom(set, 1, []), firstPosition, positions: [], hasNextPage };
  }
  const { sql, params } = pageRowsStatement(set.itemType, set.id, firstPosition, lastPosition);
  // The write handle, as for pages: a set this instance has just made is read back at once.
  const rows = await ctx.db.writeRows.rows<ResultRow>(sql, params);
  if (rows.length < lastPosition - firstPosition + 1) await confirmStillStored(ctx, set);
  return {
    page: pageFrom(set, 1, rows),
    firstPosition,
    positions: rows.map((_row, index) => firstPosition + index),
    hasNextPage,
  };
}

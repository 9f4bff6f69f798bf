import { createLoaders } from '../../context/loaders';
import type { RequestContext } from '../../context/request-context';
import { toNumber } from '../../db/sql/dialect';
import type { DataSet } from '../../db/entities/data-set.entity';
import type { DataSetItemType } from '../../domain/data-sets/item-types';
import { membersAfter } from '../../db/sql/data-set.sql';
import { computedResultSubjects, userSetSubjects } from '../../db/sql/access-log.sql';
import { Errors } from '../../errors';
import { storedResultsShape, type StoredResultsShape } from '../results/result-parameters';
import { recordAccess } from '../access-log/access-log.service';
import { confirmStillStored, requiredIdParam, requireReadableDataSet } from './data-set.access';
import { kindOf } from './data-set.kinds';
import { pageFrom } from './data-set.paging';
import { isGiven, type RawParam } from './data-set.params';
import type { ResultRow } from './data-set.types';
import { dataSetPageView, type DataSetPageView } from './data-set.views';

/**
 * exportDataSet (contract.md §13): every item of a readable set, in set order, read a chunk at a
 * time. A chunk is read only when the previous one was taken, each with loaders of its own, so
 * an export holds one chunk in memory whatever the size of the set. Items are the views a page
 * shows (data-set.views.ts); how they are written (CSV, NDJSON) is the transport's.
 */

export const EXPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Members read by one keyset statement: a page at the largest page size, halved. */
export const EXPORT_CHUNK_SIZE = 500;

/** Items of one item type, as a page holds them. */
export type DataSetItemsView = {
  [K in DataSetItemType]: Pick<Extract<DataSetPageView, { itemType: K }>, 'itemType' | 'items'>;
}[DataSetItemType];

export interface DataSetExport {
  format: ExportFormat;
  dataSetId: number;
  itemType: DataSetItemType;
  /** Members of the set (items the requester may no longer read are left out, as on pages). */
  totalNumberOfItems: number;
  /** Computed results: the result types and grouping of every item, known before any is read. */
  resultsShape: StoredResultsShape | undefined;
  /** The items in set order, at most EXPORT_CHUNK_SIZE at a time; each read when asked for. */
  chunks(): AsyncGenerator<DataSetItemsView, void, undefined>;
}

function exportFormat(ctx: RequestContext, format: RawParam): ExportFormat {
  if (!isGiven(format)) throw Errors.missingParameter(ctx.operation, 'format');
  const name = String(format).trim();
  if (!(EXPORT_FORMATS as readonly string[]).includes(name)) {
    throw Errors.badParameter(
      ctx.operation,
      'format',
      format,
      `must be one of ${EXPORT_FORMATS.join(', ')}`,
    );
  }
  return name as ExportFormat;
}

/** The select list of a chunk: the page's, with the position the next read starts after. */
function chunkColumns(itemType: DataSetItemType): readonly string[] {
  const { pageColumns } = kindOf(itemType);
  return pageColumns.includes('position') ? pageColumns : [...pageColumns, 'position'];
}

async function* chunksOf(
  ctx: RequestContext,
  set: DataSet,
  chunkSize: number,
): AsyncGenerator<DataSetItemsView, void, undefined> {
  const { membersTable } = kindOf(set.itemType);
  const columns = chunkColumns(set.itemType);
  let after = 0;
  let read = 0;
  for (;;) {
    const { sql, params } = membersAfter(membersTable, columns, set.id, after, chunkSize);
    // The write handle, as for pages: a set this instance has just made is read back at once.
    const rows = await ctx.db.writeRows.rows<ResultRow>(sql, params);
    if (rows.length > 0) {
      read += rows.length;
      after = toNumber(rows[rows.length - 1]?.position);
      // Loaders of its own: what a chunk loaded is dropped with it, not kept for the request.
      const chunkCtx: RequestContext = { ...ctx, loaders: createLoaders(ctx.db, ctx.requester) };
      const view = await dataSetPageView(chunkCtx, pageFrom(set, 1, rows));
      yield { itemType: view.itemType, items: view.items } as DataSetItemsView;
    }
    if (rows.length < chunkSize) break;
  }
  // Members go only when the set is purged: fewer than its total means it expired meanwhile,
  // and an export cut short must fail, not end as if complete.
  if (read !== set.totalNumberOfItems) {
    throw Errors.notFound(
      ctx.operation,
      'dataSetId',
      String(set.id),
      `data set ${set.id} expired during the export`,
    );
  }
}

/**
 * The pupils an export of `set` names, when it names any (contract.md §14.6): a user set's
 * members, the users of a computed results set's rows.
 */
const EXPORTED_SUBJECTS: Partial<Record<DataSetItemType, typeof userSetSubjects>> = {
  user: userSetSubjects,
  computedResult: computedResultSubjects,
};

/**
 * exportDataSet: checks its parameters and the set as getDataSetPage does (missing or malformed
 * dataSetId, unknown or expired set, another requester's), then the format; records the export
 * of a user or results set in the access log (the set's members, named by the database); reads
 * nothing more until its chunks are asked for.
 */
export async function exportDataSet(
  ctx: RequestContext,
  dataSetId: RawParam,
  format: RawParam,
  options: { chunkSize?: number } = {},
): Promise<DataSetExport> {
  const id = requiredIdParam(ctx, 'dataSetId', dataSetId);
  const chosen = exportFormat(ctx, format);
  const set = await requireReadableDataSet(ctx, id);
  // An export is long and rare: its set is confirmed in the database, not only in this
  // instance's memory, so a set an erasure deleted is a 404 before the file starts.
  await confirmStillStored(ctx, set);
  const chunkSize = options.chunkSize ?? EXPORT_CHUNK_SIZE;
  const subjects = EXPORTED_SUBJECTS[set.itemType];
  if (subjects) await recordAccess(ctx, subjects(set.id));
  return {
    format: chosen,
    dataSetId: set.id,
    itemType: set.itemType,
    totalNumberOfItems: set.totalNumberOfItems,
    resultsShape:
      set.itemType === 'computedResult' ? storedResultsShape(set.parameters) : undefined,
    chunks: () => chunksOf(ctx, set, chunkSize),
  };
}

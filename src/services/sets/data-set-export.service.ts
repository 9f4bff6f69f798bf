import type { RequestContext } from '../../context/request-context';
import { toNumber } from '../../db/sql/dialect';
import type { DataSet } from '../../db/entities/data-set.entity';
import type { DataSetItemType } from '../../domain/data-sets/item-types';
import { membersAfter } from '../../db/sql/data-set.sql';
import { Errors } from '../../errors';
import { confirmStillStored, requiredIdParam, requireReadableDataSet } from './data-set.access';
import { pageFrom } from './data-set.paging';
import { isGiven, type RawParam } from './data-set.params';
import type { DataSetPage, ResultRow } from './data-set.types';
import { kindOf } from './set-kind';

/**
 * exportDataSet (contract.md §13), as the engine reads it: every member of a readable set, in
 * set order, a chunk at a time. A chunk is read only when the previous one was taken, so an
 * export holds one chunk in memory whatever the size of the set. The items of each chunk are
 * the kinds' views (services/set-kinds/data-set-export.service.ts makes them).
 */

export const EXPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Members read by one keyset statement: a page at the largest page size, halved. */
export const EXPORT_CHUNK_SIZE = 500;

/** An export checked and recorded, whose chunks are read when asked for. */
export interface DataSetChunks {
  format: ExportFormat;
  /** The set's header: its id, item type, parameters and total. */
  set: Pick<DataSet, 'id' | 'itemType' | 'parameters' | 'totalNumberOfItems'>;
  /** The members in set order, at most the chunk size at a time, as pages (index 1) hold them. */
  pages(): AsyncGenerator<DataSetPage, void, undefined>;
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
): AsyncGenerator<DataSetPage, void, undefined> {
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
      yield pageFrom(set, 1, rows);
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
 * Opens an export: checks its parameters and the set as getDataSetPage does (missing or
 * malformed dataSetId, unknown or expired set, another requester's), then the format; records the
 * export of a set whose kind names pupils in the access log (SetKind.recordExport); reads nothing
 * more until its pages are asked for.
 */
export async function openDataSetExport(
  ctx: RequestContext,
  dataSetId: RawParam,
  format: RawParam,
  options: { chunkSize?: number } = {},
): Promise<DataSetChunks> {
  const id = requiredIdParam(ctx, 'dataSetId', dataSetId);
  const chosen = exportFormat(ctx, format);
  const set = await requireReadableDataSet(ctx, id);
  // An export is long and rare: its set is confirmed in the database, not only in this
  // instance's memory, so a set an erasure deleted is a 404 before the file starts.
  await confirmStillStored(ctx, set);
  const chunkSize = options.chunkSize ?? EXPORT_CHUNK_SIZE;
  await kindOf(set.itemType).recordExport?.(ctx, set.id);
  return { format: chosen, set, pages: () => chunksOf(ctx, set, chunkSize) };
}

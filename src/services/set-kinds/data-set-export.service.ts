import { createLoaders } from '../../context/loaders';
import type { RequestContext } from '../../context/request-context';
import type { DataSetItemType } from '../../domain/data-sets/item-types';
import { storedResultsShape, type StoredResultsShape } from '../results/result-parameters';
import {
  openDataSetExport,
  type DataSetChunks,
  type ExportFormat,
} from '../sets/data-set-export.service';
import type { RawParam } from '../sets/data-set.params';
import { dataSetPageView, type DataSetPageView } from './data-set.views';

/**
 * exportDataSet (contract.md §13): every item of a readable set, in set order, a chunk at a
 * time, each chunk's items made with loaders of their own, so an export holds one chunk in
 * memory whatever the size of the set. Items are the views a page shows (data-set.views.ts);
 * how they are written (CSV, NDJSON) is the transport's.
 */

export {
  EXPORT_CHUNK_SIZE,
  EXPORT_FORMATS,
  type ExportFormat,
} from '../sets/data-set-export.service';

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

async function* itemsOf(
  ctx: RequestContext,
  opened: DataSetChunks,
): AsyncGenerator<DataSetItemsView, void, undefined> {
  for await (const page of opened.pages()) {
    // Loaders of its own: what a chunk loaded is dropped with it, not kept for the request.
    const chunkCtx: RequestContext = { ...ctx, loaders: createLoaders(ctx.db, ctx.requester) };
    const view = await dataSetPageView(chunkCtx, page);
    yield { itemType: view.itemType, items: view.items } as DataSetItemsView;
  }
}

/**
 * exportDataSet: checks its parameters and the set as getDataSetPage does, then the format;
 * records the export of a user or results set in the access log (the set's members, named by
 * the database); reads nothing more until its chunks are asked for (see openDataSetExport).
 */
export async function exportDataSet(
  ctx: RequestContext,
  dataSetId: RawParam,
  format: RawParam,
  options: { chunkSize?: number } = {},
): Promise<DataSetExport> {
  const opened = await openDataSetExport(ctx, dataSetId, format, options);
  const { set } = opened;
  return {
    format: opened.format,
    dataSetId: set.id,
    itemType: set.itemType,
    totalNumberOfItems: set.totalNumberOfItems,
    resultsShape:
      set.itemType === 'computedResult' ? storedResultsShape(set.parameters) : undefined,
    chunks: () => itemsOf(ctx, opened),
  };
}

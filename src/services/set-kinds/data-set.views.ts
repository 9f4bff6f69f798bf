import type { RequestContext } from '../../context/request-context';
import type { DataSetItemType } from '../../domain/data-sets/item-types';
import type { DataSetPage } from '../sets/data-set.types';
import { DATA_SET_KINDS, type SetItems } from './set-kinds.registry';

/**
 * A page with the items of its kind as the requester may see them, for both transports: each
 * kind's view (SetKind.items), chosen by the page's item type.
 */

export type { ComputedResultView } from '../results/computed-result.views';
export type { QuestionStatisticView, QuizStatisticView } from '../statistics/statistics.views';
export type { UserGroupView } from '../data-sets/id-set.views';

type PageMeta = Omit<DataSetPage, 'itemType' | 'itemIds' | 'resultRows' | 'parameters'>;

/** A page of each item type with its items: one member of the union per kind. */
export type DataSetPageView = {
  [K in DataSetItemType]: PageMeta & { itemType: K; items: SetItems[K][] };
}[DataSetItemType];

/** A page with its items, by item type. */
export async function dataSetPageView(
  ctx: RequestContext,
  page: DataSetPage,
): Promise<DataSetPageView> {
  const meta: PageMeta = {
    dataSetId: page.dataSetId,
    numberOfPages: page.numberOfPages,
    numberOfItemsPerPage: page.numberOfItemsPerPage,
    totalNumberOfItems: page.totalNumberOfItems,
    currentPageIndex: page.currentPageIndex,
  };
  const kind: { items(ctx: RequestContext, page: DataSetPage): Promise<unknown[]> } =
    DATA_SET_KINDS[page.itemType];
  const items = await kind.items(ctx, page);
  // The registry gives each item type its own items; TypeScript cannot pair them up by itself.
  return { ...meta, itemType: page.itemType, items } as DataSetPageView;
}

import type {
  ComputeDataSetParams,
  DataSetItem,
  DataSetItemType,
  DataSetPage,
  DataSetRef,
  GetDataSetPageParams,
  SetOperator,
} from './types';

/** What a DataSet needs from the client: paging and set algebra. */
export interface DataSetSource {
  getDataSetPage(params: GetDataSetPageParams): Promise<DataSet>;
  computeDataSet(params: ComputeDataSetParams): Promise<DataSet>;
}

/**
 * One page of a data set, with what it takes to reach the rest of the set: any page by index,
 * every item in order (`for await (const item of set)`), and the set algebra of computeDataSet.
 * A set is fixed when it is made, so its page count and order do not change while paging.
 */
export class DataSet<T extends DataSetItem = DataSetItem>
  implements DataSetPage<T>, AsyncIterable<T>
{
  readonly dataSetId: string;
  readonly itemType: DataSetItemType;
  readonly numberOfPages: number;
  readonly numberOfItemsPerPage: number;
  readonly totalNumberOfItems: number;
  readonly items: T[];
  readonly currentPageIndex: number;

  constructor(
    private readonly source: DataSetSource,
    page: DataSetPage<T>,
  ) {
    this.dataSetId = page.dataSetId;
    this.itemType = page.itemType;
    this.numberOfPages = page.numberOfPages;
    this.numberOfItemsPerPage = page.numberOfItemsPerPage;
    this.totalNumberOfItems = page.totalNumberOfItems;
    this.items = page.items;
    this.currentPageIndex = page.currentPageIndex;
  }

  get hasNextPage(): boolean {
    return this.currentPageIndex < this.numberOfPages;
  }

  /** Page `pageIndex` (1..numberOfPages) of this set. */
  async getPage(pageIndex: number): Promise<DataSet<T>> {
    const page = await this.source.getDataSetPage({ dataSetId: this.dataSetId, pageIndex });
    return this.sameSet(page);
  }

  /** The next page, or undefined on the last one. */
  nextPage(): Promise<DataSet<T> | undefined> {
    return this.hasNextPage ? this.getPage(this.currentPageIndex + 1) : Promise.resolve(undefined);
  }

  /** Every page of the set from the first, fetching each once; this page is reused when it is the first. */
  async *pages(): AsyncGenerator<DataSet<T>, void, undefined> {
    const first = this.currentPageIndex === 1 ? this : await this.getPage(1);
    yield first;
    for (let index = 2; index <= first.numberOfPages; index += 1) {
      yield await this.getPage(index);
    }
  }

  /** Every item of the set, in the set's order, across pages. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.items;
  }

  /** Every item of the set in one array (fetches every page). */
  async toArray(): Promise<T[]> {
    const all: T[] = [];
    for await (const item of this) all.push(item);
    return all;
  }

  /** A new set: this one combined with `other` (of the same item type) by computeDataSet. */
  async combine(
    other: DataSetRef,
    operator: SetOperator,
    options: { numberOfItemsPerPage?: number } = {},
  ): Promise<DataSet<T>> {
    const page = await this.source.computeDataSet({
      dataSetId1: this.dataSetId,
      dataSetId2: other,
      operator,
      ...options,
    });
    return this.sameSet(page, false);
  }

  union(other: DataSetRef): Promise<DataSet<T>> {
    return this.combine(other, 'union');
  }

  intersection(other: DataSetRef): Promise<DataSet<T>> {
    return this.combine(other, 'intersection');
  }

  difference(other: DataSetRef): Promise<DataSet<T>> {
    return this.combine(other, 'difference');
  }

  /** A page known to hold this set's item type (the service keeps a set's type; this checks it). */
  private sameSet(page: DataSet, sameId = true): DataSet<T> {
    if (page.itemType !== this.itemType || (sameId && page.dataSetId !== this.dataSetId)) {
      throw new TypeError(
        `expected a page of ${this.itemType} set ${this.dataSetId}, got ${page.itemType} set ${page.dataSetId}`,
      );
    }
    return page as DataSet<T>;
  }
}

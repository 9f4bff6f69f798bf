import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { DataSetItemType } from '../../../domain/data-sets/item-types';
import type { DataSetItemsView } from '../../operations/data-set.operation';
import { itemCursor } from '../../../services/sets/data-set-items.service';
import { DataSetItemUnion, ItemTypeEnum, toDataSetObject } from './data-set.type';
import type { RootFieldOutputs } from './root-field.outputs';

/**
 * getDataSetItems as a Relay connection (contract.md §15), so the pagination helpers of Apollo
 * Client (relayStylePagination), urql and Relay page a set unchanged.
 */

@ObjectType('PageInfo', { simpleResolvers: true, description: 'Where a connection stops.' })
export class PageInfoObject {
  @Field(() => Boolean)
  hasNextPage!: boolean;

  @Field(() => Boolean)
  hasPreviousPage!: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'The first edge’s cursor; null without edges.',
  })
  startCursor!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'The last edge’s cursor, `after` of the next call; null without edges.',
  })
  endCursor!: string | null;
}

@ObjectType('DataSetItemEdge', { simpleResolvers: true })
export class DataSetItemEdgeObject {
  @Field(() => String)
  cursor!: string;

  @Field(() => DataSetItemUnion)
  node!: unknown;
}

@ObjectType('DataSetItemConnection', {
  simpleResolvers: true,
  description: 'Items of a data set in its stored order, a run at a time.',
})
export class DataSetItemConnectionObject {
  @Field(() => ID)
  dataSetId!: string;

  @Field(() => ItemTypeEnum)
  itemType!: DataSetItemType;

  @Field(() => Int, { description: 'Items in the whole set.' })
  totalCount!: number;

  @Field(() => [DataSetItemEdgeObject])
  edges!: DataSetItemEdgeObject[];

  @Field(() => PageInfoObject)
  pageInfo!: PageInfoObject;
}

export function toDataSetItemConnection(view: DataSetItemsView): DataSetItemConnectionObject {
  const { page, positions } = view;
  const nodes = toDataSetObject(page).items;
  const edges = nodes.map((node, index) =>
    Object.assign(new DataSetItemEdgeObject(), {
      cursor: itemCursor(page.dataSetId, positions[index]),
      node,
    }),
  );
  return Object.assign(new DataSetItemConnectionObject(), {
    dataSetId: String(page.dataSetId),
    itemType: page.itemType,
    totalCount: page.totalNumberOfItems,
    edges,
    pageInfo: Object.assign(new PageInfoObject(), {
      hasNextPage: view.hasNextPage,
      hasPreviousPage: view.hasPreviousPage,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    }),
  });
}

/** The root fields that answer with these types. */
export const DATA_SET_ITEMS_ROOT_FIELDS: RootFieldOutputs = {
  getDataSetItems: { type: () => DataSetItemConnectionObject, from: toDataSetItemConnection },
};

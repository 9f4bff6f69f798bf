import { createUnionType, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Quiz } from '../../../db/entities';
import { DATA_SET_ITEM_TYPES, type DataSetItemType } from '../../../db/entities/data-set.entity';
import { ComputedResultObject } from './computed-result.type';
import { QuizObject } from './quiz.type';
import { UserType } from './user.type';

export const ItemTypeEnum = Object.fromEntries(DATA_SET_ITEM_TYPES.map((t) => [t, t])) as Record<
  DataSetItemType,
  DataSetItemType
>;
registerEnumType(ItemTypeEnum, { name: 'DataSetItemType' });

export enum SetOperator {
  union = 'union',
  intersection = 'intersection',
  difference = 'difference',
}
registerEnumType(SetOperator, {
  name: 'SetOperator',
  description: 'How computeDataSet combines two sets.',
});

@ObjectType('UserGroup', { simpleResolvers: true })
export class UserGroupObject {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => Int)
  nbMembers!: number;
}

export const DataSetItemUnion = createUnionType({
  name: 'DataSetItem',
  description: 'An item of a data set; its type follows the set itemType.',
  types: () => [UserType, QuizObject, UserGroupObject, ComputedResultObject] as const,
  resolveType: (value) => {
    if (value instanceof Quiz) return QuizObject;
    if (value instanceof UserGroupObject) return UserGroupObject;
    if (value instanceof ComputedResultObject) return ComputedResultObject;
    return UserType;
  },
});

@ObjectType('DataSet', {
  simpleResolvers: true,
  description:
    'One page of a data set (spec §2.3); pass dataSetId to getDataSetPage for the others.',
})
export class DataSetObject {
  @Field(() => ID)
  dataSetId!: string;

  @Field(() => ItemTypeEnum)
  itemType!: DataSetItemType;

  @Field(() => Int)
  numberOfPages!: number;

  @Field(() => Int)
  numberOfItemsPerPage!: number;

  @Field(() => Int)
  totalNumberOfItems!: number;

  @Field(() => Int, { description: '1-based' })
  currentPageIndex!: number;

  @Field(() => [DataSetItemUnion])
  items!: unknown[];
}

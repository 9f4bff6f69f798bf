import { createUnionType, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DATA_SET_ITEM_TYPES, type DataSetItemType } from '../../../db/entities/data-set.entity';
import type { DataSetPageView } from '../../../services/data-sets/data-set.views';
import { ComputedResultObject, toComputedResultObject } from './computed-result.type';
import { QuizObject, toQuizObject } from './quiz.type';
import {
  QuestionStatisticObject,
  QuizStatisticObject,
  toQuestionStatisticObject,
  toQuizStatisticObject,
} from './statistics.type';
import { toUserType, UserType } from './user.type';

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
  types: () =>
    [
      UserType,
      QuizObject,
      UserGroupObject,
      ComputedResultObject,
      QuestionStatisticObject,
      QuizStatisticObject,
    ] as const,
  resolveType: (value) => {
    if (value instanceof QuizObject) return QuizObject;
    if (value instanceof QuestionStatisticObject) return QuestionStatisticObject;
    if (value instanceof QuizStatisticObject) return QuizStatisticObject;
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

/** Each item view as the GraphQL object of its type. */
function itemObjects(page: DataSetPageView): DataSetObject['items'] {
  switch (page.itemType) {
    case 'user':
      return page.items.map(toUserType);
    case 'quiz':
      return page.items.map(toQuizObject);
    case 'userGroup':
      return page.items.map((group) =>
        Object.assign(new UserGroupObject(), {
          id: String(group.id),
          name: group.name,
          nbMembers: group.nbMembers,
        }),
      );
    case 'computedResult':
      return page.items.map(toComputedResultObject);
    case 'questionStatistic':
      return page.items.map(toQuestionStatisticObject);
    case 'quizStatistic':
      return page.items.map(toQuizStatisticObject);
  }
}

/** The page view as the GraphQL object (spec §2.3). */
export function toDataSetObject(page: DataSetPageView): DataSetObject {
  return Object.assign(new DataSetObject(), {
    dataSetId: String(page.dataSetId),
    itemType: page.itemType,
    numberOfPages: page.numberOfPages,
    numberOfItemsPerPage: page.numberOfItemsPerPage,
    totalNumberOfItems: page.totalNumberOfItems,
    currentPageIndex: page.currentPageIndex,
    items: itemObjects(page),
  });
}

import {
  createUnionType,
  Field,
  ID,
  Int,
  InterfaceType,
  ObjectType,
  registerEnumType,
  type ClassType,
} from 'type-graphql';
import { DATA_SET_ITEM_TYPES, type DataSetItemType } from '../../../domain/data-sets/item-types';
import type { DataSetPageView } from '../../../services/set-kinds/data-set.views';
import { ComputedResultObject, toComputedResultObject } from './computed-result.type';
import { QuizObject, toQuizObject } from './quiz.type';
import {
  QuestionStatisticObject,
  QuizStatisticObject,
  toQuestionStatisticObject,
  toQuizStatisticObject,
} from './statistics.type';
import { toUserType, UserType } from './user.type';
import type { RootFieldOutputs } from './root-field.outputs';

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
  resolveType: (value) => dataSetItemTypeName(value),
});

/** The object type of a data set's item, by its class (synchronous: graphql.schema.ts). */
export function dataSetItemTypeName(value: unknown): string {
  if (value instanceof QuizObject) return 'Quiz';
  if (value instanceof QuestionStatisticObject) return 'QuestionStatistic';
  if (value instanceof QuizStatisticObject) return 'QuizStatistic';
  if (value instanceof UserGroupObject) return 'UserGroup';
  if (value instanceof ComputedResultObject) return 'ComputedResult';
  return 'User';
}

/** The page type of a data set's page (synchronous: graphql.schema.ts). */
export function dataSetPageTypeName(page: { itemType: DataSetItemType }): string {
  return PAGE_TYPE_NAMES[page.itemType];
}

/** The page type of each item type (contract.md §15). */
export const PAGE_TYPE_NAMES = {
  user: 'UserPage',
  quiz: 'QuizPage',
  userGroup: 'UserGroupPage',
  computedResult: 'ComputedResultPage',
  questionStatistic: 'QuestionStatisticPage',
  quizStatistic: 'QuizStatisticPage',
} as const satisfies Record<DataSetItemType, string>;

/**
 * A page of a data set, whatever its item type: what getDataSetPage and computeDataSet return,
 * and what every page type implements (fragments `on DataSet` read any page).
 */
@InterfaceType('DataSet', {
  description:
    'One page of a data set (spec §2.3); pass dataSetId to getDataSetPage for the others. Each page type (UserPage, QuizPage…) narrows items to its item type.',
  resolveType: (page: { itemType: DataSetItemType }) => dataSetPageTypeName(page),
})
export abstract class DataSetObject {
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

  @Field(() => [DataSetItemUnion], { description: 'The items of the page, in set order.' })
  items!: unknown[];
}

/** The page type of one item type: the DataSet fields, items of that type only. */
function pageType<T extends object>(name: string, item: ClassType<T>, of: string) {
  @ObjectType(name, {
    implements: DataSetObject,
    simpleResolvers: true,
    description: `One page of a data set of ${of}; pass dataSetId to getDataSetPage for the others.`,
  })
  class Page extends DataSetObject {
    @Field(() => [item], { description: 'The items of the page, in set order.' })
    declare items: T[];
  }
  return Page;
}

export const UserPage = pageType(PAGE_TYPE_NAMES.user, UserType, 'users');
export type UserPage = InstanceType<typeof UserPage>;
export const QuizPage = pageType(PAGE_TYPE_NAMES.quiz, QuizObject, 'quizzes');
export type QuizPage = InstanceType<typeof QuizPage>;
export const UserGroupPage = pageType(PAGE_TYPE_NAMES.userGroup, UserGroupObject, 'user groups');
export type UserGroupPage = InstanceType<typeof UserGroupPage>;
export const ComputedResultPage = pageType(
  PAGE_TYPE_NAMES.computedResult,
  ComputedResultObject,
  'computed results',
);
export type ComputedResultPage = InstanceType<typeof ComputedResultPage>;
export const QuestionStatisticPage = pageType(
  PAGE_TYPE_NAMES.questionStatistic,
  QuestionStatisticObject,
  'question statistics',
);
export type QuestionStatisticPage = InstanceType<typeof QuestionStatisticPage>;
export const QuizStatisticPage = pageType(
  PAGE_TYPE_NAMES.quizStatistic,
  QuizStatisticObject,
  'quiz statistics',
);
export type QuizStatisticPage = InstanceType<typeof QuizStatisticPage>;

/** The class of each page type, by item type. */
const PAGE_CLASSES: Record<DataSetItemType, new () => DataSetObject> = {
  user: UserPage,
  quiz: QuizPage,
  userGroup: UserGroupPage,
  computedResult: ComputedResultPage,
  questionStatistic: QuestionStatisticPage,
  quizStatistic: QuizStatisticPage,
};

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
      return page.items.map((item) => toComputedResultObject(item, page.dataSetId));
    case 'questionStatistic':
      return page.items.map((item) => toQuestionStatisticObject(item, page.dataSetId));
    case 'quizStatistic':
      return page.items.map(toQuizStatisticObject);
  }
}

/** The page view as the GraphQL object of its page type (spec §2.3). */
export function toDataSetObject(page: DataSetPageView): DataSetObject {
  return Object.assign(new PAGE_CLASSES[page.itemType](), {
    dataSetId: String(page.dataSetId),
    itemType: page.itemType,
    numberOfPages: page.numberOfPages,
    numberOfItemsPerPage: page.numberOfItemsPerPage,
    totalNumberOfItems: page.totalNumberOfItems,
    currentPageIndex: page.currentPageIndex,
    items: itemObjects(page),
  });
}

/** The root fields that answer with these types. */
export const DATA_SET_ROOT_FIELDS: RootFieldOutputs = {
  getQuizSet: {
    type: () => QuizPage,
    from: toDataSetObject,
    args: { creationDate: { description: 'start,end or one value' } },
  },
  getUserSet: { type: () => UserPage, from: toDataSetObject },
  getUserGroupSet: {
    type: () => UserGroupPage,
    from: toDataSetObject,
    args: { search: { description: 'name prefix' } },
  },
  getDataSetPage: {
    type: () => DataSetObject,
    from: toDataSetObject,
    args: { pageIndex: { defaultValue: 1 } },
  },
  computeDataSet: { type: () => DataSetObject, from: toDataSetObject },
  getResults: { type: () => ComputedResultPage, from: toDataSetObject },
  getQuestionStatistics: { type: () => QuestionStatisticPage, from: toDataSetObject },
  getQuizStatistics: { type: () => QuizStatisticPage, from: toDataSetObject },
};

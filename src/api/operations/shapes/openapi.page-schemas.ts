import { DATA_SET_ITEM_TYPES, type DataSetItemType } from '../../../domain/data-sets/item-types';
import { MAX_ITEMS_PER_PAGE, MIN_ITEMS_PER_PAGE } from '../../../services/sets/data-set.params';

/** JSON Schema (2020-12), as openapi.schemas.ts writes it. */
type JsonSchema = Record<string, unknown>;

/**
 * The pages of data sets (contract.md §4, §15): one page schema per item type, whose `items` are
 * that type, so a generated client reads typed items; `DataSetPage` (what getDataSetPage and
 * computeDataSet answer, whatever the set holds) is one of them, told apart by `itemType`.
 */

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const idString: JsonSchema = { type: 'string', pattern: '^[0-9]+$' };

/** The component schema of one item of each item type. */
const ITEM_SCHEMA_OF: Readonly<Record<DataSetItemType, string>> = {
  user: 'User',
  quiz: 'Quiz',
  userGroup: 'UserGroup',
  computedResult: 'ComputedResult',
  questionStatistic: 'QuestionStatistic',
  quizStatistic: 'QuizStatistic',
};

/** The page schema of a set of one item type: `UserPage`, `ComputedResultPage`… */
export function pageSchemaName(itemType: DataSetItemType): string {
  return `${ITEM_SCHEMA_OF[itemType]}Page`;
}

const ENVELOPE = [
  'dataSetId',
  'itemType',
  'numberOfPages',
  'numberOfItemsPerPage',
  'totalNumberOfItems',
  'items',
  'currentPageIndex',
];

function pageSchema(itemType: DataSetItemType): JsonSchema {
  return {
    type: 'object',
    required: ENVELOPE,
    properties: {
      dataSetId: idString,
      itemType: { type: 'string', const: itemType },
      numberOfPages: { type: 'integer', minimum: 0 },
      numberOfItemsPerPage: {
        type: 'integer',
        minimum: MIN_ITEMS_PER_PAGE,
        maximum: MAX_ITEMS_PER_PAGE,
      },
      totalNumberOfItems: { type: 'integer', minimum: 0 },
      items: { type: 'array', items: ref(ITEM_SCHEMA_OF[itemType]) },
      currentPageIndex: { type: 'integer', minimum: 1, description: 'the first page is 1' },
    },
    additionalProperties: false,
    description: `A page of a set of ${itemType} items; an empty set has numberOfPages 0, items [] and currentPageIndex 1.`,
  };
}

export const PAGE_SCHEMAS: Record<string, JsonSchema> = {
  ...Object.fromEntries(
    DATA_SET_ITEM_TYPES.map((itemType) => [pageSchemaName(itemType), pageSchema(itemType)]),
  ),
  DataSetPage: {
    oneOf: DATA_SET_ITEM_TYPES.map((itemType) => ref(pageSchemaName(itemType))),
    discriminator: {
      propertyName: 'itemType',
      mapping: Object.fromEntries(
        DATA_SET_ITEM_TYPES.map((itemType) => [
          itemType,
          `#/components/schemas/${pageSchemaName(itemType)}`,
        ]),
      ),
    },
    description: 'A page of a set of any item type, told apart by `itemType`.',
  },
};

import { toNumber } from '../../db/sql/dialect';
import type { DataSetItemType } from '../../domain/data-sets/item-types';
import type { MembersTable } from '../../db/sql/data-set.sql';
import { RESULT_COLUMNS } from '../results/result-types.registry';
import {
  QUESTION_STATISTIC_FIELDS,
  QUIZ_STATISTIC_FIELDS,
} from '../statistics/item-statistics.registry';
import type { DataSetPage, ResultRow } from './data-set.types';

/**
 * The registry of data set kinds, one per item type: where its members are stored and how a
 * page reads them. How a page is shown is the views' table (data-set.views.ts), keyed by the
 * same item types, so that storing and paging never load the presentation modules.
 */
export interface DataSetKind {
  itemType: DataSetItemType;
  membersTable: MembersTable;
  /** The select list of a page, over the members table. */
  pageColumns: readonly string[];
  /** Members are ids (pages give itemIds) or rows (pages give resultRows). */
  members: 'ids' | 'rows';
  /** computeDataSet may combine two sets of this kind; otherwise its name in the refusal. */
  combinable: true | { refusedAs: string };
}

const ID_PAGE = ['item_id AS id'];

export const DATA_SET_KINDS: Readonly<Record<DataSetItemType, DataSetKind>> = {
  user: {
    itemType: 'user',
    membersTable: 'data_set_items',
    pageColumns: ID_PAGE,
    members: 'ids',
    combinable: true,
  },
  quiz: {
    itemType: 'quiz',
    membersTable: 'data_set_items',
    pageColumns: ID_PAGE,
    members: 'ids',
    combinable: true,
  },
  userGroup: {
    itemType: 'userGroup',
    membersTable: 'data_set_items',
    pageColumns: ID_PAGE,
    members: 'ids',
    combinable: true,
  },
  // Every result column is read: the views pick the set's result types (data_sets.parameters).
  computedResult: {
    itemType: 'computedResult',
    membersTable: 'computed_results',
    pageColumns: [
      'position',
      'user_id',
      'quiz_id',
      'session_id',
      'aggregation_function',
      ...RESULT_COLUMNS,
    ],
    members: 'rows',
    combinable: { refusedAs: 'sets of computed results' },
  },
  questionStatistic: {
    itemType: 'questionStatistic',
    membersTable: 'question_statistics',
    pageColumns: ['position', ...QUESTION_STATISTIC_FIELDS.map((field) => field.column)],
    members: 'rows',
    combinable: { refusedAs: 'sets of question statistics' },
  },
  quizStatistic: {
    itemType: 'quizStatistic',
    membersTable: 'quiz_statistics',
    pageColumns: ['position', ...QUIZ_STATISTIC_FIELDS.map((field) => field.column)],
    members: 'rows',
    combinable: { refusedAs: 'sets of quiz statistics' },
  },
};

/** The kind of an item type read from the database; an unknown one is stored like ids. */
export function kindOf(itemType: string): DataSetKind {
  return DATA_SET_KINDS[itemType as DataSetItemType] ?? DATA_SET_KINDS.user;
}

/** Every members table, each once, in registry order. */
export const MEMBERS_TABLES: readonly MembersTable[] = [
  ...new Set(Object.values(DATA_SET_KINDS).map((kind) => kind.membersTable)),
];

/** The members part of a page from the rows its page statement read. */
export function pageMembers(
  kind: DataSetKind,
  rows: ResultRow[],
): Pick<DataSetPage, 'itemIds' | 'resultRows'> {
  return kind.members === 'ids'
    ? { itemIds: rows.map((row) => toNumber(row.id)), resultRows: [] }
    : { itemIds: [], resultRows: rows };
}

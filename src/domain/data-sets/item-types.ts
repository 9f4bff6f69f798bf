/** What one data set holds (contract.md §4): items of a single type, named on both wires. */
export const DATA_SET_ITEM_TYPES = [
  'user',
  'quiz',
  'userGroup',
  'computedResult',
  'questionStatistic',
  'quizStatistic',
] as const;
export type DataSetItemType = (typeof DATA_SET_ITEM_TYPES)[number];

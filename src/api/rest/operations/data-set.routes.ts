import type { RestOperation } from '../rest-operation';

/** Operations that make and page data sets: getQuizSet, getUserSet, getUserGroupSet, getDataSetPage, computeDataSet. */
export const DATA_SET_OPERATIONS: readonly RestOperation[] = [];

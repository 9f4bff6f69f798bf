import type { RestOperation } from '../rest-operation';
import { DATA_SET_OPERATIONS } from './data-set.routes';
import { QUIZ_OPERATIONS } from './quiz.routes';
import { RESULT_OPERATIONS } from './results.routes';
import { USER_OPERATIONS } from './user.routes';

/** Every legacy operation the REST router serves. */
export const REST_OPERATIONS: readonly RestOperation[] = [
  ...QUIZ_OPERATIONS,
  ...USER_OPERATIONS,
  ...DATA_SET_OPERATIONS,
  ...RESULT_OPERATIONS,
];

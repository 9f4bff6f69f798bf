import type { RestOperation } from '../rest-operation';

/** Operations on single users and attributes: getUser, getUserAttribute, getQuizAttribute. */
export const USER_OPERATIONS: readonly RestOperation[] = [];

import type { RestOperation } from './rest-operation';

/** Every legacy operation the REST router serves. */
export const REST_OPERATIONS: readonly RestOperation[] = [];

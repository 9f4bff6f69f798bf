import type { RestOperation } from '../rest-operation';
import { addQuizOperation, getQuizOperation } from './quiz.routes';

/** Every legacy operation the REST router serves. */
export const REST_OPERATIONS: readonly RestOperation[] = [getQuizOperation, addQuizOperation];

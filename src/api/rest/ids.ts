import { parseId } from '../ids';
import type { QueryParams } from './rest-operation';
import { requiredString } from './params';

/** A required identifier parameter of the query string. */
export function requiredId(operation: string, params: QueryParams, name: string): number {
  return parseId(operation, name, requiredString(operation, params, name));
}

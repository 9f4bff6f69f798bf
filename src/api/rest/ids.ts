import { Errors } from '../../errors';
import type { QueryParams } from './rest-operation';
import { requiredString } from './params';

const MAX_ID = 2 ** 31 - 1;

/** An identifier parameter: digits only, within the database's range; anything else is a 400. */
export function requiredId(operation: string, params: QueryParams, name: string): number {
  const raw = requiredString(operation, params, name).trim();
  if (!/^\d{1,10}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_ID) {
    throw Errors.badParameter(operation, name, raw, 'must be a positive integer identifier');
  }
  return Number(raw);
}

import { Errors } from '../../errors';

const MAX_ID = 2 ** 31 - 1;

/** An identifier as both transports take it: digits only, within range; else BadParameterException. */
export function parseId(operation: string, name: string, raw: string): number {
  const value = raw.trim();
  // Blank is absent, on GraphQL as in a query string.
  if (value === '') throw Errors.missingParameter(operation, name);
  if (!/^\d{1,10}$/.test(value) || Number(value) < 1 || Number(value) > MAX_ID) {
    throw Errors.badParameter(operation, name, raw, 'must be a positive integer identifier');
  }
  return Number(value);
}

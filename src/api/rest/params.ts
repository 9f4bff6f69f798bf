import { Errors } from '../../errors';
import type { QueryParams } from './rest-operation';

/** One string value of a query parameter; a parameter given twice is a BadParameterException. */
export function optionalString(
  operation: string,
  params: QueryParams,
  name: string,
): string | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (Array.isArray(value)) {
    throw Errors.badParameter(operation, name, value.join(','), 'must be given once');
  }
  return String(value);
}

/** A required, non-empty string parameter. */
export function requiredString(operation: string, params: QueryParams, name: string): string {
  const value = optionalString(operation, params, name);
  if (value === undefined || value.trim() === '') throw Errors.missingParameter(operation, name);
  return value;
}

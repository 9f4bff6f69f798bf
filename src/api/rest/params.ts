import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../domain/validation/checks';
import { Errors } from '../../errors';
import { optionalString } from '../http/parameter-text';

/** Query-string parameters as Express parses them: a repeated name gives an array. */
export type QueryParams = Readonly<Record<string, unknown>>;

/** The names of the parameters a JSON body gave, kept beside them (a query string gives text). */
const BODY_FIELDS = Symbol('bodyFields');

/** The query's parameters with the body's fields added, remembering which came from the body. */
export function withBodyFields(query: QueryParams, fields: Record<string, unknown>): QueryParams {
  // No prototype: a body field named `__proto__` stays a plain (ignored) parameter.
  const merged: Record<string | symbol, unknown> = Object.assign(Object.create(null), query);
  Object.assign(merged, fields);
  merged[BODY_FIELDS] = new Set(Object.keys(fields));
  return merged as QueryParams;
}

function fromBody(params: QueryParams, name: string): boolean {
  const names = (params as Record<symbol, unknown>)[BODY_FIELDS];
  return names instanceof Set && names.has(name);
}

/** A required, non-empty string parameter. */
export function requiredString(operation: string, params: QueryParams, name: string): string {
  const value = optionalString(operation, params, name);
  if (value === undefined || value.trim() === '') throw Errors.missingParameter(operation, name);
  return value;
}

/**
 * A JSON parameter: in the query string it is URL-encoded JSON text, in a JSON body it is
 * already a value. Either way it is refused when nested deeper than any input can be.
 */
export function jsonParameter(operation: string, params: QueryParams, name: string): unknown {
  let value: unknown = params[name];
  // A JSON body field is a value already, an array included (the body parser bounds its depth).
  if (fromBody(params, name)) return value;
  if (typeof value === 'string' || Array.isArray(value)) {
    const text = optionalString(operation, params, name) ?? '';
    try {
      value = text.trim() === '' ? undefined : JSON.parse(text);
    } catch {
      throw Errors.badParameter(operation, name, text, 'is not valid JSON');
    }
    if (nestedDeeperThan(value, MAX_JSON_DEPTH)) {
      throw Errors.badParameter(
        operation,
        name,
        text,
        `the JSON is nested deeper than ${MAX_JSON_DEPTH} levels`,
      );
    }
  }
  return value;
}

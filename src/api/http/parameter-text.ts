import { Errors } from '../../errors';

/** Parameters by name: a query string (a repeated name gives an array), a JSON body, headers. */
export type NamedValues = Readonly<Record<string, unknown>>;

/**
 * One string value of a parameter, read alike from every carrier (credentials.reader.ts reads
 * the headers and connection params with it too); a parameter given twice is a
 * BadParameterException.
 */
export function optionalString(
  operation: string,
  params: NamedValues,
  name: string,
): string | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (Array.isArray(value)) {
    throw Errors.badParameter(operation, name, value.map(textOf).join(','), 'must be given once');
  }
  // A JSON body may hold an object where text is expected (even one String() cannot convert).
  if (value !== null && typeof value === 'object') {
    throw Errors.badParameter(operation, name, textOf(value), 'must be text, not an object');
  }
  return String(value);
}

/** Any parameter value as text, for an error message: objects as their JSON. */
function textOf(value: unknown): string {
  if (value !== null && typeof value === 'object') {
    try {
      return JSON.stringify(value);
    } catch {
      return '[object]';
    }
  }
  return String(value);
}

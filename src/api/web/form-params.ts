import type { Request } from 'express';
import { Errors } from '../../errors';

/** One value of a form field or query parameter; a name given twice is refused, not guessed at. */
export function singleValue(operation: string, name: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) {
    throw Errors.badParameter(operation, name, value.join(','), `${name} must be given once`);
  }
  return typeof value === 'string' ? value : undefined;
}

/** A field of the posted form (urlencoded), if the request had one. */
export function formField(req: Request, operation: string, name: string): string | undefined {
  const body: unknown = req.body;
  if (!body || typeof body !== 'object') return undefined;
  return singleValue(operation, name, (body as Record<string, unknown>)[name]);
}

/** A query parameter. */
export function queryParam(req: Request, operation: string, name: string): string | undefined {
  return singleValue(operation, name, (req.query as Record<string, unknown>)[name]);
}

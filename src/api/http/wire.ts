import type { Response } from 'express';
import { Errors, type ServiceApiError } from '../../errors';
import { holdsSecret, hideSecrets } from '../../observability/secret-shapes';

/**
 * The two JSON wires of a failure (contract.md §2, §11): REST's exception object, or, on the
 * GraphQL endpoint, a GraphQL `errors` list carrying the same fields in its extensions.
 */
export type Wire = 'rest' | 'graphql';

/** Which wire answers a path: the GraphQL endpoint's own, or REST's for every other path. */
export type WireOf = (path: string) => Wire;

export function wireOfPaths(graphqlPath: string): WireOf {
  return (path) => (path === graphqlPath || path === `${graphqlPath}/` ? 'graphql' : 'rest');
}

/** The operation a request names: the last path segment (`/getQuiz` → getQuiz). */
export function operationOf(path: string): string {
  const segment = path.split('?')[0].split('/').filter(Boolean).pop() ?? '';
  return /^[A-Za-z0-9._-]{1,64}$/.test(segment) && !holdsSecret(segment) ? segment : 'unknown';
}

/** Characters of the service's own paths; anything else in a path is not echoed. */
const PATH_CHARACTERS = /^[A-Za-z0-9/._~-]*/;
/** Punctuation shown where the echo stops, so a forgotten `?` is plain to see. */
const SHOWN_STOPS = '&;=?';
const MAX_SHOWN_PATH = 200;

function decoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * A request path as responses and log lines may repeat it (contract.md §2, §14.7): decoded, then
 * cut at the first character no route of the service uses, as a mature API echoes an unknown
 * path without its query string. `/getUserSet&apiKey=…&keywords=…` (a forgotten `?`) shows
 * `/getUserSet&…`: parameters, names and emails after the cut are never shown, and a secret
 * pasted in the path itself (`/qk_…`) is hidden.
 */
export function visiblePath(path: string): string {
  const full = decoded(path);
  let shown = (PATH_CHARACTERS.exec(full) as RegExpExecArray)[0].slice(0, MAX_SHOWN_PATH);
  if (shown.length < full.length) {
    const stop = full[shown.length];
    shown += `${SHOWN_STOPS.includes(stop) ? stop : ''}…`;
  }
  return hideSecrets(shown);
}

/**
 * UnsupportedRequestException for a path segment that names no operation: the segment itself
 * when it reads as a name, else what visiblePath shows of it, under operation `unknown`.
 */
export function unknownOperation(segment: string): ServiceApiError {
  if (segment === '') return Errors.unsupportedRequest('unknown');
  if (operationOf(segment) === segment) return Errors.unsupportedRequest(segment);
  const shown = visiblePath(segment);
  const hint = /^[^&;]*[&;]/.test(segment) ? '; query parameters follow a "?"' : '';
  return Errors.unsupportedRequest('unknown', `operation ${shown} does not exist${hint}`);
}

/** The operation a failure outside any resolver reports: `graphql` on the GraphQL wire. */
export function transportOperation(path: string, wire: Wire): string {
  return wire === 'graphql' ? 'graphql' : operationOf(path);
}

/** The body of a failure on a wire. */
export function errorBody(error: ServiceApiError, wire: Wire): object {
  return wire === 'graphql' ? error.toGraphQLBody() : error.toBody();
}

/** Headers and body of a failure, on the wire of its path. */
export function sendError(res: Response, error: ServiceApiError, wire: Wire): void {
  if (error.extras.allow) res.setHeader('Allow', error.extras.allow.join(', '));
  if (error.extras.retryAfterSeconds !== undefined) {
    res.setHeader('Retry-After', String(error.extras.retryAfterSeconds));
  }
  res.status(error.status).json(errorBody(error, wire));
}

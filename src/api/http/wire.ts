import type { Response } from 'express';
import type { ServiceApiError } from '../../errors';

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
  return /^[A-Za-z0-9._-]{1,64}$/.test(segment) ? segment : 'unknown';
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

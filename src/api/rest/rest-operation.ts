import type { Request } from 'express';
import type { RequestContext } from '../../context/request-context';

export type HttpMethod = 'GET' | 'POST';

/** Query-string parameters as Express parses them: a repeated name gives an array. */
export type QueryParams = Readonly<Record<string, unknown>>;

/**
 * One legacy operation of the REST compatibility router. The handler parses its parameters,
 * calls a service with the context and returns the legacy JSON; it knows nothing else.
 */
export interface RestOperation {
  name: string;
  methods: readonly HttpMethod[];
  handler: (ctx: RequestContext, params: QueryParams, req: Request) => Promise<unknown>;
}

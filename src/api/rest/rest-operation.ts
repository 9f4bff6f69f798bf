import type { Request } from 'express';
import type { RequestContext } from '../../context/request-context';
import {
  runOperation,
  type HttpMethod,
  type OperationDefinition,
  type ParameterDefinition,
} from '../operations/operation-definition';
import { jsonParameter, optionalString, type QueryParams } from './params';

export type { HttpMethod, QueryParams };

/**
 * One route of the REST compatibility router: the catalog's operations, and whatever a test
 * adds. The handler returns the legacy JSON; it knows nothing else.
 */
export interface RestOperation {
  name: string;
  methods: readonly HttpMethod[];
  handler: (ctx: RequestContext, params: QueryParams, req: Request) => Promise<unknown>;
}

/** A parameter as the query string (or the JSON body merged into it) carries it. */
function readParameter(
  operation: string,
  params: QueryParams,
  parameter: ParameterDefinition,
): unknown {
  return parameter.rest === 'json'
    ? jsonParameter(operation, params, parameter.name)
    : optionalString(operation, params, parameter.name);
}

/** The route of a catalog operation: run it on the query's parameters, serialise its view. */
export function restOperationOf(operation: OperationDefinition): RestOperation {
  const { rest } = operation;
  if (!rest) throw new Error(`${operation.name} has no REST route`);
  return {
    name: operation.name,
    methods: rest.methods,
    handler: async (ctx, params) =>
      rest.serialize(
        await runOperation(operation, ctx, (parameter) =>
          readParameter(ctx.operation, params, parameter),
        ),
      ),
  };
}

import type { Request } from 'express';
import type { RequestContext } from '../../context/request-context';
import {
  isDownload,
  runOperation,
  type HttpMethod,
  type OperationDefinition,
  type ParameterDefinition,
} from '../operations/operation-definition';
import { optionalString } from '../http/parameter-text';
import { jsonParameter, type QueryParams } from './params';
import { schemaSerializer } from '../operations/shapes/schema.serializer';

export type { HttpMethod, QueryParams };

/**
 * One route of the REST compatibility router: the catalog's operations, and whatever a test
 * adds. The handler returns the legacy JSON; it knows nothing else.
 */
export interface RestOperation {
  name: string;
  methods: readonly HttpMethod[];
  handler: (ctx: RequestContext, params: QueryParams, req: Request) => Promise<unknown>;
  /** The handler gives a RestDownload, streamed (rest-download.ts) instead of JSON. */
  download?: true;
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

/**
 * The route of a catalog operation: run it on the query's parameters, serialise its view (or
 * make the file it downloads).
 */
export function restOperationOf(operation: OperationDefinition): RestOperation {
  const { rest } = operation;
  if (!rest) throw new Error(`${operation.name} has no REST route`);
  const run = (ctx: RequestContext, params: QueryParams) =>
    runOperation(operation, ctx, (parameter) => readParameter(ctx.operation, params, parameter));
  if (isDownload(rest)) {
    return {
      name: operation.name,
      methods: rest.methods,
      handler: async (ctx, params) => rest.download(await run(ctx, params)),
      download: true,
    };
  }
  const serialize = rest.serialize?.bind(rest) ?? schemaSerializer(rest.response);
  return {
    name: operation.name,
    methods: rest.methods,
    handler: async (ctx, params) => serialize(await run(ctx, params)),
  };
}

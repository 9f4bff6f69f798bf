import type { Request } from 'express';
import type { AppDeps, RequestContext } from '../../../context/request-context';
import { toServiceApiError } from '../../../errors';
import { credentialsFrom, type CredentialCarrier } from '../../http/credentials.reader';
import { openRequest, requestOriginOf } from '../../http/request.gate';
import {
  runOperation,
  type OperationDefinition,
  type ParameterNameOf,
} from '../../operations/operation-definition';
import { graphQLErrorOf } from './graphql.errors';
import type { GraphQLRequestSummary } from './graphql.log';

/** What every resolver receives: the request context both transports share. */
export interface GraphQLContext {
  ctx: RequestContext;
  /**
   * A subscription's: when the access token its connection presented expires (milliseconds
   * since the epoch), the subscription ends; null without a token.
   */
  credentialsExpireAt?: number | null;
  /** Receives the request's summary for its log line (HTTP requests; see graphql.log.ts). */
  describe?: (summary: GraphQLRequestSummary) => void;
}

/** The same context for one field, reporting errors under that operation's name. */
export function forOperation(context: GraphQLContext, operation: string): RequestContext {
  return { ...context.ctx, operation };
}

/** A root field's arguments, by the names of its operation's parameters. */
export type GraphQLArguments<P extends OperationDefinition['parameters']> = Partial<
  Record<ParameterNameOf<P>, unknown>
>;

/** A root field runs its catalog operation, as the REST route does, on its arguments. */
export function resolveOperation<P extends OperationDefinition['parameters'], V>(
  operation: OperationDefinition<P, V>,
  context: GraphQLContext,
  args: GraphQLArguments<P>,
): Promise<V> {
  const values: Readonly<Record<string, unknown>> = args;
  return runOperation(operation, forOperation(context, operation.name), (parameter) =>
    Object.hasOwn(values, parameter.name) ? values[parameter.name] : undefined,
  );
}

/** The GraphQL conveniences of contract.md §3: `X-Api-Key` and `Authorization: Bearer`. */
function headerCredentials(req: Request): CredentialCarrier {
  return {
    apiKey: req.get('x-api-key'),
    accessToken: /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1],
  };
}

/**
 * Credentials from the headers, else from the query string as REST reads them (a repeated one
 * refused alike); a request that cannot be authenticated runs no resolver.
 */
export async function buildGraphQLContext(
  deps: AppDeps,
  req: Request,
  requestId: string,
): Promise<GraphQLContext> {
  try {
    const credentials = credentialsFrom('graphql', headerCredentials(req), req.query);
    // No resolver runs before the document is charged (graphql.limits): it confirms a cached key.
    const ctx = await openRequest(
      deps,
      { operation: 'graphql', credentials, origin: requestOriginOf(req) },
      requestId,
    );
    return { ctx };
  } catch (error) {
    // The HTTP status says why.
    throw graphQLErrorOf(toServiceApiError(error, 'graphql', requestId));
  }
}

/**
 * An input object as plain data (type-graphql builds class instances), so the service checks
 * what a JSON client would send on REST; the Dates the DateTimeISO scalar read stay Dates.
 */
export function plainInput(input: unknown): unknown {
  if (input instanceof Date) return input;
  if (Array.isArray(input)) return input.map(plainInput);
  if (input === null || typeof input !== 'object') return input;
  const fields = Object.entries(input).filter(([, value]) => value !== undefined);
  return Object.fromEntries(fields.map(([name, value]) => [name, plainInput(value)]));
}

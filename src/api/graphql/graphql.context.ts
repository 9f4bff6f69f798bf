import type { Request } from 'express';
import {
  createRequestContext,
  type AppDeps,
  type RequestContext,
} from '../../context/request-context';
import { toServiceApiError } from '../../errors';
import { authenticateRequest } from '../../services/auth/credentials.service';
import { graphQLErrorOf } from './graphql.errors';

/** What every resolver receives: the request context both transports share. */
export interface GraphQLContext {
  ctx: RequestContext;
}

/** The same context for one field, reporting errors under that operation's name. */
export function forOperation(context: GraphQLContext, operation: string): RequestContext {
  return { ...context.ctx, operation };
}

function firstQueryValue(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined;
}

/**
 * Credentials as the REST router reads them, plus the GraphQL conveniences of contract.md §3:
 * `X-Api-Key` and `Authorization: Bearer`.
 */
export async function buildGraphQLContext(
  deps: AppDeps,
  req: Request,
  requestId: string,
): Promise<GraphQLContext> {
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
  try {
    const requester = await authenticateRequest(deps, {
      operation: 'graphql',
      apiKey: req.get('x-api-key') ?? firstQueryValue(req.query.apiKey),
      accessToken: bearer ?? firstQueryValue(req.query.accessToken),
      origin: req.get('origin'),
      referer: req.get('referer'),
      clientIp: req.ip,
    });
    return { ctx: createRequestContext(deps, { requestId, operation: 'graphql', requester }) };
  } catch (error) {
    // A request that cannot be authenticated runs no resolver; the HTTP status says why.
    throw graphQLErrorOf(toServiceApiError(error, 'graphql', requestId));
  }
}

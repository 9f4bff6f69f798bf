import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLFormattedError, GraphQLResolveInfo } from 'graphql';
import type { MiddlewareFn } from 'type-graphql';
import { ServiceApiError, toServiceApiError } from '../../errors';
import type { GraphQLContext } from './graphql.context';

/** The root field a (possibly nested) resolver belongs to: the legacy operation name. */
export function rootField(info: GraphQLResolveInfo): string {
  let path = info.path;
  while (path.prev) path = path.prev;
  return String(path.key);
}

/**
 * Every resolver's failure becomes the domain error of its operation (database outages 503,
 * anything unknown 500 with the request id); the unexpected ones are logged with their cause.
 */
export const domainErrors: MiddlewareFn<GraphQLContext> = async ({ context, info }, next) => {
  try {
    return await next();
  } catch (error) {
    // A domain error already names its operation (a composite query runs several).
    if (error instanceof ServiceApiError) throw error;
    const operation = rootField(info);
    const domain = toServiceApiError(error, operation, context.ctx.requestId);
    if (domain.status >= 500)
      context.ctx.logger.error({ err: error, operation }, 'GraphQL resolver failed');
    throw domain;
  }
};

/** Domain errors read as in REST, through the one error table (contract.md §2). */
export function formatGraphQLError(
  formatted: GraphQLFormattedError,
  error: unknown,
): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  if (original instanceof ServiceApiError) {
    return {
      message: original.message,
      locations: formatted.locations,
      path: formatted.path,
      extensions: { ...original.toGraphQLExtensions() },
    };
  }
  const extensions = formatted.extensions as Record<string, unknown> | undefined;
  if (extensions?.http) {
    // Raised while building the context: keep the contract's fields, not the transport detail.
    const { http: _http, ...rest } = extensions;
    return { ...formatted, extensions: rest };
  }
  // Apollo's own request errors (syntax, validation, variable types) pass as they are.
  return formatted;
}

import type { MiddlewareFn } from 'type-graphql';
import { ServiceApiError, toServiceApiError } from '../../../errors';
import type { GraphQLContext } from './graphql.context';
import { rootFieldName } from './root-fields';

/**
 * Every resolver's failure becomes the domain error of its operation (database outages 503,
 * anything unknown 500 with the request id); the unexpected ones are logged with their cause.
 */
export const domainErrors: MiddlewareFn<GraphQLContext> = async ({ context, info }, next) => {
  try {
    return await next();
  } catch (error) {
    throw domainErrorOf(error, context, rootFieldName(info));
  }
};

/**
 * A resolver's failure as a domain error of `operation`; also for what the middleware does not
 * wrap (a subscription's subscribe function).
 */
export function domainErrorOf(
  error: unknown,
  context: GraphQLContext,
  operation: string,
): ServiceApiError {
  // A domain error already names its operation (a composite query runs several).
  if (error instanceof ServiceApiError) return error;
  const domain = toServiceApiError(error, operation, context.ctx.requestId);
  if (domain.status >= 500)
    context.ctx.logger.error({ err: error, operation }, 'GraphQL resolver failed');
  return domain;
}

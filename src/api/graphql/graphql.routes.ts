import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import {
  ApolloServerPluginLandingPageLocalDefault,
  ApolloServerPluginLandingPageProductionDefault,
} from '@apollo/server/plugin/landingPage/default';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { AppDeps } from '../../app/request-context';
import { buildGraphQLContext, type GraphQLContext } from './graphql.context';
import { formatGraphQLError } from './graphql.errors';
import { graphQLSchema } from './graphql.schema';

export interface GraphQLEndpoint {
  router: Router;
  stop: () => Promise<void>;
}

/**
 * `/graphql`: Apollo Server over the type-graphql schema. Apollo Sandbox is served on GET
 * outside production; credentials come as for REST, or as X-Api-Key / Authorization: Bearer.
 */
export async function graphQLEndpoint(deps: AppDeps): Promise<GraphQLEndpoint> {
  const production = deps.config.nodeEnv === 'production';
  const server = new ApolloServer<GraphQLContext>({
    schema: await graphQLSchema(),
    introspection: !production,
    includeStacktraceInErrorResponses: false,
    // The server module drains and stops everything on SIGTERM; Apollo must not re-raise it.
    stopOnTerminationSignals: false,
    formatError: formatGraphQLError,
    plugins: [
      // No answer may be cached (each is for its requester; the route says no-store). Apollo's
      // cache hints would otherwise wrap every field's resolver to compute a policy.
      ApolloServerPluginCacheControlDisabled(),
      production
        ? ApolloServerPluginLandingPageProductionDefault({ footer: false })
        : ApolloServerPluginLandingPageLocalDefault({ embed: true, footer: false }),
    ],
  });
  await server.start();
  const router = Router();
  router.use(
    '/graphql',
    express.json({ limit: deps.config.bodyLimitBytes }),
    (_req: Request, res: Response, next: NextFunction) => {
      res.setHeader('Cache-Control', 'no-store');
      next();
    },
    expressMiddleware(server, {
      context: ({ req, res }) => buildGraphQLContext(deps, req, String(res.locals.requestId)),
    }),
  );
  return { router, stop: () => server.stop() };
}

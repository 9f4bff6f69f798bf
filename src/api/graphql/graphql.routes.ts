import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import {
  ApolloServerPluginLandingPageLocalDefault,
  ApolloServerPluginLandingPageProductionDefault,
} from '@apollo/server/plugin/landingPage/default';
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { AppDeps } from '../../context/request-context';
import { Errors } from '../../errors';
import { presetApiKey, type FrontDoorOptions } from '../docs/docs.presets';
import { API_KEY_HEADER, EXAMPLE_DOCUMENT, EXAMPLE_VARIABLES } from '../docs/graphql-example';
import { buildGraphQLContext, type GraphQLContext } from './graphql.context';
import { formatGraphQLError, unavailableStatusPlugin } from './graphql.errors';
import { DOCUMENT_LIMITS, documentCostPlugin, documentLimitRules } from './graphql.limits';
import { requestSummaryPlugin } from './graphql.log';
import { graphQLSchema } from './graphql.schema';

export interface GraphQLEndpoint {
  router: Router;
  stop: () => Promise<void>;
}

/** Where the endpoint answers, under the configured base path. */
export function graphQLPath(basePath: string): string {
  return `${basePath}/graphql`;
}

const METHODS = ['GET', 'HEAD', 'POST'];

/**
 * `/graphql`: Apollo Server over the type-graphql schema. Apollo Sandbox (loaded from Apollo's
 * CDN) is served on GET outside production, opening on the example flow with the demo key;
 * credentials come as for REST, or as X-Api-Key / Authorization: Bearer.
 * Documents are bounded before they run (graphql.limits); the JSON body is parsed, within its
 * limits, by the app for every API route.
 */
export async function graphQLEndpoint(
  deps: AppDeps,
  frontDoor: FrontDoorOptions = {},
): Promise<GraphQLEndpoint> {
  const production = deps.config.nodeEnv === 'production';
  const apiKey = presetApiKey(deps.config, frontDoor);
  const server = new ApolloServer<GraphQLContext>({
    schema: await graphQLSchema(),
    introspection: !production,
    includeStacktraceInErrorResponses: false,
    // The server module drains and stops everything on SIGTERM; Apollo must not re-raise it.
    stopOnTerminationSignals: false,
    formatError: formatGraphQLError,
    parseOptions: { maxTokens: DOCUMENT_LIMITS.tokens },
    validationRules: documentLimitRules(),
    plugins: [
      // No answer may be cached (each is for its requester; the route says no-store). Apollo's
      // cache hints would otherwise wrap every field's resolver to compute a policy.
      ApolloServerPluginCacheControlDisabled(),
      documentCostPlugin(deps.config.graphqlMaxCost),
      unavailableStatusPlugin,
      requestSummaryPlugin,
      production
        ? ApolloServerPluginLandingPageProductionDefault({ footer: false })
        : ApolloServerPluginLandingPageLocalDefault({
            // Sandbox opens on the example flow, with the demo key when there is one.
            embed: true,
            footer: false,
            document: EXAMPLE_DOCUMENT,
            variables: EXAMPLE_VARIABLES,
            headers: apiKey ? { [API_KEY_HEADER]: apiKey } : {},
          }),
    ],
  });
  await server.start();
  const router = Router();
  router.use(
    '/graphql',
    (req: Request, res: Response, next: NextFunction) => {
      // Answered here rather than by Apollo, so the refusal has the contract's shape.
      if (!METHODS.includes(req.method)) {
        next(Errors.methodNotAllowed('graphql', req.method, ['GET', 'POST']));
        return;
      }
      res.setHeader('Cache-Control', 'no-store');
      next();
    },
    expressMiddleware(server, {
      context: async ({ req, res }) => ({
        ...(await buildGraphQLContext(deps, req, String(res.locals.requestId))),
        describe: (summary) => {
          res.locals.graphql = summary;
        },
      }),
    }),
  );
  return { router, stop: () => server.stop() };
}

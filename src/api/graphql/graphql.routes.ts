import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import {
  ApolloServerPluginLandingPageLocalDefault,
  ApolloServerPluginLandingPageProductionDefault,
} from '@apollo/server/plugin/landingPage/default';
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { AppDeps } from '../../context/request-context';
import { Errors, ServiceApiError } from '../../errors';
import { bodiless, refusedBody } from '../http/request-limits.middleware';
import { presetApiKey, type FrontDoorOptions } from '../web/front-door.presets';
import { API_KEY_HEADER, EXAMPLE_DOCUMENT, EXAMPLE_VARIABLES } from '../docs/graphql-example';
import { buildGraphQLContext, type GraphQLContext } from './execution/graphql.context';
import { compiledGateway } from './execution/compiled.executor';
import { formatGraphQLError, unavailableStatusPlugin } from './execution/graphql.errors';
import { DOCUMENT_LIMITS, documentCostPlugin, documentLimitRules } from './graphql.limits';
import { requestSummaryPlugin } from './execution/graphql.log';
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
 * Headers a cross-site form or a simple request cannot send, so a GET carrying one of them is no
 * forged request (Apollo's CSRF prevention): Apollo's own two, and the API key's header, which
 * every client of this service may send (urql sends queries as GET by default).
 */
const PREFLIGHT_HEADERS = ['x-apollo-operation-name', 'apollo-require-preflight', API_KEY_HEADER];
/** Content types a form or a simple request may carry (the CORS safelist). */
const SIMPLE_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];
/** What Apollo answers a GET with: the landing page when the client prefers HTML to these. */
const ANSWER_TYPES = [
  'application/json; charset=utf-8',
  'application/graphql-response+json; charset=utf-8',
  'multipart/mixed; deferSpec=20220824',
  'multipart/mixed; incrementalSpec=v0.2',
  'multipart/mixed',
  'text/html',
];

/** A POST's refusal, if it gets one: a body that is not JSON in UTF-8 (415), or no body at all. */
function refusedPost(res: Response): ServiceApiError | undefined {
  if (!bodiless(res)) return refusedBody(res, 'graphql');
  return new ServiceApiError(
    'missingParameter',
    'graphql',
    'a POST carries its GraphQL request as a JSON body, such as {"query": "{ __typename }"}, with Content-Type: application/json',
    { parameterName: 'query' },
  );
}

/**
 * A GET or HEAD request's refusal, if it gets one, in the contract's shape rather than Apollo's
 * (which names no parameter of the request): a Content-Type other than JSON (a GET has no body),
 * or none of the preflight headers. A browser's GET for the IDE is Apollo's to answer.
 */
function refusedGet(req: Request): ServiceApiError | undefined {
  if (req.method === 'GET' && req.accepts(ANSWER_TYPES) === 'text/html') return undefined;
  const contentType = req.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (contentType !== undefined && contentType !== 'application/json') {
    return Errors.unsupportedMediaType(
      'graphql',
      `a ${req.method} request has no body: send it without Content-Type, or POST a JSON body`,
    );
  }
  if (contentType === undefined || SIMPLE_TYPES.includes(contentType)) {
    if (!PREFLIGHT_HEADERS.some((header) => (req.get(header) ?? '') !== '')) {
      return new ServiceApiError(
        'missingParameter',
        'graphql',
        `a ${req.method} request must carry the API key in the ${API_KEY_HEADER} header (or an apollo-require-preflight header), which a page of another site cannot send; or POST the query as JSON`,
        { parameterName: API_KEY_HEADER },
      );
    }
  }
  return undefined;
}

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
    // Documents run compiled by graphql-jit (compiled.executor.ts).
    gateway: compiledGateway(await graphQLSchema()),
    introspection: !production,
    includeStacktraceInErrorResponses: false,
    // The server module drains and stops everything on SIGTERM; Apollo must not re-raise it.
    stopOnTerminationSignals: false,
    formatError: formatGraphQLError,
    // What refusedGet lets through, Apollo lets through too.
    csrfPrevention: { requestHeaders: PREFLIGHT_HEADERS },
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
      next(req.method === 'POST' ? refusedPost(res) : refusedGet(req));
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

import express, { type Express } from 'express';
import { healthRoutes } from '../api/health/health.routes';
import { admission } from '../api/http/admission.middleware';
import { errorMiddleware, notFoundHandler } from '../api/http/error.middleware';
import { bodyHeadLimits, jsonBody, urlLimits } from '../api/http/request-limits.middleware';
import { wireOfPaths } from '../api/http/wire';
import { requestLog } from '../api/http/request-log.middleware';
import type { RestOperation } from '../api/rest/rest-operation';
import { REST_OPERATIONS, restRouter } from '../api/rest/rest.router';
import { webRoutes } from '../api/web/web.routes';
import { faviconRoutes } from '../api/web/favicon.routes';
import { apiCors } from '../api/cors.middleware';
import { sdkRoutes } from '../api/web/sdk.routes';
import { landingPageRoutes } from '../api/web/landing-page.routes';
import { docsRoutes } from '../api/docs/docs.routes';
import type { FrontDoorOptions } from '../api/web/front-door.presets';
import { graphQLEndpoint, graphQLPath } from '../api/graphql/graphql.routes';
import { requestIdFrom, type AppDeps } from '../context/request-context';
// The kinds of sets, registered with the set engine (services/sets) before any request.
import '../services/set-kinds/set-kinds.registry';
import { QUEUED_REQUESTS_PER_CONNECTION } from '../db/data-source';
import { metricsRoutes } from '../api/metrics/metrics.routes';
import { requestMetrics, tagTransport } from '../api/metrics/request-metrics.middleware';

/**
 * API requests one instance serves at once, per database connection: half the pool's queue, so
 * the queries of admitted requests (a few at a time each) always find room in it.
 */
const REQUESTS_PER_CONNECTION = QUEUED_REQUESTS_PER_CONNECTION / 4;

export interface AppOptions extends FrontDoorOptions {
  /** The legacy operations to serve; the full list unless a test narrows or extends it. */
  operations?: readonly RestOperation[];
}

export interface BuiltApp {
  app: Express;
  /** Stops what the app started besides Express (the GraphQL server). */
  stop: () => Promise<void>;
}

/** Builds the Express application; listening and shutdown belong to the server module. */
export async function createApp(deps: AppDeps, options: AppOptions = {}): Promise<BuiltApp> {
  const { config, logger } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  // Parameters are flat name=value pairs; nested objects in a query string are not part of the contract.
  app.set('query parser', 'simple');

  app.use((req, res, next) => {
    const requestId = requestIdFrom(req.get('x-request-id'));
    res.locals.requestId = requestId;
    // The id of the request's log line.
    (req as { id?: string }).id = requestId;
    res.setHeader('X-Request-Id', requestId);
    next();
  });

  app.use(requestLog(logger));

  if (config.metrics.enabled) {
    // The route before the request histogram: a scrape is not counted, nor rate limited.
    app.use(metricsRoutes(deps));
    app.use(requestMetrics(deps.metrics, config.basePath, graphQLPath(config.basePath)));
  }

  const wireOf = wireOfPaths(graphQLPath(config.basePath));
  app.use(urlLimits(config, wireOf));
  const operations = options.operations ?? REST_OPERATIONS;
  const graphql = await graphQLEndpoint(deps, options);
  const base = config.basePath || '/';

  // Probes, pages, documentation: none of them serves an operation's path or /graphql.
  const pages = express.Router();
  pages.use(healthRoutes(deps));
  pages.use(faviconRoutes());
  pages.use(base, tagTransport('web', webRoutes(deps)));
  pages.use(base, tagTransport('web', sdkRoutes(deps)));
  pages.use(
    base,
    tagTransport('web', landingPageRoutes(config, options)),
    tagTransport('web', docsRoutes(config, options)),
  );
  // An operation's own path skips them: Express would try each of their routes, in their
  // routers, before every API request. Any other path tries them, then the API answers it.
  const apiPaths = new Set([
    graphQLPath(config.basePath),
    ...operations.map((operation) => `${config.basePath}/${operation.name}`),
  ]);
  app.use((req, res, next) => (apiPaths.has(req.path) ? next() : pages(req, res, next)));

  app.use(
    admission(config.database.poolSize * REQUESTS_PER_CONNECTION, wireOf),
    bodyHeadLimits(config, wireOf),
    jsonBody(config, wireOf),
  );
  app.use(base, apiCors);
  app.use(base, tagTransport('graphql', graphql.router));
  app.use(base, tagTransport('rest', restRouter(deps, operations)));
  app.use(notFoundHandler);
  app.use(errorMiddleware(logger, config.bodyLimitBytes, wireOf));
  return { app, stop: graphql.stop };
}

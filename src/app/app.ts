import type { ServerResponse } from 'node:http';
import express, { type Express } from 'express';
import { pinoHttp } from 'pino-http';
import { healthRoutes } from '../api/health/health.routes';
import { admission } from '../api/http/admission.middleware';
import { errorMiddleware, notFoundHandler } from '../api/http/error.middleware';
import { bodyHeadLimits, jsonBody, urlLimits } from '../api/http/request-limits.middleware';
import { wireOfPaths } from '../api/http/wire';
import { loggedRequest, loggedResponse } from '../api/http/request-log';
import type { RestOperation } from '../api/rest/rest-operation';
import { restRouter } from '../api/rest/rest.router';
import { webRoutes } from '../api/web/web.routes';
import { faviconRoutes } from '../api/web/favicon.routes';
import { apiCors } from '../api/cors.middleware';
import { sdkRoutes } from '../api/web/sdk.routes';
import { landingPageRoutes } from '../api/web/landing-page.routes';
import { docsRoutes } from '../api/docs/docs.routes';
import type { FrontDoorOptions } from '../api/web/front-door.presets';
import { graphQLEndpoint, graphQLPath } from '../api/graphql/graphql.routes';
import type { GraphQLRequestSummary } from '../api/graphql/execution/graphql.log';
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

/** The summary the GraphQL route left for the request's log line, if any. */
function graphQLSummaryOf(res: ServerResponse): GraphQLRequestSummary | undefined {
  return (res as ServerResponse & { locals?: { graphql?: GraphQLRequestSummary } }).locals?.graphql;
}

/** Whether the request was a Prometheus scrape or a health probe, logged at debug when answered. */
function isRoutine(res: ServerResponse): boolean {
  return (res as ServerResponse & { locals?: { routine?: boolean } }).locals?.routine === true;
}

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
    res.setHeader('X-Request-Id', requestId);
    next();
  });

  app.use(
    pinoHttp({
      logger,
      genReqId: (_req, res) => String(res.getHeader('X-Request-Id')),
      // A GraphQL answer with errors is a warning even when its status is 200.
      customLogLevel: (_req, res, error) =>
        error || res.statusCode >= 500
          ? 'error'
          : res.statusCode >= 400 || graphQLSummaryOf(res)?.errorTypes.length
            ? 'warn'
            : isRoutine(res)
              ? 'debug'
              : 'info',
      customProps: (_req, res) => {
        const graphql = graphQLSummaryOf(res);
        // pino-http skips a missing value; an empty object would cost a child logger a request.
        return (graphql ? { graphql } : undefined) as object;
      },
      wrapSerializers: false,
      // Parameters by name, values only of identifiers (contract.md §14.7; request-log.ts).
      serializers: {
        req: loggedRequest,
        res: loggedResponse,
        err: (error: Error) => ({ type: error.name, message: error.message }),
      },
    }),
  );

  if (config.metrics.enabled) {
    // The route before the request histogram: a scrape is not counted, nor rate limited.
    app.use(metricsRoutes(deps));
    app.use(requestMetrics(deps.metrics, config.basePath, graphQLPath(config.basePath)));
  }

  const wireOf = wireOfPaths(graphQLPath(config.basePath));
  app.use(urlLimits(config, wireOf));
  app.use(healthRoutes(deps));
  app.use(faviconRoutes());
  app.use(config.basePath || '/', tagTransport('web', webRoutes(deps)));
  app.use(config.basePath || '/', tagTransport('web', sdkRoutes(deps)));
  app.use(
    config.basePath || '/',
    tagTransport('web', landingPageRoutes(config, options)),
    tagTransport('web', docsRoutes(config, options)),
  );
  app.use(
    admission(config.database.poolSize * REQUESTS_PER_CONNECTION, wireOf),
    bodyHeadLimits(config, wireOf),
    jsonBody(config, wireOf),
  );
  const graphql = await graphQLEndpoint(deps, options);
  app.use(config.basePath || '/', apiCors);
  app.use(config.basePath || '/', tagTransport('graphql', graphql.router));
  app.use(config.basePath || '/', tagTransport('rest', restRouter(deps, options.operations)));
  app.use(notFoundHandler);
  app.use(errorMiddleware(logger, config.bodyLimitBytes, wireOf));
  return { app, stop: graphql.stop };
}

import type { Request, RequestHandler, Response } from 'express';
import type { Transport, ServiceMetrics } from '../../observability/metrics.registry';
import type { GraphQLRequestSummary } from '../graphql/execution/graphql.log';
import { OPERATIONS, REST_CATALOG } from '../operations/operation-catalog';

/** Whether the operation catalog names `name` (an own key, so `constructor` is no operation). */
function inCatalog(name: string): boolean {
  return Object.hasOwn(OPERATIONS, name);
}

/**
 * The operation label of a GraphQL request: its root field when it names one of the catalog,
 * `several` for several root fields, `other` for a field outside the catalog (`__schema`), and
 * `unknown` when no document ran (refused before, or not parsed).
 */
function graphQLOperation(summary: GraphQLRequestSummary | undefined): string {
  const fields = summary?.rootFields;
  if (!fields || fields.length === 0) return 'unknown';
  const first = fields[0] as string;
  if (fields.some((field) => field !== first)) return 'several';
  return inCatalog(first) ? first : 'other';
}

/** The path of the request as it came, without its query string. */
function pathOf(req: Request): string {
  const url = req.originalUrl;
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * Observes every request it sees in the duration histogram, once answered. The transport is the
 * one a router tagged (`tagTransport`), else told by the path: the GraphQL endpoint, a REST
 * operation of the catalog (refused before its router: 413, 503), or other. Mounted after
 * `/metrics`, which is not counted. Operation labels come from the catalog, never from the
 * request as sent, so a client cannot add series.
 */
export function requestMetrics(
  metrics: ServiceMetrics,
  basePath: string,
  graphqlPath: string,
): RequestHandler {
  const restOperations = new Set(REST_CATALOG.map((operation) => operation.name));
  const restOperationOf = (path: string): string | undefined => {
    const slash = path.lastIndexOf('/');
    const name = path.slice(slash + 1);
    return path.slice(0, slash) === basePath && restOperations.has(name) ? name : undefined;
  };

  /** The labels of an untagged request, told by its path (refused early, a probe, a 404). */
  const byPath = (res: Response): [Transport, string] => {
    const path = pathOf(res.req);
    if (path === graphqlPath || path === `${graphqlPath}/`) {
      return ['graphql', graphQLOperation(res.locals.graphql as GraphQLRequestSummary | undefined)];
    }
    const operation = restOperationOf(path);
    return operation ? ['rest', operation] : ['other', 'other'];
  };

  // One listener for every response ('this' is the response). A routed request is labelled from
  // what its router left (no parsing); only the others read their path.
  function answered(this: Response): void {
    const seconds = (performance.now() - (this.locals.metricsStart as number)) / 1000;
    const tagged = this.locals.transport as Transport | undefined;
    if (tagged === 'graphql') {
      const summary = this.locals.graphql as GraphQLRequestSummary | undefined;
      metrics.observeRequest('graphql', graphQLOperation(summary), this.statusCode, seconds);
    } else if (tagged === 'rest') {
      // The REST router's context names its operation once the credentials were read.
      const named = (this.locals.ctx as { operation?: string } | undefined)?.operation;
      const operation =
        named !== undefined && restOperations.has(named)
          ? named
          : (restOperationOf(pathOf(this.req)) ?? 'other');
      metrics.observeRequest('rest', operation, this.statusCode, seconds);
    } else if (tagged !== undefined) {
      metrics.observeRequest(tagged, 'other', this.statusCode, seconds);
    } else {
      const [transport, operation] = byPath(this);
      metrics.observeRequest(transport, operation, this.statusCode, seconds);
    }
  }

  return (_req, res, next) => {
    res.locals.metricsStart = performance.now();
    res.on('finish', answered);
    next();
  };
}

/**
 * Tags the requests `handler` (a router) answers with its transport; a request it passes on
 * (no route of its own) is untagged again.
 */
export function tagTransport(transport: Transport, handler: RequestHandler): RequestHandler {
  return (req, res, next) => {
    res.locals.transport = transport;
    void handler(req, res, (error?: unknown) => {
      if (error === undefined || error === 'route' || error === 'router') {
        res.locals.transport = undefined;
      }
      next(error as Error);
    });
  };
}

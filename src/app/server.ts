import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { graphQLPath } from '../api/graphql/graphql.routes';
import { attachSubscriptions } from '../api/graphql/graphql.subscriptions';
import { markShuttingDown } from '../api/health/health.routes';
import { clientErrorHandler } from '../api/http/client-error.handler';
import { wireOfPaths } from '../api/http/wire';
import type { AppDeps } from '../context/request-context';
import { createApp, type AppOptions } from './app';
import { startJobs } from './jobs';
import { maintenanceJobs } from './maintenance.jobs';
import { startWebhookDelivery } from './webhook-delivery.loop';

export interface RunningServer {
  server: http.Server;
  url: string;
  /**
   * Marks the app as shutting down (/readyz answers 503), stops accepting, ends the WebSocket
   * connections (1001) and the change feed, lets in-flight requests finish (up to the configured
   * timeout), closes the pool.
   */
  close: () => Promise<void>;
}

/** Starts listening; the returned close() is the graceful shutdown SIGTERM runs. */
export async function startServer(deps: AppDeps, options: AppOptions = {}): Promise<RunningServer> {
  const { config, logger, db } = deps;
  const { app, stop: stopApp } = await createApp(deps, options);
  const { periodic, final } = maintenanceJobs(deps);
  const jobs = startJobs(deps, periodic, final);
  const webhooks = startWebhookDelivery(deps);
  // Room for the configured URL limit, so an over-long query string gets the contract's 413
  // from the app; a head larger still is answered by the client-error handler.
  const maxHeaderSize = Math.max(16384, config.urlLimitBytes + 8192);
  const server = http.createServer({ maxHeaderSize }, app);
  server.on(
    'clientError',
    clientErrorHandler(maxHeaderSize, wireOfPaths(graphQLPath(config.basePath))),
  );
  server.keepAliveTimeout = 5000;
  // Subscriptions: the upgrades of the GraphQL path.
  const subscriptions = await attachSubscriptions(server, app, deps);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      // First of all, so that /readyz answers 503 on the connections still open while we drain.
      markShuttingDown(app);
      logger.info('shutting down: no new connections, finishing in-flight requests');
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      // Upgraded sockets are no HTTP connections: closed here, or the server never closes.
      const subscriptionsClosed = subscriptions.close();
      // Connections that finish their request while we wait are closed as soon as they go idle.
      server.closeIdleConnections();
      const reaper = setInterval(() => server.closeIdleConnections(), 50);
      const timer = setTimeout(() => {
        logger.warn('shutdown timeout reached: closing remaining connections');
        server.closeAllConnections();
      }, config.shutdownTimeoutMs);
      await stopped;
      clearTimeout(timer);
      clearInterval(reaper);
      await subscriptionsClosed;
      deps.sessionChanges.close();
      deps.credentialChanges?.close();
      // Sends in flight finish and are recorded; those not started stay due for any instance.
      await webhooks.stop();
      await jobs.stop();
      await stopApp();
      await db.close();
      logger.info('shutdown complete');
    })();
    return closing;
  };

  return { server, url, close };
}

import { createHash, timingSafeEqual } from 'node:crypto';
import { Router, type Request } from 'express';
import type { AppDeps } from '../../context/request-context';
import { Errors } from '../../errors';
import { startProcessMetrics } from '../../observability/metrics.process';

/** Where Prometheus scrapes, at the server root whatever the base path. */
export const METRICS_PATH = '/metrics';

/** Whether the request bears the configured token (compared as hashes, in constant time). */
function bearsToken(req: Request, tokenSha256: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '');
  if (!match) return false;
  const given = createHash('sha256')
    .update(match[1] as string)
    .digest();
  return timingSafeEqual(given, Buffer.from(tokenSha256, 'hex'));
}

/**
 * `GET /metrics`: this instance's metrics and the process's, in Prometheus's text format. With
 * METRICS_TOKEN set, only for `Authorization: Bearer <token>` (else 401, the contract's
 * exception). Mounted before the rate limits and the request histogram, so a scrape spends no
 * budget and is not counted; its log line is at debug (app.ts) unless refused.
 */
export function metricsRoutes({ config, metrics }: AppDeps): Router {
  startProcessMetrics();
  const router = Router();
  router.get(METRICS_PATH, async (req, res) => {
    res.locals.routine = true;
    const { tokenSha256 } = config.metrics;
    if (tokenSha256 !== undefined && !bearsToken(req, tokenSha256)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      throw Errors.unauthenticated('metrics', 'a valid bearer token is required');
    }
    const text = await metrics.text(true);
    res.setHeader('Content-Type', metrics.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).send(text);
  });
  return router;
}

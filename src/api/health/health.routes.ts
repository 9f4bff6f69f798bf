import { Router, type Application } from 'express';
import type { AppDeps } from '../../context/request-context';
import type { Database } from '../../db/database';

const PROBE_TIMEOUT_MS = 2000;

/**
 * Marks the app as shutting down: from then on `/readyz` answers 503, so that a load balancer
 * stops sending while in-flight requests finish. The graceful shutdown calls it first.
 */
export function markShuttingDown(app: Application): void {
  app.locals.shuttingDown = true;
}

function isShuttingDown(app: Application): boolean {
  return app.locals.shuttingDown === true;
}

/** Whether the database answers within two seconds. */
async function databaseAnswers(db: Database): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('database probe timed out')), PROBE_TIMEOUT_MS);
  });
  try {
    await Promise.race([db.ping(), timeout]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `GET /healthz`: 200 when the database answers within two seconds, else 503.
 * `GET /livez`: 200 whenever the process serves HTTP.
 * `GET /readyz`: 503 once the graceful shutdown has begun, else as `/healthz`.
 */
export function healthRoutes({ db }: AppDeps): Router {
  const router = Router();
  // Probes come every few seconds: an answered one is logged at debug, a failing one as usual.
  router.use(['/healthz', '/livez', '/readyz'], (_req, res, next) => {
    res.locals.routine = true;
    next();
  });
  router.get('/healthz', async (_req, res) => {
    if (await databaseAnswers(db)) {
      res.status(200).json({ status: 'ok', database: 'up' });
    } else {
      res.status(503).json({ status: 'unavailable', database: 'down' });
    }
  });
  router.get('/livez', (_req, res) => {
    res.status(200).json({ status: 'ok' });
  });
  router.get('/readyz', async (req, res) => {
    const up = !isShuttingDown(req.app) && (await databaseAnswers(db));
    // Asked again after the probe: the shutdown may have begun while it waited.
    if (isShuttingDown(req.app)) {
      res.status(503).json({ status: 'shutting down' });
    } else if (up) {
      res.status(200).json({ status: 'ready', database: 'up' });
    } else {
      res.status(503).json({ status: 'unavailable', database: 'down' });
    }
  });
  return router;
}

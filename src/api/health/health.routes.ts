import { Router } from 'express';
import type { AppDeps } from '../../context/request-context';

const PROBE_TIMEOUT_MS = 2000;

/** `GET /healthz`: 200 when the database answers within two seconds, else 503. */
export function healthRoutes({ db }: AppDeps): Router {
  const router = Router();
  router.get('/healthz', async (_req, res) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error('database probe timed out')), PROBE_TIMEOUT_MS);
    });
    try {
      await Promise.race([db.ping(), timeout]);
      res.status(200).json({ status: 'ok', database: 'up' });
    } catch {
      res.status(503).json({ status: 'unavailable', database: 'down' });
    } finally {
      clearTimeout(timer);
    }
  });
  return router;
}

import { Router, type Request, type Response } from 'express';
import { createRequestContext, type AppDeps } from '../../app/request-context';
import { Errors } from '../../errors';
import type { RestOperation } from './rest-operation';

/**
 * The legacy surface: `{base}/<operationName>`. An unknown name answers
 * UnsupportedRequestException 404, a known one with another method 405 with an Allow header.
 */
export function restRouter(deps: AppDeps, operations: readonly RestOperation[]): Router {
  const byName = new Map(operations.map((op) => [op.name, op]));
  const router = Router();

  router.all('/:operation', async (req: Request, res: Response) => {
    const name = String(req.params.operation);
    const op = byName.get(name);
    if (!op) throw Errors.unsupportedRequest(name);
    if (!(op.methods as readonly string[]).includes(req.method)) {
      const allow = req.method === 'HEAD' && op.methods.includes('GET') ? undefined : op.methods;
      if (allow) throw Errors.methodNotAllowed(name, req.method, allow);
    }
    const ctx = createRequestContext(deps, {
      requestId: res.locals.requestId as string,
      operation: name,
      // Resolved from apiKey/accessToken by the credentials layer.
      requester: res.locals.requester ?? { kind: 'anonymous', apiKeyId: 0 },
    });
    res.locals.ctx = ctx;
    const result = await op.handler(ctx, req.query as Record<string, unknown>, req);
    res.status(200).json(result);
  });

  return router;
}

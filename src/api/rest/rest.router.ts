import { Router, type Request, type Response } from 'express';
import type { RateLimitState } from '../../context/api-key-rate-limits';
import type { AppDeps } from '../../context/request-context';
import { Errors } from '../../errors';
import { credentialsFrom } from '../http/credentials.reader';
import { rateLimitHeaders } from '../http/rate-limit.headers';
import {
  admit,
  afterAdmission,
  chargeMore,
  openRequest,
  requestOriginOf,
} from '../http/request.gate';
import { refusedBody } from '../http/request-limits.middleware';
import { unknownOperation } from '../http/wire';
import { operationCost, REST_CATALOG } from '../operations/operation-catalog';
import { pointsForItems } from '../operations/operation-costs';
import type { RestDownload } from '../operations/shapes/download';
import { withBodyFields } from './params';
import { sendDownload } from './rest-download';
import { restOperationOf, type QueryParams, type RestOperation } from './rest-operation';

/** Every REST operation of the catalog, as routes. */
export const REST_OPERATIONS: readonly RestOperation[] = REST_CATALOG.map(restOperationOf);

/**
 * POST payloads may come as a JSON object body whose fields are parameters (contract.md §1);
 * a parameter given in both places is refused.
 */
function mergeBody(operation: string, query: QueryParams, body: unknown): QueryParams {
  if (body === undefined || body === null) return query;
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw Errors.badParameter(operation, 'body', body, 'must be a JSON object of parameters');
  }
  const fields: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(body)) {
    if (Object.hasOwn(query, name)) {
      throw Errors.badParameter(
        operation,
        name,
        value,
        'is given both in the query string and in the body',
      );
    }
    fields[name] = value;
  }
  return withBodyFields(query, fields);
}

/**
 * The legacy surface: `{base}/<operationName>`. An unknown name answers
 * UnsupportedRequestException 404, a known one with another method 405 with an Allow header;
 * then the API key (and access token, if any) decide who the requester is, and the request is
 * charged to the key's rate-limit budget: before any work when the operation writes records,
 * beside it otherwise (nothing it writes commits before the charge let it through).
 */
export function restRouter(
  deps: AppDeps,
  operations: readonly RestOperation[] = REST_OPERATIONS,
): Router {
  const byName = new Map(operations.map((op) => [op.name, op]));
  const router = Router();

  router.all('/:operation', async (req: Request, res: Response) => {
    const name = String(req.params.operation);
    const op = byName.get(name);
    if (!op) throw unknownOperation(name);
    if (!(op.methods as readonly string[]).includes(req.method)) {
      const allow = req.method === 'HEAD' && op.methods.includes('GET') ? undefined : op.methods;
      if (allow) throw Errors.methodNotAllowed(name, req.method, allow);
    }
    // A body that is not JSON in UTF-8 is refused, never read as no parameters (415).
    const unreadable = refusedBody(res, name);
    if (unreadable) throw unreadable;
    const params = mergeBody(name, req.query as QueryParams, req.body);
    const ctx = await openRequest(
      deps,
      { operation: name, credentials: credentialsFrom(name, params), origin: requestOriginOf(req) },
      res.locals.requestId as string,
    );
    res.locals.ctx = ctx;
    const cost = operationCost(name);
    const report = (state: RateLimitState) => {
      for (const [header, value] of rateLimitHeaders(state)) res.setHeader(header, value);
    };
    const admission = await admit(ctx, () => cost, { report, beside: true });
    // Runs beside its charge (unless it writes records); a refusal is the answer.
    const value = await afterAdmission(admission, op.handler(ctx, params, req));
    if (op.download) {
      const download = value as RestDownload;
      // Charged by size before the first byte, now that the size is known (operation-costs).
      const bySize = pointsForItems(cost, download.items);
      if (bySize > 0) await chargeMore(ctx, bySize, report);
      await sendDownload(ctx, req, res, download);
      return;
    }
    res.status(200).json(value);
  });

  return router;
}

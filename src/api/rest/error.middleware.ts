import type { ErrorRequestHandler, RequestHandler } from 'express';
import { Errors, toServiceApiError, type ServiceApiError } from '../../errors';
import type { Logger } from '../../observability/logger';

/** The operation a request names: the last path segment (`/getQuiz` → getQuiz). */
export function operationOf(path: string): string {
  const segment = path.split('?')[0].split('/').filter(Boolean).pop() ?? '';
  return /^[A-Za-z0-9._-]{1,64}$/.test(segment) ? segment : 'unknown';
}

/** Errors raised by Express's own body parsers, which carry `type` and `status`. */
function fromBodyParser(
  error: unknown,
  operation: string,
  limit: number,
): ServiceApiError | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const { type } = error as { type?: unknown };
  if (type === 'entity.too.large') return Errors.payloadTooLarge(operation, limit, 'body');
  if (type === 'entity.parse.failed') {
    return Errors.badParameter(operation, 'body', '', 'the request body is not valid JSON');
  }
  if (type === 'charset.unsupported' || type === 'encoding.unsupported') {
    return Errors.badParameter(operation, 'body', '', 'the request body encoding is not supported');
  }
  return undefined;
}

export function sendError(res: Parameters<ErrorRequestHandler>[2], error: ServiceApiError): void {
  if (error.extras.allow) res.setHeader('Allow', error.extras.allow.join(', '));
  if (error.extras.retryAfterSeconds !== undefined) {
    res.setHeader('Retry-After', String(error.extras.retryAfterSeconds));
  }
  res.status(error.status).json(error.toBody());
}

/** Turns anything thrown into the contract's exception object; unknown errors leak nothing. */
export function errorMiddleware(logger: Logger, bodyLimitBytes: number): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const operation = (res.locals.ctx?.operation as string | undefined) ?? operationOf(req.path);
    const requestId = String(res.locals.requestId);
    const domain =
      fromBodyParser(error, operation, bodyLimitBytes) ??
      toServiceApiError(error, operation, requestId);
    if (domain.status >= 500) {
      logger.error({ err: error, requestId, operation, status: domain.status }, 'request failed');
    }
    sendError(res, domain);
  };
}

/** Anything no route answered. */
export const notFoundHandler: RequestHandler = (req) => {
  throw Errors.unsupportedRequest(operationOf(req.path));
};

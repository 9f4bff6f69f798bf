import type { ErrorRequestHandler, RequestHandler } from 'express';
import { Errors, ServiceApiError, toServiceApiError } from '../../errors';
import type { Logger } from '../../observability/logger';
import { ACCEPTED_ENCODINGS } from './request-limits.middleware';
import { sendError, transportOperation, unknownOperation, type WireOf } from './wire';

/** Errors raised by Express's own body parsers, which carry `type` and `status`. */
function fromBodyParser(
  error: unknown,
  operation: string,
  limit: number,
): ServiceApiError | undefined {
  if (!error || typeof error !== 'object' || error instanceof ServiceApiError) return undefined;
  const { type, status, charset } = error as {
    type?: unknown;
    status?: unknown;
    charset?: unknown;
  };
  if (type === 'entity.too.large') return Errors.payloadTooLarge(operation, limit, 'body');
  if (type === 'entity.parse.failed') {
    return Errors.badParameter(operation, 'body', '', 'the request body is not valid JSON');
  }
  if (type === 'charset.unsupported') {
    return Errors.unsupportedMediaType(
      operation,
      `the charset ${String(charset)} is not supported; send UTF-8`,
    );
  }
  if (type === 'encoding.unsupported') {
    return Errors.unsupportedMediaType(
      operation,
      `this Content-Encoding is not supported; use one of ${ACCEPTED_ENCODINGS.join(', ')}`,
    );
  }
  // The rest of what a parser refuses (a body that does not inflate, a stream cut short) is the
  // client's: its status says so.
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return Errors.badParameter(
      operation,
      'body',
      '',
      'the request body cannot be read: its bytes do not match its Content-Encoding',
    );
  }
  return undefined;
}

/** Turns anything thrown into the contract's exception object; unknown errors leak nothing. */
export function errorMiddleware(
  logger: Logger,
  bodyLimitBytes: number,
  wireOf: WireOf,
): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const wire = wireOf(req.path);
    const operation =
      (res.locals.ctx?.operation as string | undefined) ?? transportOperation(req.path, wire);
    const requestId = String(res.locals.requestId);
    const domain =
      fromBodyParser(error, operation, bodyLimitBytes) ??
      toServiceApiError(error, operation, requestId);
    if (domain.status >= 500) {
      logger.error({ err: error, requestId, operation, status: domain.status }, 'request failed');
    }
    sendError(res, domain, wire);
  };
}

/** Anything no route answered, named by its last path segment as far as it may be echoed. */
export const notFoundHandler: RequestHandler = (req) => {
  throw unknownOperation(req.path.split('/').filter(Boolean).pop() ?? '');
};

import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../../observability/logger';
import { loggedRequest } from './request-log';

/**
 * One line per request once its answer is sent or abandoned, in the shape pino-http wrote
 * (`req`, `graphql`, `res`, `responseTime`, `msg`). Written here rather than by pino-http, which
 * made two child loggers per request and serialised the request as it arrived: the same line,
 * written once from the finished request, costs a request less.
 */

type LogLevel = 'error' | 'warn' | 'info' | 'debug';

interface Locals {
  /** The summary the GraphQL route leaves for the line (graphql.log.ts), logged whole. */
  graphql?: { readonly errorTypes: readonly string[] };
  routine?: boolean;
}

/** A failure is an error; a refusal, or a GraphQL answer with errors, a warning even at 200. */
function levelOf(res: Response, locals: Locals, error: Error | undefined): LogLevel {
  if (error || res.statusCode >= 500) return 'error';
  if (res.statusCode >= 400 || locals.graphql?.errorTypes.length) return 'warn';
  // A Prometheus scrape or a health probe is routine.
  return locals.routine === true ? 'debug' : 'info';
}

export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const start = Date.now();
    // Read now: once the client has left, its socket no longer tells.
    const remoteAddress = req.socket.remoteAddress;
    let written = false;
    const write = (error?: Error): void => {
      if (written) return;
      written = true;
      const locals = res.locals as Locals;
      const level = levelOf(res, locals, error);
      if (!logger.isLevelEnabled(level)) return;
      const record: Record<string, unknown> = { req: loggedRequest(req, remoteAddress) };
      if (locals.graphql) record.graphql = locals.graphql;
      record.res = { statusCode: res.statusCode };
      if (error || res.statusCode >= 500) {
        const failure = error ?? new Error(`failed with status code ${res.statusCode}`);
        record.err = { type: failure.name, message: failure.message };
        record.responseTime = Date.now() - start;
        logger[level](record, 'request errored');
        return;
      }
      record.responseTime = Date.now() - start;
      const done = !req.readableAborted && res.writableEnded;
      logger[level](record, done ? 'request completed' : 'request aborted');
    };
    // 'close' follows 'finish', and also comes alone when the client leaves first.
    res.once('close', () => write());
    res.once('error', write);
    next();
  };
}

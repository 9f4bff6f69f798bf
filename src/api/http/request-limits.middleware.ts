import express, { type Request, type RequestHandler, type Response } from 'express';
import type { Config } from '../../config/config';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../domain/validation/checks';
import { Errors, type ServiceApiError } from '../../errors';
import { transportOperation, type WireOf } from './wire';

/** Content encodings of a request body the service decodes; the body limit bounds the decoded bytes. */
export const ACCEPTED_ENCODINGS = ['identity', 'gzip', 'deflate', 'br'] as const;

/** Most name=value pairs a query string may hold: every operation takes fewer than 15. */
export const MAX_QUERY_PARAMETERS = 100;

function queryParameterCount(url: string): number {
  const start = url.indexOf('?');
  if (start < 0) return 0;
  let count = 0;
  for (const pair of url.slice(start + 1).split('&')) if (pair !== '') count += 1;
  return count;
}

/** Every request, pages included, is held to the URL's length and parameter count. */
export function urlLimits(config: Config, wireOf: WireOf): RequestHandler {
  return (req, _res, next) => {
    const url = req.originalUrl;
    if (Buffer.byteLength(url) > config.urlLimitBytes) {
      const operation = transportOperation(req.path, wireOf(req.path));
      next(Errors.payloadTooLarge(operation, config.urlLimitBytes, 'query string'));
      return;
    }
    if (queryParameterCount(url) > MAX_QUERY_PARAMETERS) {
      const operation = transportOperation(req.path, wireOf(req.path));
      next(Errors.payloadTooLarge(operation, MAX_QUERY_PARAMETERS, 'query parameters'));
      return;
    }
    next();
  };
}

/**
 * API requests are refused before a byte of their body is read when they announce a body over
 * the limit or an encoding the service does not decode; the connection then closes rather than
 * drain the body. (The HTML pages read their small forms with their own limits and answers.)
 */
export function bodyHeadLimits(config: Config, wireOf: WireOf): RequestHandler {
  const accepted: readonly string[] = ACCEPTED_ENCODINGS;
  return (req, res, next) => {
    const announced = Number(req.headers['content-length'] ?? 0);
    const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    if (announced <= config.bodyLimitBytes && accepted.includes(encoding)) {
      next();
      return;
    }
    const operation = transportOperation(req.path, wireOf(req.path));
    res.setHeader('Connection', 'close');
    next(
      announced > config.bodyLimitBytes
        ? Errors.payloadTooLarge(operation, config.bodyLimitBytes, 'body')
        : Errors.unsupportedMediaType(
            operation,
            `the Content-Encoding ${JSON.stringify(encoding.slice(0, 40))} is not supported; use one of ${ACCEPTED_ENCODINGS.join(', ')}`,
          ),
    );
  };
}

/** JSON media types: application/json and the `+json` structured syntax suffix (RFC 6839). */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json$/;
/** JSON is UTF-8 (RFC 8259 §8.1); `utf8` is the spelling many clients use for it. */
const UTF_8 = ['utf-8', 'utf8'];

/** Why a POST body is not JSON in UTF-8, if it is not; undefined when it is. */
function notJsonReason(contentType: string | undefined): string | undefined {
  if (contentType === undefined) {
    return 'the request body has no Content-Type; send JSON with Content-Type: application/json';
  }
  const [essence = '', ...parameters] = contentType.split(';');
  const type = essence.trim().toLowerCase();
  const shown = JSON.stringify(type.slice(0, 60));
  if (!JSON_TYPE.test(type)) {
    return `the request body is ${shown}, which is not read; send JSON with Content-Type: application/json`;
  }
  for (const parameter of parameters) {
    const [name = '', value = ''] = parameter.split('=');
    if (name.trim().toLowerCase() !== 'charset') continue;
    const charset = value.trim().replace(/^"|"$/g, '').toLowerCase();
    if (!UTF_8.includes(charset)) {
      return `the charset ${JSON.stringify(charset.slice(0, 40))} is not supported; send JSON in UTF-8`;
    }
  }
  return undefined;
}

/** Whether the request carries body bytes, or may (a chunked body is read to know). */
function announcesBody(req: Request): 'none' | 'some' | 'chunked' {
  if (req.headers['transfer-encoding'] !== undefined) return 'chunked';
  return Number(req.headers['content-length'] ?? 0) > 0 ? 'some' : 'none';
}

/** Why the request's body was left unread, for its route to refuse it (refusedBody). */
const REFUSED_BODY = 'refusedBody';
/** Set on a POST that carries no body byte (bodiless). */
const NO_BODY = 'noBody';

/** Whether the request is a POST without a body byte (its parameters in the query string). */
export function bodiless(res: Response): boolean {
  return res.locals[NO_BODY] === true;
}

/**
 * 415 UnsupportedRequestException when the request's POST body is not JSON in UTF-8 (contract.md
 * §15): called by the API routes once they know the operation and its method, so an unknown
 * operation or a wrong method are still answered 404 and 405 first.
 */
export function refusedBody(res: Response, operation: string): ServiceApiError | undefined {
  const reason = res.locals[REFUSED_BODY] as string | undefined;
  return reason === undefined ? undefined : Errors.unsupportedMediaType(operation, reason);
}

/**
 * A POST body that is not JSON in UTF-8 is never read as empty: it is not parsed, and the route
 * refuses it (refusedBody). A POST without a body (everything in the query string, as the legacy
 * clients send it, whatever Content-Type they name) goes on; a chunked one is read to know
 * whether it holds any byte.
 */
function mediaType(config: Config): RequestHandler {
  const drain = express.raw({ type: () => true, limit: config.bodyLimitBytes, inflate: true });
  return (req, res, next) => {
    if (req.method !== 'POST') {
      next();
      return;
    }
    const body = announcesBody(req);
    if (body === 'none') res.locals[NO_BODY] = true;
    const reason = body === 'none' ? undefined : notJsonReason(req.headers['content-type']);
    if (reason === undefined) {
      next();
      return;
    }
    if (body === 'some') {
      res.locals[REFUSED_BODY] = reason;
      next();
      return;
    }
    drain(req, res, (error?: unknown) => {
      if (error) {
        next(error);
        return;
      }
      if (Buffer.isBuffer(req.body) && req.body.length > 0) res.locals[REFUSED_BODY] = reason;
      else res.locals[NO_BODY] = true;
      req.body = undefined;
      next();
    });
  };
}

/**
 * JSON bodies of the API (REST POST payloads and GraphQL requests): decoded and parsed within the
 * body limit, then refused when nested deeper than any operation's input can be. A POST body of
 * another type or charset is left for its route to refuse (refusedBody).
 */
export function jsonBody(config: Config, wireOf: WireOf): RequestHandler[] {
  const parse = express.json({
    limit: config.bodyLimitBytes,
    type: ['application/json', 'application/*+json'],
    inflate: true,
  });
  return [
    mediaType(config),
    (req, res, next) => {
      if (res.locals[REFUSED_BODY] !== undefined) next();
      else parse(req, res, next);
    },
    (req, _res, next) => {
      if (nestedDeeperThan(req.body, MAX_JSON_DEPTH)) {
        const operation = transportOperation(req.path, wireOf(req.path));
        next(
          Errors.badParameter(
            operation,
            'body',
            '',
            `the JSON is nested deeper than ${MAX_JSON_DEPTH} levels`,
          ),
        );
        return;
      }
      next();
    },
  ];
}

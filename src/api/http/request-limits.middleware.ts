import express, { type RequestHandler } from 'express';
import type { Config } from '../../config/config';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../domain/validation/checks';
import { Errors } from '../../errors';
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

/**
 * JSON bodies of the API (REST POST payloads and GraphQL requests): decoded and parsed within the
 * body limit, then refused when nested deeper than any operation's input can be.
 */
export function jsonBody(config: Config, wireOf: WireOf): RequestHandler[] {
  return [
    express.json({
      limit: config.bodyLimitBytes,
      type: ['application/json', 'application/*+json'],
      inflate: true,
    }),
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

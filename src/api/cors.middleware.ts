import type { RequestHandler } from 'express';
import { RATE_LIMIT_HEADER_NAMES } from './http/rate-limit.headers';

const EXPOSED_HEADERS = [
  'X-Request-Id',
  'Retry-After',
  'Allow',
  // The file name of an export (exportDataSet), which the client reads.
  'Content-Disposition',
  ...RATE_LIMIT_HEADER_NAMES,
].join(', ');
const ALLOWED_HEADERS =
  'Content-Type, X-Api-Key, Authorization, X-Request-Id, Apollo-Require-Preflight';

/**
 * Browser clients on other sites call the API directly (their API key is bound to their host,
 * which the key check reads from Origin). Credentials travel as parameters or headers, never as
 * cookies, so any origin may read the answers; preflights are answered here.
 */
export const apiCors: RequestHandler = (req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  if (req.method === 'OPTIONS' && req.get('access-control-request-method')) {
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST');
    res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
    return;
  }
  next();
};

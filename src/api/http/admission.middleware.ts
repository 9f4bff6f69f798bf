import type { RequestHandler } from 'express';
import { Errors } from '../../errors';
import { transportOperation, type WireOf } from './wire';

/**
 * At most `limit` API requests at once in this instance; past it a request is answered 503 (too
 * busy, with Retry-After) at once, before its body is read. Each admitted request then finds
 * room in the database pool's bounded queue for every query it makes, so an overload turns new
 * requests away instead of failing admitted ones half done.
 */
export function admission(limit: number, wireOf: WireOf): RequestHandler {
  let inFlight = 0;
  return (req, res, next) => {
    if (inFlight >= limit) {
      next(Errors.serviceUnavailable(transportOperation(req.path, wireOf(req.path)), true));
      return;
    }
    inFlight += 1;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      inFlight -= 1;
    };
    res.once('finish', release);
    res.once('close', release);
    next();
  };
}

import type { RateLimitState } from '../../context/api-key-rate-limits';

/**
 * The budget left to the client, as the IETF RateLimit header fields draft names them: the
 * window's points, the points left, and the seconds until the budget is whole again.
 */
export function rateLimitHeaders(state: RateLimitState): [string, string][] {
  return [
    ['RateLimit-Limit', String(state.limit)],
    ['RateLimit-Remaining', String(state.remaining)],
    ['RateLimit-Reset', String(state.resetSeconds)],
  ];
}

/** Header names a browser client may read on a cross-origin answer. */
export const RATE_LIMIT_HEADER_NAMES = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
];

import type { RequestContext } from '../../context/request-context';
import { Errors } from '../../errors';
import type { RateLimitState } from '../../context/api-key-rate-limits';
import { isKeyInForce } from '../../db/sql/credentials.sql';

/**
 * Charges a request's points to the API key it came with; the operator (command line) is not
 * limited. Refused past the budget with TooManyRequestsException; the state is handed to
 * `report` first either way, so the transport can tell the client its budget. A key taken from
 * the credentials cache is confirmed in force by the same exchange, else refused (401) and
 * forgotten: no request of a revoked key is served.
 */
export async function chargeRequest(
  ctx: RequestContext,
  points: number,
  report: (state: RateLimitState) => void,
): Promise<void> {
  const { requester } = ctx;
  if (requester.kind === 'operator') return;
  // Every request costs at least a point, whatever it names.
  const state = await ctx.rateLimits.consume(requester.apiKeyId, Math.max(1, points), {
    confirmKey: ctx.keyFromCache,
  });
  if (ctx.keyFromCache) {
    // Unknown when the store did not read it (a key already over its budget is refused in memory).
    const inForce = state.keyInForce ?? (await isKeyInForce(ctx.db.writeRows, requester.apiKeyId));
    if (!inForce) {
      ctx.credentialsCache?.forgetKey(requester.apiKeyId);
      throw Errors.unauthenticated(ctx.operation, 'the API key is unknown or revoked');
    }
  }
  report(state);
  if (state.exceeded) {
    throw Errors.tooManyRequests(
      ctx.operation,
      state.resetSeconds,
      `the API key has used its ${state.limit} points of the last ${ctx.config.rateLimit.windowSeconds} seconds`,
    );
  }
}

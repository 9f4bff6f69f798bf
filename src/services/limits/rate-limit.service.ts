import type { RequestContext } from '../../context/request-context';
import { Errors } from '../../errors';
import type { RateLimitState } from '../../context/api-key-rate-limits';

/**
 * Charges a request's points to the API key it came with, from the slice of its budget this
 * instance holds (api-key-rate-limits.ts); the operator (command line) is not limited. Refused
 * past the budget with TooManyRequestsException; the state is handed to `report` first either
 * way, so the transport can tell the client its budget.
 */
export async function chargeRequest(
  ctx: RequestContext,
  points: number,
  report: (state: RateLimitState) => void,
): Promise<void> {
  const { requester } = ctx;
  if (requester.kind === 'operator') return;
  // Every request costs at least a point, whatever it names.
  const state = await ctx.rateLimits.consume(requester.apiKeyId, Math.max(1, points));
  report(state);
  if (state.exceeded) {
    ctx.metrics.countRateLimitRefusal('api_key');
    throw Errors.tooManyRequests(
      ctx.operation,
      state.resetSeconds,
      `the API key has used its ${state.limit} points of the last ${ctx.config.rateLimit.windowSeconds} seconds`,
    );
  }
}

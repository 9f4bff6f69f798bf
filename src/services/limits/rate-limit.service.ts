import type { RequestContext } from '../../context/request-context';
import { Errors } from '../../errors';
import type { RateLimitState } from '../../context/api-key-rate-limits';
import { readCredentialsInForce } from '../../db/sql/credentials.sql';

/**
 * Charges a request's points to the API key it came with; the operator (command line) is not
 * limited. Refused past the budget with TooManyRequestsException; the state is handed to
 * `report` first either way, so the transport can tell the client its budget. A key taken from
 * the credentials cache is confirmed in force by the same exchange (the key not revoked, the
 * token there and unexpired), else refused (401) and forgotten: no request of a revoked key or
 * withdrawn token is served.
 */
export async function chargeRequest(
  ctx: RequestContext,
  points: number,
  report: (state: RateLimitState) => void,
): Promise<void> {
  const { requester } = ctx;
  if (requester.kind === 'operator') return;
  // Every request costs at least a point, whatever it names.
  const confirm = ctx.cachedCredentials;
  const state = await ctx.rateLimits.consume(requester.apiKeyId, Math.max(1, points), confirm);
  if (confirm) {
    // Unknown when the store did not read it (a key already over its budget is refused in memory).
    const found = state.credentials ?? (await readCredentialsInForce(ctx.db.writeRows, confirm));
    const refusal = !found.keyInForce
      ? 'the API key is unknown or revoked'
      : confirm.tokenHash === null
        ? undefined
        : found.tokenExpiresAt === null
          ? 'the access token is invalid'
          : !(found.tokenExpiresAt > Date.now())
            ? 'the access token has expired'
            : undefined;
    if (refusal) {
      ctx.credentialsCache?.forgetKey(requester.apiKeyId);
      throw Errors.unauthenticated(ctx.operation, refusal);
    }
  }
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

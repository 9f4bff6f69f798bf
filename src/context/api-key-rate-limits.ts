import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { CredentialsCheck } from '../db/rate-limit.store';
import type { CredentialsInForce, CredentialsToConfirm } from '../db/sql/credentials.sql';

/** An API key's budget after a request was charged (contract.md §11). */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window ends and the budget is whole again. */
  resetSeconds: number;
}

/**
 * The per-key budgets, counted in the database through rate-limiter-flexible (so every instance
 * shares them). The store is opened on first use, once the data source is connected.
 */
export class ApiKeyRateLimits {
  private store?: RateLimiterAbstract;

  constructor(
    private readonly openStore: () => RateLimiterAbstract,
    readonly limit: number,
    private readonly windowSeconds: number,
  ) {}

  /**
   * Spends `points` of the key's budget; `exceeded` when the request goes over it. With
   * `confirm`, `credentials` tells whether those still hold, when the store read it in the same
   * exchange (MySQL/MariaDB); undefined otherwise.
   */
  async consume(
    apiKeyId: number,
    points: number,
    confirm?: CredentialsToConfirm,
  ): Promise<RateLimitState & { exceeded: boolean; credentials?: CredentialsInForce }> {
    this.store ??= this.openStore();
    let res: RateLimiterRes;
    let exceeded = false;
    // The library hands its options to the store's upsert; the store writes its answer back here.
    const check: CredentialsCheck = { confirm };
    try {
      res = await this.store.consume(String(apiKeyId), points, check);
    } catch (error) {
      // The library rejects with its result when the budget is spent, with an Error when the
      // store fails (that one is the database's, reported as such).
      if (!(error instanceof RateLimiterRes)) throw error;
      res = error;
      exceeded = true;
    }
    const ms = res.msBeforeNext >= 0 ? res.msBeforeNext : this.windowSeconds * 1000;
    return {
      limit: this.limit,
      remaining: exceeded ? 0 : res.remainingPoints,
      resetSeconds: Math.max(1, Math.ceil(ms / 1000)),
      exceeded,
      credentials: check.found,
    };
  }
}

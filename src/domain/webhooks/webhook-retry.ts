/**
 * When a failed webhook delivery is tried again (contract.md §16): exponential backoff with
 * jitter, never earlier than the receiver's Retry-After; the last attempt comes 24 hours after
 * the event (a backoff reaching past it is shortened to it), then the delivery fails; an
 * endpoint failing for three days is disabled.
 */

/** The first retry's delay by default (WEBHOOK_RETRY_BASE_MS). */
export const DEFAULT_RETRY_BASE_MS = 30_000;

/** No attempt later than this after the event's creation: the delivery then fails. */
export const GIVE_UP_AFTER_MS = 24 * 3600 * 1000;

/** An endpoint whose attempts have failed, with no success, for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 3 * 24 * 3600 * 1000;

/** The longest single wait between two attempts (before Retry-After, which may ask for more). */
export const MAX_RETRY_DELAY_MS = 6 * 3600 * 1000;

/** The reason an endpoint disabled for its failures shows its owner. */
export const DISABLED_FOR_FAILURES_REASON =
  'disabled after 3 days of failed deliveries with no success';

/**
 * The delay before the attempt that follows failed attempt `attempt` (1 for the first):
 * base·2^(attempt-1), capped, plus up to half of it at random, so that the retries of many
 * deliveries failed together spread out while none comes sooner than the schedule (the first
 * never before WEBHOOK_RETRY_BASE_MS). `random` returns a number in [0, 1).
 */
export function retryDelayMs(attempt: number, baseMs: number, random: () => number): number {
  const exponent = Math.max(0, Math.floor(attempt) - 1);
  const full = Math.min(MAX_RETRY_DELAY_MS, baseMs * 2 ** Math.min(exponent, 40));
  return Math.round(full + random() * (full / 2));
}

export interface RetryInput {
  /** The number of the attempt that just failed, from 1. */
  attempt: number;
  baseMs: number;
  /** When the event was created (epoch ms): the 24 h limit counts from it. */
  eventCreatedMs: number;
  nowMs: number;
  /** What the receiver's Retry-After asked for, in ms. */
  retryAfterMs?: number;
  random?: () => number;
}

export type RetryPlan = { kind: 'retry'; dueMs: number } | { kind: 'give-up' };

/**
 * When to try again after a failed attempt that may be retried, or whether to give up: at the
 * 24-hour limit itself when the backoff reaches past it, and never when the limit has come or
 * Retry-After asks for a time past it.
 */
export function planRetry(input: RetryInput): RetryPlan {
  const limitMs = input.eventCreatedMs + GIVE_UP_AFTER_MS;
  const earliestMs = input.nowMs + (input.retryAfterMs ?? 0);
  if (input.nowMs >= limitMs || earliestMs > limitMs) return { kind: 'give-up' };
  const backoff = retryDelayMs(input.attempt, input.baseMs, input.random ?? Math.random);
  return { kind: 'retry', dueMs: Math.min(limitMs, Math.max(input.nowMs + backoff, earliestMs)) };
}

/** Whether an endpoint failing since `failingSinceMs` is to be disabled at `nowMs`. */
export function shouldDisableEndpoint(failingSinceMs: number | null, nowMs: number): boolean {
  return failingSinceMs !== null && nowMs - failingSinceMs >= DISABLE_AFTER_FAILING_MS;
}

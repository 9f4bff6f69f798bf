import { LIVE_SESSIONS } from './ingest-settings';

/**
 * The live phase's own settings beside ingest-settings.ts: subscribers per session, rounds, the
 * issue's targets, and the instances' subscription limits the bench's single teacher needs.
 */

const number = (name: string, fallback: number, least = 0): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < least)
    throw new Error(`${name}: a whole number >= ${least}`);
  return value;
};

/** Subscriptions per session, as many teachers' screens on one class (the same query and token). */
export const LIVE_SUBSCRIBERS = number('BENCH_LIVE_SUBSCRIBERS', 10, 1);
/**
 * Rounds of each path: a run with 1 subscriber per session and one with LIVE_SUBSCRIBERS, their
 * order swapped from round to round; latencies pooled, CPU figures the median of the rounds.
 */
export const LIVE_ROUNDS = number('BENCH_LIVE_ROUNDS', 2, 1);
/** The subscriber counts compared: 1 alone when LIVE_SUBSCRIBERS is 1. */
export const LIVE_SUBSCRIBER_COUNTS = LIVE_SUBSCRIBERS > 1 ? [1, LIVE_SUBSCRIBERS] : [1];

/**
 * The live target, with LIVE_SUBSCRIBERS per session: p95 on the instance that writes and
 * across instances; CPU per message not growing with the subscribers of a session (their ratio at
 * most `cpuPerMessageRatio`); the service's RSS; no error.
 */
export const LIVE_TARGETS = {
  localP95Ms: 150,
  crossP95Ms: 400,
  cpuPerMessageRatio: 1,
  rssMb: 300,
  errors: 0,
};

/**
 * Every subscription is the teacher's, so that a session's subscribers share its computation (an
 * instance shares one per session, parameters and requester): the instances' per-user (50) and
 * per-API-key (1,000) limits are raised to hold them all, unless set in the environment.
 */
export function raiseSubscriptionLimits(env: NodeJS.ProcessEnv): void {
  const held = LIVE_SESSIONS * LIVE_SUBSCRIBERS;
  env.LIVE_MAX_SUBSCRIPTIONS_PER_USER ??= String(Math.max(50, held));
  env.LIVE_MAX_SUBSCRIPTIONS_PER_KEY ??= String(Math.max(1_000, held));
}

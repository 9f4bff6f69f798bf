import {
  DISABLE_AFTER_FAILING_MS,
  GIVE_UP_AFTER_MS,
  MAX_RETRY_DELAY_MS,
  planRetry,
  retryDelayMs,
  shouldDisableEndpoint,
} from '../../src/domain/webhooks/webhook-retry';

describe('webhook retry schedule', () => {
  const base = 30_000;

  it('doubles from the base, half of it jittered', () => {
    for (const attempt of [1, 2, 3, 4, 5]) {
      const full = base * 2 ** (attempt - 1);
      expect(retryDelayMs(attempt, base, () => 0)).toBe(full / 2);
      expect(retryDelayMs(attempt, base, () => 0.999999)).toBeCloseTo(full, -1);
      const jittered = retryDelayMs(attempt, base, Math.random);
      expect(jittered).toBeGreaterThanOrEqual(full / 2);
      expect(jittered).toBeLessThanOrEqual(full);
    }
  });

  it('caps a single wait', () => {
    expect(retryDelayMs(40, base, () => 0.999999)).toBeLessThanOrEqual(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(1000, base, () => 0)).toBe(MAX_RETRY_DELAY_MS / 2);
  });

  it('never retries earlier than Retry-After says', () => {
    const plan = planRetry({
      attempt: 1,
      baseMs: 100,
      eventCreatedMs: 0,
      nowMs: 1000,
      retryAfterMs: 5000,
      random: () => 0.5,
    });
    expect(plan).toEqual({ kind: 'retry', dueMs: 6000 });
    // A backoff longer than Retry-After wins.
    expect(
      planRetry({
        attempt: 3,
        baseMs: 10_000,
        eventCreatedMs: 0,
        nowMs: 0,
        retryAfterMs: 1000,
        random: () => 0,
      }),
    ).toEqual({ kind: 'retry', dueMs: 20_000 });
  });

  it('gives up when the next attempt would fall more than 24 h after the event', () => {
    const created = 1_000_000;
    const near = GIVE_UP_AFTER_MS - 10_000;
    expect(
      planRetry({
        attempt: 1,
        baseMs: 10_000,
        eventCreatedMs: created,
        nowMs: created + near,
        random: () => 0,
      }),
    ).toEqual({ kind: 'retry', dueMs: created + near + 5000 });
    expect(
      planRetry({
        attempt: 2,
        baseMs: 10_000,
        eventCreatedMs: created,
        nowMs: created + near,
        random: () => 0.99,
      }),
    ).toEqual({ kind: 'give-up' });
    expect(
      planRetry({
        attempt: 1,
        baseMs: 100,
        eventCreatedMs: created,
        nowMs: created,
        retryAfterMs: GIVE_UP_AFTER_MS + 1,
      }),
    ).toEqual({ kind: 'give-up' });
  });

  it('disables an endpoint after 3 days of failures', () => {
    const now = 10 * DISABLE_AFTER_FAILING_MS;
    expect(shouldDisableEndpoint(null, now)).toBe(false);
    expect(shouldDisableEndpoint(now - DISABLE_AFTER_FAILING_MS + 1, now)).toBe(false);
    expect(shouldDisableEndpoint(now - DISABLE_AFTER_FAILING_MS, now)).toBe(true);
    expect(DISABLE_AFTER_FAILING_MS).toBe(3 * 86_400_000);
    expect(GIVE_UP_AFTER_MS).toBe(86_400_000);
  });
});

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

  it('doubles from the base, up to half of it added at random, never sooner', () => {
    for (const attempt of [1, 2, 3, 4, 5]) {
      const full = base * 2 ** (attempt - 1);
      expect(retryDelayMs(attempt, base, () => 0)).toBe(full);
      expect(retryDelayMs(attempt, base, () => 0.999999)).toBeCloseTo(full * 1.5, -1);
      const jittered = retryDelayMs(attempt, base, Math.random);
      expect(jittered).toBeGreaterThanOrEqual(full);
      expect(jittered).toBeLessThanOrEqual(full * 1.5);
    }
    // The first retry comes no sooner than WEBHOOK_RETRY_BASE_MS.
    expect(retryDelayMs(1, base, () => 0)).toBe(base);
  });

  it('caps a single wait', () => {
    expect(retryDelayMs(1000, base, () => 0)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(40, base, () => 0.999999)).toBeLessThanOrEqual(MAX_RETRY_DELAY_MS * 1.5);
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
    ).toEqual({ kind: 'retry', dueMs: 40_000 });
  });

  it('makes its last attempt 24 h after the event, then gives up', () => {
    const created = 1_000_000;
    const limit = created + GIVE_UP_AFTER_MS;
    const near = limit - 10_000;
    expect(
      planRetry({
        attempt: 1,
        baseMs: 5000,
        eventCreatedMs: created,
        nowMs: near,
        random: () => 0,
      }),
    ).toEqual({ kind: 'retry', dueMs: near + 5000 });
    // A backoff reaching past the limit is shortened to it: one last attempt there.
    expect(planRetry({ attempt: 2, baseMs: 10_000, eventCreatedMs: created, nowMs: near })).toEqual(
      { kind: 'retry', dueMs: limit },
    );
    // At the limit, or asked by Retry-After to wait past it: given up.
    expect(
      planRetry({ attempt: 9, baseMs: 10_000, eventCreatedMs: created, nowMs: limit }),
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

  it('spreads a day of retries from a 30 s base into about a dozen attempts', () => {
    let nowMs = 0;
    let attempts = 0;
    for (;;) {
      const plan = planRetry({ attempt: attempts + 1, baseMs: base, eventCreatedMs: 0, nowMs });
      attempts += 1;
      if (plan.kind === 'give-up') break;
      expect(plan.dueMs).toBeGreaterThan(nowMs);
      nowMs = plan.dueMs;
    }
    expect(nowMs).toBe(GIVE_UP_AFTER_MS);
    expect(attempts).toBeGreaterThan(8);
    expect(attempts).toBeLessThan(20);
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

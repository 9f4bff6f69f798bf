import { LessThan } from 'typeorm';
import { LoginFailure, RateLimitCounter, WebSession } from '../db/entities';
import { purgeExpiredTokens } from '../services/auth/access-token.service';
import { purgeExpiredDataSets } from '../services/sets/data-set.service';
import { purgeExpiredAccessLog, purgeExpiredAnswers } from '../services/privacy/retention.service';
import { purgeWebhookHistory } from '../services/webhooks/webhook-queue.service';
import type { Job } from './jobs';
import type { AppDeps } from '../context/request-context';

/** How long an expired set stays before the purge reclaims it. */
const DATA_SET_PURGE_GRACE_MS = 60_000;

const flushKeyUsage: Job = {
  name: 'flush-key-usage',
  everySeconds: 30,
  run: (deps) => deps.keyUsage.flush(deps.db.write),
};

/** Unspent slices of keys idle here go back to the budget the other instances share. */
const giveBackIdleSlices: Job = {
  name: 'give-back-idle-rate-limit-slices',
  everySeconds: 1,
  run: (deps) => deps.rateLimits.giveBackIdle(),
};

/** At shutdown, every unspent slice goes back. */
const giveBackAllSlices: Job = {
  name: 'give-back-rate-limit-slices',
  everySeconds: 1,
  run: (deps) => deps.rateLimits.giveBackIdle(0),
};

/** The jobs every instance runs, and the ones run once more at shutdown. */
export function maintenanceJobs(deps: AppDeps): { periodic: Job[]; final: Job[] } {
  const every = deps.config.purgeIntervalSeconds;
  return {
    periodic: [
      flushKeyUsage,
      giveBackIdleSlices,
      { name: 'purge-expired-tokens', everySeconds: every, run: (d) => purgeExpiredTokens(d) },
      // Expired sets answer 404 already; this only reclaims their rows, in bounded batches, a
      // minute after expiry: a request that found a set readable just before never reads it
      // half deleted.
      {
        name: 'purge-expired-data-sets',
        everySeconds: every,
        run: (d) =>
          purgeExpiredDataSets(d, { now: new Date(Date.now() - DATA_SET_PURGE_GRACE_MS) }),
      },
      // Answers past ANSWER_RETENTION_DAYS, then the attendance of the sessions they emptied,
      // in batches of short statements: writers of answers never wait long on `answers`.
      {
        name: 'purge-expired-answers',
        everySeconds: every,
        run: async (d) => {
          const purged = await purgeExpiredAnswers(d);
          return purged.answers + purged.attendances;
        },
      },
      // Access-log entries past ACCESS_LOG_RETENTION_DAYS, by key in short batches.
      {
        name: 'purge-expired-access-log',
        everySeconds: every,
        run: (d) => purgeExpiredAccessLog(d),
      },
      // Webhook deliveries (with their attempts) and events past 30 days, in short batches.
      {
        name: 'purge-webhook-history',
        everySeconds: every,
        run: (d) => purgeWebhookHistory(d),
      },
      {
        name: 'purge-expired-web-sessions',
        everySeconds: every,
        run: async (d) =>
          (await d.db.write.getRepository(WebSession).delete({ expiresAt: LessThan(new Date()) }))
            .affected ?? 0,
      },
      {
        name: 'purge-old-login-failures',
        everySeconds: every,
        run: async (d) => {
          const before = new Date(Date.now() - d.config.login.failureWindowSeconds * 1000);
          return (
            (await d.db.write.getRepository(LoginFailure).delete({ failedAt: LessThan(before) }))
              .affected ?? 0
          );
        },
      },
      {
        // A counter whose window has ended is read as empty already; this reclaims its row.
        name: 'purge-ended-rate-limit-windows',
        everySeconds: every,
        run: async (d) =>
          (
            await d.db.write
              .getRepository(RateLimitCounter)
              .delete({ expire: LessThan(String(Date.now())) })
          ).affected ?? 0,
      },
    ],
    final: [flushKeyUsage, giveBackAllSlices],
  };
}

import { randomInt } from 'node:crypto';
import type { RequestContext } from '../../context/request-context';
import { expiryIn, wholeSeconds } from '../../db/entities/column-types';
import type { Session } from '../../db/entities';
import { deleteLoginFailure, insertLoginFailure } from '../../db/login-failures.store';
import { insertAttendee, sessionById } from '../../db/sessions.store';
import { isUniqueViolation } from '../../db/sql-errors';
import { renewJoinCodeSql, sessionIdByJoinCode } from '../../db/sql/session-join.sql';
import {
  isWellFormedJoinCode,
  joinCodeOf,
  joinCodeValid,
  normalizeJoinCode,
} from '../../domain/sessions/join-code.rules';
import { Errors } from '../../errors';
import { hashSecret } from '../../security/secrets';
import { lockedFor } from '../auth/login.service';
import { sessionView, type SessionView } from './session.views';

/**
 * Join codes (contract.md §9): addSession gives each session one, valid
 * SESSION_JOIN_TTL_SECONDS, and a pupil the owner does not know becomes an attendee by
 * joinSession with it. Only the owner is shown the code.
 */

/** Attempts at a code before giving up: two random codes colliding is already near impossible. */
const CODE_ATTEMPTS = 3;

/** A new code, every character drawn from the system's cryptographic random source. */
export function newJoinCode(): string {
  return joinCodeOf((below) => randomInt(below));
}

/** The expiry of a code issued at `now`. */
export function joinCodeExpiry(ctx: RequestContext, now: Date): Date {
  return expiryIn(ctx.config.privacy.sessionJoinTtlSeconds, now.getTime());
}

/** Runs `write` with a new code each time the last one collided with a stored one. */
export async function withNewJoinCode<T>(write: (code: string) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await write(newJoinCode());
    } catch (error) {
      if (attempt >= CODE_ATTEMPTS || !isUniqueViolation(error)) throw error;
    }
  }
}

/**
 * The session as its owner reads it (getSession, addSession finding it by clientRef): one
 * without a code (made before join codes, or imported) or whose code expired gets a new one, so
 * the owner always has a valid code to show, while a code read from an old screen still stops
 * working at its expiry. Anyone else reads the session as stored (and is shown no code).
 */
export async function withCurrentJoinCode(ctx: RequestContext, session: Session): Promise<Session> {
  const { requester } = ctx;
  if (requester.kind !== 'user' || requester.userId !== session.ownerId) return session;
  const now = wholeSeconds(new Date());
  if (session.joinCode !== null && joinCodeValid(session.joinCodeExpiresAt, now)) return session;
  const expiresAt = joinCodeExpiry(ctx, now);
  // A read runs beside its rate-limit charge: a refused request leaves no new code behind.
  await ctx.admission.wait();
  await withNewJoinCode(async (code) => {
    const renew = renewJoinCodeSql(ctx.db.dialect, session.id, code, expiresAt, now);
    await ctx.db.exclusive(() => ctx.db.write.query(renew.sql, renew.params));
  });
  // Whichever of two concurrent renewals came first wrote the code both read back.
  return (await sessionById(ctx.db, session.id)) ?? session;
}

/**
 * Failed joins are counted in the table of failed logins, with its window and per-account limit
 * (LOGIN_FAILURE_WINDOW_SECONDS, LOGIN_MAX_FAILURES_PER_ACCOUNT): per user, under a hash no
 * normalised email can have (those are lower case), and from a source that is no IP address,
 * so they never count towards the per-IP limit of the login page (a school behind one address
 * would otherwise lock its logins with its pupils' typing mistakes).
 */
const JOIN_FAILURE_SOURCE = 'joinSession';
export const joinerHash = (userId: number): string => hashSecret(`joinSession:user:${userId}`);

/** Makes the user an attendee (if not already one) and bumps the session's change marker. */
async function addAttendee(ctx: RequestContext, sessionId: number, userId: number): Promise<void> {
  // Live results list the session's attendees: the new pupil appears on the owner's screen.
  const now = wholeSeconds(new Date());
  await ctx.db.exclusive(() => insertAttendee(ctx.db, sessionId, userId, now));
  ctx.sessionChanges.changed(sessionId);
}

/**
 * joinSession (contract.md §9): the token's user becomes an attendee of the session whose valid
 * join code they give, and is shown the session. Joining again changes nothing. A wrong or
 * expired code is a BadParameter on `joinCode`; past the limit of failed joins, TooManyRequests.
 * As for logins, the attempt is recorded as a failure before it is checked and forgotten when it
 * succeeds, so that parallel guesses see each other and a burst cannot slip past the limit.
 */
export async function joinSession(ctx: RequestContext, typed: string): Promise<SessionView> {
  const { requester } = ctx;
  if (requester.kind !== 'user') {
    throw Errors.unauthenticated(ctx.operation, 'an access token is required to join a session');
  }
  const accountHash = joinerHash(requester.userId);
  const now = Date.now();
  const own = await ctx.db.exclusive(() =>
    insertLoginFailure(ctx.db, {
      accountHash,
      clientIp: JOIN_FAILURE_SOURCE,
      failedAt: new Date(now),
    }),
  );
  const forget = () => ctx.db.exclusive(() => deleteLoginFailure(ctx.db, own));

  const retryAfter = await lockedFor(
    ctx,
    { accountHash },
    own,
    ctx.config.login.maxFailuresPerAccount,
    now,
  );
  if (retryAfter !== undefined) {
    // A refused attempt checks nothing, so it is no failure and does not extend the lock.
    await forget();
    ctx.metrics.countRateLimitRefusal('session_join');
    ctx.logger.warn({ event: 'join_rate_limited', retryAfter }, 'join refused: too many failures');
    throw Errors.tooManyRequests(
      ctx.operation,
      retryAfter,
      'too many failed attempts to join a session; try again later',
    );
  }

  const code = normalizeJoinCode(typed);
  const sessionId = isWellFormedJoinCode(code)
    ? await sessionIdByJoinCode(ctx.db.write, ctx.db.dialect, code, new Date(now))
    : null;
  const session = sessionId === null ? null : await ctx.loaders.sessionById.load(sessionId);
  if (!session) {
    // Neither the code nor the user's name: the log says only that a join failed.
    ctx.logger.info({ event: 'join_failed' }, 'join refused: wrong or expired code');
    throw Errors.badParameter(
      ctx.operation,
      'joinCode',
      typed,
      'no session has this join code, or it has expired',
    );
  }
  await forget();
  if (!(await ctx.loaders.attendedSession.load(session.id))) {
    await addAttendee(ctx, session.id, requester.userId);
    ctx.loaders.sessionAttendeeCount.clear(session.id);
  }
  return sessionView(ctx, session);
}

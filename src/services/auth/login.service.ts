import type { RequestContext } from '../../context/request-context';
import { apiKeyByHash } from '../../db/api-keys.store';
import type { ApiKey, User } from '../../db/entities';
import {
  countRecentFailures,
  deleteLoginFailure,
  insertLoginFailure,
  recentFailureAt,
  type FailureScope,
} from '../../db/login-failures.store';
import { userByEmail } from '../../db/users.store';
import { Errors } from '../../errors';
import { UNKNOWN_ACCOUNT_HASH, verifyPassword } from '../../security/password';
import { hashSecret } from '../../security/secrets';
import type { IssuedToken } from './access-token.service';
import { normalizeIp, redirectUrlMatchesKey } from './host-binding';

/** What the login decisions need: no HTTP, no requester (nobody is logged in yet). */
export type LoginContext = Pick<
  RequestContext,
  'config' | 'db' | 'operation' | 'logger' | 'metrics'
>;

const MAX_EMAIL_LENGTH = 254;
/** argon2 cost grows with the input; nobody's password is longer than this. */
const MAX_PASSWORD_LENGTH = 1024;
const CLIENT_IP_LENGTH = 45;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Failures are counted per account without storing the address tried. */
export function accountHashOf(email: string): string {
  return hashSecret(normalizeEmail(email));
}

function clientIpOf(clientIp: string | undefined): string {
  return clientIp ? normalizeIp(clientIp).slice(0, CLIENT_IP_LENGTH) : 'unknown';
}

/**
 * Seconds until the failures matching `where` fall back under `max`, or undefined when under it
 * now. `own` is the row of the attempt being checked, which does not count against itself.
 * Failed session joins are limited with it too (session-join.service.ts).
 */
export async function lockedFor(
  ctx: LoginContext,
  scope: FailureScope,
  own: number,
  max: number,
  now: number,
): Promise<number | undefined> {
  const windowMs = ctx.config.login.failureWindowSeconds * 1000;
  const recent = { scope, own, since: new Date(now - windowMs) };
  const count = await countRecentFailures(ctx.db, recent);
  if (count < max) return undefined;
  // The limit lifts when the failure that put the count at the limit leaves the window.
  const pivotAt = await recentFailureAt(ctx.db, recent, count - max);
  const until = (pivotAt?.getTime() ?? now) + windowMs;
  return Math.max(1, Math.ceil((until - now) / 1000));
}

/**
 * Checks an email and password. Refuses with TooManyRequests, before looking at the password,
 * while the account or the client IP has too many recent failures; otherwise a wrong email or
 * password records a failure and gives one generic Unauthenticated error, costing the same
 * argon2 verification either way so timing does not tell which part was wrong.
 */
export async function verifyLogin(
  ctx: LoginContext,
  email: string,
  password: string,
  clientIp: string | undefined,
): Promise<User> {
  const { login } = ctx.config;
  const accountHash = accountHashOf(email);
  const ip = clientIpOf(clientIp);
  const now = Date.now();
  // The attempt is recorded as a failure before the count, and only removed if it turns out not
  // to be one: parallel guesses then see each other, so a burst cannot slip past the limit.
  const own = await insertLoginFailure(ctx.db, {
    accountHash,
    clientIp: ip,
    failedAt: new Date(now),
  });
  const forget = () => deleteLoginFailure(ctx.db, own);

  const waits = await Promise.all([
    lockedFor(ctx, { accountHash }, own, login.maxFailuresPerAccount, now),
    lockedFor(ctx, { clientIp: ip }, own, login.maxFailuresPerIp, now),
  ]);
  const retryAfter = Math.max(...waits.map((wait) => wait ?? 0));
  if (retryAfter > 0) {
    // A refused attempt checks nothing, so it is no failure and does not extend the lock.
    await forget();
    ctx.metrics.countRateLimitRefusal('login');
    ctx.logger.warn(
      { event: 'login_rate_limited', clientIp: ip, retryAfter },
      'login refused: too many failures',
    );
    throw Errors.tooManyRequests(
      ctx.operation,
      retryAfter,
      'too many failed login attempts; try again later',
    );
  }

  const normalized = normalizeEmail(email);
  const user =
    normalized.length > 0 && normalized.length <= MAX_EMAIL_LENGTH
      ? await userByEmail(ctx.db, normalized, 'write')
      : null;
  const candidate = password.slice(0, MAX_PASSWORD_LENGTH);
  const hash = user?.passwordHash ?? UNKNOWN_ACCOUNT_HASH;
  const matches = await verifyPassword(hash, candidate);
  if (user && user.passwordHash && matches && password.length <= MAX_PASSWORD_LENGTH) {
    await forget();
    return user;
  }
  ctx.logger.info({ event: 'login_failed', clientIp: ip }, 'login failed');
  throw Errors.unauthenticated(ctx.operation, 'the email or password is incorrect');
}

/** Where the login page sends the user back, checked against the API key it was opened with. */
export interface LoginTarget {
  apiKey: ApiKey;
  redirectUrl: URL;
  /** The redirect URL exactly as given; the token is added to it without re-serialising it. */
  redirectText: string;
}

/** A host the CSP header and the browser read alike: a DNS name (punycode) or an IP literal. */
const PLAIN_HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*\.?|\[[0-9a-f:.]+\])$/;

/**
 * The API key and redirect URL of a login page request; throws MissingParameter, Unauthenticated
 * (unknown or revoked key) or BadParameter (redirect URL not on the key's host) otherwise.
 */
export async function resolveLoginTarget(
  ctx: LoginContext,
  apiKeyText: string | undefined,
  redirectText: string | undefined,
): Promise<LoginTarget> {
  if (!apiKeyText) throw Errors.missingParameter(ctx.operation, 'apiKey');
  const apiKey = await apiKeyByHash(ctx.db, hashSecret(apiKeyText));
  if (!apiKey || apiKey.revokedAt) {
    throw Errors.unauthenticated(ctx.operation, 'the API key is unknown or revoked');
  }
  if (!redirectText) throw Errors.missingParameter(ctx.operation, 'redirectURL');
  const redirectUrl = redirectUrlMatchesKey(apiKey.host, redirectText);
  if (!redirectUrl || !PLAIN_HOST.test(redirectUrl.host.replace(/:\d+$/, ''))) {
    throw Errors.badParameter(
      ctx.operation,
      'redirectURL',
      redirectText,
      'the redirect URL must be an absolute http or https URL on the host of the API key or a subdomain of it',
    );
  }
  return { apiKey, redirectUrl, redirectText };
}

/**
 * The redirect URL with `accessToken` added (spec §5.3): the URL's own query and fragment are kept
 * byte for byte, except a stale accessToken parameter, which is dropped so the client cannot
 * pick up an old token instead of the new one.
 */
export function redirectWithToken(redirectText: string, issued: IssuedToken): string {
  const hashAt = redirectText.indexOf('#');
  const beforeHash = hashAt < 0 ? redirectText : redirectText.slice(0, hashAt);
  const fragment = hashAt < 0 ? '' : redirectText.slice(hashAt);
  const queryAt = beforeHash.indexOf('?');
  const base = queryAt < 0 ? beforeHash : beforeHash.slice(0, queryAt);
  const query = queryAt < 0 ? '' : beforeHash.slice(queryAt + 1);
  const kept = query === '' ? [] : query.split('&').filter((pair) => !isAccessTokenPair(pair));
  const added = `accessToken=${encodeURIComponent(JSON.stringify({ token: issued.token, expiresIn: issued.expiresIn }))}`;
  return `${base}?${[...kept, added].join('&')}${fragment}`;
}

function isAccessTokenPair(pair: string): boolean {
  const name = pair.split('=')[0].replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name) === 'accessToken';
  } catch {
    return false;
  }
}

import { createHmac, randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { safeEqual } from '../../security/secrets';
import { cookieOptions, readCookie } from './cookies';

/** Name of the hidden field that carries the CSRF token in every form. */
export const CSRF_FIELD = 'csrf';

const NONCE = /^[A-Za-z0-9_-]{43}$/;

function hmac(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text, 'utf8').digest('hex');
}

/**
 * Signed double-submit for forms shown before anyone is logged in: a random nonce in an
 * HttpOnly cookie, and the same nonce plus its HMAC in the form. A cross-site page can neither
 * read the cookie nor sign a nonce of its own, so it cannot build a matching pair.
 */
export class DoubleSubmitCsrf {
  constructor(
    private readonly secret: string,
    private readonly cookieName: string,
    private readonly cookiePath: string,
  ) {}

  /** The form field value; sets (or refreshes) the nonce cookie. An existing nonce is kept so open tabs stay valid. */
  issue(req: Request, res: Response): string {
    const existing = readCookie(req, this.cookieName);
    const nonce =
      existing && NONCE.test(existing) ? existing : randomBytes(32).toString('base64url');
    res.cookie(this.cookieName, nonce, cookieOptions(req, this.cookiePath, 'lax'));
    return `${nonce}.${hmac(this.secret, nonce)}`;
  }

  /** True when the posted field and the cookie carry the same nonce and the field's HMAC is ours. */
  verify(req: Request, field: string | undefined): boolean {
    const cookie = readCookie(req, this.cookieName);
    if (!cookie || !field || !NONCE.test(cookie)) return false;
    const [nonce, mac, ...rest] = field.split('.');
    if (rest.length > 0 || nonce === undefined || mac === undefined) return false;
    // Both comparisons always run, so timing tells nothing about which part failed.
    const sameNonce = safeEqual(nonce, cookie);
    const signed = safeEqual(mac, hmac(this.secret, nonce));
    return sameNonce && signed;
  }
}

/** The CSRF token of a logged-in key-manager session: bound to the session, so nothing else is stored. */
export function sessionCsrfToken(secret: string, sessionTokenHash: string): string {
  return hmac(secret, `csrf:${sessionTokenHash}`);
}

export function verifySessionCsrf(
  secret: string,
  sessionTokenHash: string,
  field: string | undefined,
): boolean {
  return field !== undefined && safeEqual(field, sessionCsrfToken(secret, sessionTokenHash));
}

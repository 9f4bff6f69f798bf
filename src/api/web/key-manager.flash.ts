import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { cookieOptions, readCookie } from './cookies';

/**
 * What a key-manager POST leaves for the page it redirects to (POST-redirect-GET): the new key's
 * secret, to show once, or which key was deleted. `shown` marks a secret already shown, so a
 * reload can say so instead of showing it again.
 */
export type KeyManagerFlash =
  | { kind: 'created'; keyId: number; secret: string }
  | { kind: 'shown'; keyId: number }
  | { kind: 'deleted'; keyId: number };

const COOKIE = 'quiz_keys_flash';
/** Long enough for the redirect and a reload or two; a lost flash only hides a message. */
const TTL_MS = 5 * 60_000;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SECRET_SHAPE = /^[A-Za-z0-9_-]{1,200}$/;

interface Sealed {
  flash: KeyManagerFlash;
  expiresAt: number;
}

function isKeyId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function parseFlash(value: unknown): KeyManagerFlash | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { kind, keyId, secret } = value as Record<string, unknown>;
  if (!isKeyId(keyId)) return undefined;
  if (kind === 'created') {
    return typeof secret === 'string' && SECRET_SHAPE.test(secret)
      ? { kind, keyId, secret }
      : undefined;
  }
  return kind === 'shown' || kind === 'deleted' ? { kind, keyId } : undefined;
}

/**
 * The flash travels in the browser, not in a server table or memory, so any instance behind the
 * URL can show it: an HttpOnly, SameSite=Strict cookie on the key manager's path, encrypted and
 * authenticated (AES-256-GCM) with a key derived from COOKIE_SECRET and bound to the session, so
 * no other session, person or script can read or forge it. The page clears it once shown.
 */
export class FlashCookie {
  private readonly key: Buffer;

  constructor(
    cookieSecret: string,
    private readonly path: string,
  ) {
    // A key of its own, so the cookie secret's other uses (CSRF HMACs) never share one.
    this.key = createHmac('sha256', cookieSecret).update('key manager flash v1').digest();
  }

  set(req: Request, res: Response, sessionTokenHash: string, flash: KeyManagerFlash): void {
    const sealed: Sealed = { flash, expiresAt: Date.now() + TTL_MS };
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(sessionTokenHash, 'utf8'));
    const body = Buffer.concat([cipher.update(JSON.stringify(sealed), 'utf8'), cipher.final()]);
    const value = Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    res.cookie(COOKIE, value, cookieOptions(req, this.path, 'strict', TTL_MS));
  }

  /** The flash of this session, if any; the caller clears or replaces the cookie. */
  read(req: Request, sessionTokenHash: string): KeyManagerFlash | undefined {
    const value = readCookie(req, COOKIE);
    if (value === undefined) return undefined;
    const sealed = this.open(value, sessionTokenHash);
    return sealed && sealed.expiresAt > Date.now() ? parseFlash(sealed.flash) : undefined;
  }

  /** Clears the cookie when the request had one (whatever it held). */
  clear(req: Request, res: Response): void {
    if (readCookie(req, COOKIE) !== undefined) {
      res.clearCookie(COOKIE, cookieOptions(req, this.path, 'strict'));
    }
  }

  private open(value: string, sessionTokenHash: string): Sealed | undefined {
    const raw = Buffer.from(value, 'base64url');
    if (raw.length <= IV_BYTES + TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(sessionTokenHash, 'utf8'));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const text = Buffer.concat([
        decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
      const sealed = JSON.parse(text) as Partial<Sealed>;
      return typeof sealed.expiresAt === 'number' && sealed.flash
        ? { flash: sealed.flash, expiresAt: sealed.expiresAt }
        : undefined;
    } catch {
      // Tampered, from another session or another secret: no flash, as if none was set.
      return undefined;
    }
  }
}

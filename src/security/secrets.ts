import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random secret for API keys and access tokens: 256 bits, URL-safe. */
export function newSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/**
 * Secrets are looked up by hash. They carry 256 bits of randomness, so a fast hash is enough
 * (no salt or slow hash needed, unlike passwords) and lets every request find its key by index.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets the service must use again, not merely recognise (a webhook endpoint's signing secret:
 * the sender signs with it), cannot be hashed as API keys are: they are stored encrypted.
 * AES-256-GCM authenticates as it encrypts, so an altered value or the wrong key fails to open
 * rather than yielding a wrong secret.
 */

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Names the layout, so that another algorithm or key scheme can be told apart later. */
const VERSION = 'v1';

export interface SecretBox {
  /**
   * The sealed text of `plain`: `v1.` and base64url of IV, tag and ciphertext. `context` (for
   * example the endpoint's id) is authenticated, not stored: the sealed text opens only with the
   * same context, so it cannot be copied onto another row.
   */
  seal(plain: string, context?: string): string;
  /** The plain text of a sealed text; throws if it was altered, or sealed with another key or context. */
  open(sealed: string, context?: string): string;
}

/** Thrown when a sealed text does not open; says nothing of the secret. */
export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

export function createSecretBox(key: Uint8Array): SecretBox {
  if (key.length !== 32) throw new SecretBoxError('the secret box needs a 32-byte key');
  const keyBytes = Buffer.from(key);
  return {
    seal(plain, context = '') {
      // A random 96-bit IV per value: with GCM an IV must never repeat under one key.
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv(ALGORITHM, keyBytes, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    open(sealed, context = '') {
      const [version, data, ...rest] = sealed.split('.');
      if (version !== VERSION || data === undefined || rest.length > 0) {
        throw new SecretBoxError('the sealed secret is not in a known format');
      }
      const bytes = Buffer.from(data, 'base64url');
      if (bytes.length < IV_BYTES + TAG_BYTES) {
        throw new SecretBoxError('the sealed secret is too short');
      }
      const decipher = createDecipheriv(ALGORITHM, keyBytes, bytes.subarray(0, IV_BYTES), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      try {
        const plain = Buffer.concat([
          decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
          decipher.final(),
        ]);
        return plain.toString('utf8');
      } catch {
        throw new SecretBoxError(
          'the sealed secret does not open: altered, or sealed with another key or context',
        );
      }
    },
  };
}

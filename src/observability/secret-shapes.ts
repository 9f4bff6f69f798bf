/**
 * The shape of the service's own secrets, recognisable wherever they were put: newSecret
 * (src/security/secrets.ts) makes API keys `qk_`, access tokens `qt_` and web sessions `qs_`,
 * each followed by 43 base64url characters. A value of that shape is hidden from every response
 * and log line whatever parameter, header, path or message carried it (contract.md §2, §14.7).
 */
export const SECRET_PREFIXES = ['qk_', 'qt_', 'qs_'] as const;

/**
 * 16 characters after the prefix: the key manager's shown prefix (`qk_` and 6 characters) is
 * no secret, while a secret cut short (a long value shortened for display) is still hidden. The
 * underscore may come URL-encoded (`%5F`) or JSON-escaped (`\u005f`).
 */
const SECRET_SHAPE = /q[kts](?:_|%5f|\\u005f)[A-Za-z0-9_-]{16,}/gi;

export const HIDDEN_SECRET = '[REDACTED]';

/** The text with every secret-shaped run replaced. */
export function hideSecrets(text: string): string {
  return text.replace(SECRET_SHAPE, HIDDEN_SECRET);
}

/** Whether the text holds a secret-shaped run. */
export function holdsSecret(text: string): boolean {
  SECRET_SHAPE.lastIndex = 0;
  const found = SECRET_SHAPE.test(text);
  SECRET_SHAPE.lastIndex = 0;
  return found;
}

/**
 * Parameter and field names whose values are credentials whatever they look like: such a value
 * is never repeated in a response, even one that is not a secret of the service's shape.
 */
export function isCredentialName(name: string): boolean {
  const lowered = name.toLowerCase();
  return (
    lowered === 'apikey' ||
    lowered === 'x-api-key' ||
    lowered === 'authorization' ||
    lowered.endsWith('token') ||
    lowered.endsWith('password')
  );
}

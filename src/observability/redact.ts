/** Names whose values are secrets wherever they appear: query strings, JSON fields, headers. */
const SECRET_NAMES = [
  'apikey',
  'accesstoken',
  'password',
  'token',
  'authorization',
  'x-api-key',
  'cookie',
  'set-cookie',
  'csrf',
  '_csrf',
  'passwordhash',
  'keyhash',
  'tokenhash',
];

const REDACTED = '[REDACTED]';

function isSecretName(name: string): boolean {
  const lowered = name.toLowerCase();
  return (
    SECRET_NAMES.includes(lowered) || lowered.endsWith('token') || lowered.endsWith('password')
  );
}

// name=value pairs in URLs and form bodies, also URL-encoded inside another parameter (redirectURL).
const PAIR =
  /((?:^|[?&;\s"'(]|%3F|%26)([A-Za-z_-]*(?:apiKey|accessToken|password|token|Token|Password)[A-Za-z_]*)(?:=|%3D))([^&;\s"'#)]*)/gi;
// "token":"value" inside JSON text (the accessToken parameter is JSON of {token, expiresIn}).
const JSON_FIELD =
  /((?:\\?"|%22)(?:token|accessToken|apiKey|password)(?:\\?"|%22)\s*(?::|%3A)\s*(?:\\?"|%22))([^"\\%]+)/gi;
const BEARER = /(bearer\s+)[A-Za-z0-9._~+/=-]+/gi;

/** Removes secret values from a free text (URL, message, SQL, stack). */
export function redactText(text: string): string {
  return text
    .replace(PAIR, (_m, head: string, _name: string) => `${head}${REDACTED}`)
    .replace(JSON_FIELD, (_m, head: string) => `${head}${REDACTED}`)
    .replace(BEARER, (_m, head: string) => `${head}${REDACTED}`);
}

/** Deep copy of a log record with secret fields and secrets inside strings redacted. */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  if (value instanceof Date) return value;
  if (value instanceof Error) {
    return {
      type: value.name,
      message: redactText(value.message),
      stack: value.stack && redactText(value.stack),
    };
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] =
      isSecretName(key) && item !== undefined && item !== null
        ? REDACTED
        : redactValue(item, depth + 1);
  }
  return out;
}

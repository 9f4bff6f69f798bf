import { Stream } from 'node:stream';
import { hideSecrets } from './secret-shapes';

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

// The head of a name=value pair in URLs and form bodies, also URL-encoded inside another
// parameter (redirectURL). The name is matched whole and judged afterwards: a pattern that looked
// for the secret words inside it backtracked quadratically over a long run of letters.
const PAIR_HEAD = /(?:^|[?&;\s"'(]|%3F|%26)([A-Za-z_-]+)(?:=|%3D)/gi;
const SECRET_IN_NAME = /apikey|accesstoken|password|token/i;
const VALUE_END = /[&;\s"'#)]/;

/** Replaces the values of secret-named pairs; other values are scanned on for nested pairs. */
function redactPairs(text: string): string {
  let out = '';
  let copied = 0;
  PAIR_HEAD.lastIndex = 0;
  for (let head = PAIR_HEAD.exec(text); head; head = PAIR_HEAD.exec(text)) {
    if (!SECRET_IN_NAME.test(head[1])) continue;
    const start = head.index + head[0].length;
    let end = start;
    while (end < text.length && !VALUE_END.test(text[end])) end += 1;
    out += `${text.slice(copied, start)}${REDACTED}`;
    copied = end;
    PAIR_HEAD.lastIndex = end;
  }
  return out + text.slice(copied);
}

// "token":"value" inside JSON text (the accessToken parameter is JSON of {token, expiresIn}).
const JSON_FIELD =
  /((?:\\?"|%22)(?:token|accessToken|apiKey|password)(?:\\?"|%22)\s*(?::|%3A)\s*(?:\\?"|%22))([^"\\%]+)/gi;
const BEARER = /(bearer\s+)[A-Za-z0-9._~+/=-]+/gi;

/**
 * Removes secret values from a free text (URL, message, SQL, stack): those named as secrets, and
 * any value of a secret's shape wherever it was put (an API key sent as `keywords`, say).
 */
export function redactText(text: string): string {
  return hideSecrets(
    redactPairs(text)
      .replace(JSON_FIELD, (_m, head: string) => `${head}${REDACTED}`)
      .replace(BEARER, (_m, head: string) => `${head}${REDACTED}`),
  );
}

/** A database driver's error: its message quotes the values of the statement that failed. */
function isDatabaseError(error: Error): boolean {
  const fields = error as Error & Record<string, unknown>;
  return (
    error.name === 'QueryFailedError' ||
    typeof fields.sqlMessage === 'string' ||
    typeof fields.sql === 'string' ||
    typeof fields.query === 'string'
  );
}

// 'a quoted literal' of a driver message (MariaDB: Duplicate entry 'x@y.org' for key ...).
const QUOTED_LITERAL = /'(?:[^'\\]|\\.|'')*'/g;

/**
 * A driver's message without the values it quotes (an email in a duplicate key, a name near a
 * syntax error): the error code and the sentence tell the operator what failed.
 */
function withoutLiterals(text: string): string {
  return text.replace(QUOTED_LITERAL, "'…'");
}

/** An error as a log field: its type, code, message and stack, never its statement or values. */
function loggedError(error: Error): Record<string, unknown> {
  const database = isDatabaseError(error);
  const clean = (text: string) => redactText(database ? withoutLiterals(text) : text);
  const code = (error as Error & { code?: unknown }).code;
  return {
    type: error.name,
    ...(typeof code === 'string' ? { code } : {}),
    message: clean(error.message),
    stack: error.stack && clean(error.stack),
  };
}

/**
 * Deep copy of a log record with secret fields and secrets inside strings redacted. A stream (a
 * request or response logged whole) is left whole: the logger's serializers keep only plain
 * fields of it, which the last net redacts as text, and copying it field by field cost about a
 * millisecond.
 */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (value instanceof Stream) return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  if (value instanceof Date) return value;
  if (value instanceof Error) return loggedError(value);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] =
      isSecretName(key) && item !== undefined && item !== null
        ? REDACTED
        : redactValue(item, depth + 1);
  }
  return out;
}

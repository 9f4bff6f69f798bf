/**
 * A refused input value: `path` names it (`quizzes[2].questions[0].goodAnswer`, `quiz.title`);
 * `missing` tells a required value that was not given from one that was given wrong.
 */
export class InvalidInputError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
    readonly missing = false,
  ) {
    super(`${path}: ${reason}`);
    this.name = 'InvalidInputError';
  }
}

export type Fields = Record<string, unknown>;

const MAX_URL_LENGTH = 2048;

/** The largest identifier the tables hold (signed 32-bit ids). */
export const MAX_ID = 2 ** 31 - 1;

export function fail(path: string, reason: string): never {
  throw new InvalidInputError(path, reason);
}

/** A required value that was not given. */
export function missing(path: string): never {
  throw new InvalidInputError(path, 'is required', true);
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string' && value.length > 60)
    return `${JSON.stringify(value.slice(0, 57))}...`;
  return value === undefined ? 'nothing' : String(JSON.stringify(value));
}

export function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function fields(value: unknown, path: string): Fields {
  if (value === undefined) missing(path);
  return isFields(value) ? value : fail(path, `expected an object, got ${describe(value)}`);
}

export function absent(value: unknown): value is null | undefined {
  return value === undefined || value === null;
}

/** Length in characters (code points), as the database counts them. */
export function characters(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is a single character.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i += 1;
    }
    count += 1;
  }
  return count;
}

/** A trimmed text of min..max characters. */
export function text(value: unknown, path: string, min: number, max: number): string {
  if (value === undefined) missing(path);
  if (typeof value !== 'string') fail(path, `expected a text, got ${describe(value)}`);
  const trimmed = value.trim();
  const length = characters(trimmed);
  if (length < min || length > max) {
    fail(
      path,
      min === max
        ? `expected ${min} characters`
        : `expected ${min} to ${max} characters, got ${length}`,
    );
  }
  return trimmed;
}

/** An identifier in a JSON payload: a positive integer, as a number or as digits (the wire's form). */
export function identifier(value: unknown, path: string): number {
  if (absent(value)) missing(path);
  const digits = typeof value === 'number' ? String(value) : value;
  if (typeof digits !== 'string' || !/^\d{1,10}$/.test(digits.trim())) {
    fail(path, `expected a positive integer identifier, got ${describe(value)}`);
  }
  const id = Number(digits.trim());
  return id >= 1 && id <= MAX_ID
    ? id
    : fail(path, `expected a positive integer identifier, got ${describe(value)}`);
}

export function optionalBoolean(value: unknown, path: string, fallback: boolean): boolean {
  if (absent(value)) return fallback;
  return typeof value === 'boolean'
    ? value
    : fail(path, `expected true or false, got ${describe(value)}`);
}

export function requiredBoolean(value: unknown, path: string): boolean {
  if (value === undefined) missing(path);
  return optionalBoolean(value, path, false);
}

export function array(value: unknown, path: string): unknown[] {
  return Array.isArray(value) ? value : fail(path, `expected an array, got ${describe(value)}`);
}

export function optionalArray(value: unknown, path: string): unknown[] {
  return absent(value) ? [] : array(value, path);
}

export function httpUrl(value: unknown, path: string): string {
  if (typeof value !== 'string') fail(path, `expected a URL, got ${describe(value)}`);
  if (value.length > MAX_URL_LENGTH) fail(path, `expected at most ${MAX_URL_LENGTH} characters`);
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return fail(path, 'expected an http or https URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    fail(path, 'expected an http or https URL');
  return value;
}

export function oneOf<T extends string>(value: unknown, allowed: readonly T[], path: string): T {
  if (value === undefined) missing(path);
  return typeof value === 'string' && (allowed as readonly string[]).includes(value)
    ? (value as T)
    : fail(path, `expected one of ${allowed.join(', ')}, got ${describe(value)}`);
}

const DATE_TIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/**
 * The instant a wire datetime `YYYY-MM-DD hh:mm:ss` (UTC, contract.md §1) names, or null for any
 * other text and for dates that do not exist such as 2026-02-30: Date.UTC would silently roll
 * them over into March.
 */
export function wireDateTime(text: string): Date | null {
  const match = DATE_TIME_PATTERN.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  const real =
    year >= 1000 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60;
  return real ? date : null;
}

/**
 * A datetime in the wire format `YYYY-MM-DD hh:mm:ss`, or a Date a transport already read from
 * its own typed form (GraphQL's DateTimeISO, contract.md §15).
 */
export function dateTime(value: unknown, path: string): Date {
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? fail(path, 'is not a real date and time') : value;
  }
  if (typeof value !== 'string')
    fail(path, `expected a date "YYYY-MM-DD hh:mm:ss", got ${describe(value)}`);
  if (!DATE_TIME_PATTERN.test(value))
    fail(path, `expected a date "YYYY-MM-DD hh:mm:ss", got ${JSON.stringify(value)}`);
  return wireDateTime(value) ?? fail(path, `${value} is not a real date and time`);
}

export function optionalDateTime(value: unknown, path: string): Date | null {
  return absent(value) ? null : dateTime(value, path);
}

/**
 * The items of an optional list, each turned into a key by `key` (which checks it), refusing a
 * key met twice: a session plays a quiz once, a group has a member once.
 */
export function distinctList<K>(
  value: unknown,
  path: string,
  kind: string,
  key: (item: unknown, itemPath: string) => K,
): K[] {
  const seen = new Set<K>();
  return optionalArray(value, path).map((item, position) => {
    const itemPath = `${path}[${position}]`;
    const itemKey = key(item, itemPath);
    if (seen.has(itemKey)) fail(itemPath, `${kind} "${String(item)}" is listed twice`);
    seen.add(itemKey);
    return itemKey;
  });
}

/**
 * Deepest nesting of arrays and objects any JSON input may have: the deepest legitimate one (a
 * quiz's question's media, in a GraphQL variable) has 5 levels; deeper input is refused before
 * anything walks it recursively.
 */
export const MAX_JSON_DEPTH = 20;

/** True when `value` nests arrays or objects more than `maxDepth` levels; iterative, linear. */
export function nestedDeeperThan(value: unknown, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (current === null || typeof current !== 'object') continue;
    if (depth > maxDepth) return true;
    for (const child of Object.values(current)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

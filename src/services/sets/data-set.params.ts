import { Errors } from '../../errors';

/**
 * Parsing of the parameters of set-making operations, done by the services so that REST (text
 * from a query string) and GraphQL (typed values) refuse the same inputs with the same errors.
 */

/** A parameter as either transport hands it over. */
export type RawParam = string | number | boolean | null | undefined;

const MAX_ID = 2 ** 31 - 1;
export const MIN_ITEMS_PER_PAGE = 1;
export const MAX_ITEMS_PER_PAGE = 1000;

/** Absent, null or blank text all mean "not given": a blank filter filters nothing. */
export function isGiven(value: RawParam): value is string | number | boolean {
  if (value === undefined || value === null) return false;
  return typeof value !== 'string' || value.trim() !== '';
}

/** A positive integer identifier, within the database's int range. */
export function parseIdParam(
  operation: string,
  name: string,
  value: string | number | boolean,
): number {
  const text = String(value).trim();
  if (!/^\d{1,10}$/.test(text) || Number(text) < 1 || Number(text) > MAX_ID) {
    throw Errors.badParameter(operation, name, value, 'must be a positive integer identifier');
  }
  return Number(text);
}

/** An integer within [min, max]. */
export function parseIntegerParam(
  operation: string,
  name: string,
  value: string | number | boolean,
  min: number,
  max: number,
): number {
  const text = String(value).trim();
  const number = /^-?\d{1,10}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max) {
    throw Errors.badParameter(operation, name, value, `must be an integer from ${min} to ${max}`);
  }
  return number;
}

/** Booleans accept true|false|1|0 (contract §1). */
export function parseBooleanParam(
  operation: string,
  name: string,
  value: string | number | boolean,
): boolean {
  if (typeof value === 'boolean') return value;
  const text = String(value).trim();
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  throw Errors.badParameter(operation, name, value, 'must be true, false, 1 or 0');
}

/** Page size of a new set: the configured default unless given, 1 to 1000. */
export function parsePageSize(operation: string, value: RawParam, fallback: number): number {
  if (!isGiven(value)) return fallback;
  return parseIntegerParam(
    operation,
    'numberOfItemsPerPage',
    value,
    MIN_ITEMS_PER_PAGE,
    MAX_ITEMS_PER_PAGE,
  );
}

/**
 * A closed-open or closed datetime interval. A day-only end means the end of that day, kept as
 * "before the next midnight" so that no sub-second value of the last second is missed.
 */
export interface DateInterval {
  from: Date;
  to: Date;
  toExclusive: boolean;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/;

interface ParsedDate {
  date: Date;
  dayOnly: boolean;
}

function parseDate(text: string): ParsedDate | undefined {
  const match = DATE.exec(text);
  if (!match) return undefined;
  const [year, month, day, hours, minutes, seconds] = match
    .slice(1)
    .map((part) => (part === undefined ? 0 : Number(part)));
  const date = new Date(Date.UTC(year, month - 1, day, hours, minutes, seconds));
  // Date.UTC rolls 2026-02-30 over to March: a value that does not read back is not a date.
  const valid =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hours < 24 &&
    minutes < 60 &&
    seconds < 60;
  return valid ? { date, dayOnly: match[4] === undefined } : undefined;
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * `start,end` with `YYYY-MM-DD hh:mm:ss` or `YYYY-MM-DD` values (UTC); one value d means [d,d].
 * Open ends (`d,` or `,d`) and a start after the end are refused.
 */
export function parseDateInterval(operation: string, name: string, value: string): DateInterval {
  const bad = (reason: string) => Errors.badParameter(operation, name, value, reason);
  const parts = value.split(',').map((part) => part.trim());
  if (parts.length > 2) throw bad('must be one datetime or two separated by a comma');
  const dates = parts.map(parseDate);
  if (dates.some((date) => date === undefined)) {
    throw bad('datetimes must read YYYY-MM-DD hh:mm:ss or YYYY-MM-DD (UTC)');
  }
  const start = dates[0] as ParsedDate;
  const end = (dates[1] ?? dates[0]) as ParsedDate;
  const interval: DateInterval = end.dayOnly
    ? { from: start.date, to: new Date(end.date.getTime() + DAY_MS), toExclusive: true }
    : { from: start.date, to: end.date, toExclusive: false };
  const empty = interval.toExclusive
    ? interval.from.getTime() >= interval.to.getTime()
    : interval.from.getTime() > interval.to.getTime();
  if (empty) throw bad('the start of the interval is after its end');
  return interval;
}

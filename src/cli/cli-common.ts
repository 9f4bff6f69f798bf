import { InvalidArgumentError } from 'commander';

/** What the command line reads and writes: the process's streams, or a test's. */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin?: NodeJS.ReadableStream;
  /** The environment to configure from; the process's own when absent. */
  env?: Readonly<Record<string, string | undefined>>;
  cwd?: string;
}

/** A failure the operator caused: printed as one line, exit code 1. */
export class CliError extends Error {}

/** An option's parser: a whole number between min and max. */
export function wholeNumber(min: number, max: number) {
  return (raw: string): number => {
    if (!/^\d+$/.test(raw)) throw new InvalidArgumentError('must be a whole number');
    const value = Number(raw);
    if (value < min || value > max)
      throw new InvalidArgumentError(`must be between ${min} and ${max}`);
    return value;
  };
}

/** `2026-11-27T09:00:00Z` or `2026-11-27`: a point in time, with its zone (Z when absent). */
export function isoDateTime(raw: string): Date {
  const text = raw.trim();
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(text))
    throw new InvalidArgumentError(
      'must be an ISO 8601 date or datetime such as 2026-11-27T09:00:00Z',
    );
  const withZone = /T.*(Z|[+-]\d{2}:\d{2})$/.test(text) || !text.includes('T') ? text : `${text}Z`;
  const date = new Date(withZone);
  if (Number.isNaN(date.getTime())) throw new InvalidArgumentError('is not a valid date');
  return date;
}

/** A fraction (0.2) or a percentage (20%). */
export function fraction(raw: string): number {
  const match = /^(\d+(?:\.\d+)?)(%)?$/.exec(raw.trim());
  if (!match)
    throw new InvalidArgumentError('must be a fraction such as 0.2 or a percentage such as 20%');
  const value = Number(match[1]) / (match[2] ? 100 : 1);
  if (value < 0 || value > 1)
    throw new InvalidArgumentError('must be between 0 and 1 (0% and 100%)');
  return value;
}

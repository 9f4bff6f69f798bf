import type { ColumnOptions } from 'typeorm';

/**
 * Column types that map to the same thing on MySQL, MariaDB and SQLite. No JSON column type:
 * TypeORM compares JSON columns wrongly on MariaDB, and text holding JSON serves every dialect.
 */
export const datetime = (options: ColumnOptions = {}): ColumnOptions => ({
  type: 'datetime',
  ...options,
});

export const bool = (options: ColumnOptions = {}): ColumnOptions => ({
  type: 'boolean',
  ...options,
});

/**
 * An expiry `seconds` from now, in the whole seconds the datetime columns keep. Rounded down, so
 * what is stored never outlives the configured lifetime (MySQL would round a fraction up).
 */
export function expiryIn(seconds: number, from: number = Date.now()): Date {
  return new Date(Math.floor((from + seconds * 1000) / 1000) * 1000);
}

/** A time in whole seconds: MySQL/MariaDB datetime columns keep no fraction, SQLite would. */
export function wholeSeconds(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}

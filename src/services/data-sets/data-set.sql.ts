import type { DataSource } from 'typeorm';
import type { SqlVariable } from '../../db/statement-batches';

/**
 * SQL conventions shared by MariaDB, MySQL 8 and SQLite, so that one statement text runs on all
 * three with `?` placeholders.
 */

/** A session variable only in statements that run on MySQL/MariaDB (see withStatementBatches). */
export type SqlParam = string | number | Date | null | SqlVariable;

/** A WHERE fragment and its parameters, in placeholder order. */
export interface SqlCondition {
  sql: string;
  params: SqlParam[];
}

/**
 * The LIKE escape character. Not `\`: in a MySQL string literal `'\'` does not even parse, and
 * `'\\'` is two characters for SQLite, so no spelling of a backslash escape runs on all three.
 */
export const LIKE_ESCAPE = '!';
export const ESCAPE_CLAUSE = `ESCAPE '${LIKE_ESCAPE}'`;

/** Text matched literally by LIKE: the wildcards and the escape character itself are escaped. */
export function likeLiteral(text: string): string {
  return text.replace(/[!%_]/g, (char) => `${LIKE_ESCAPE}${char}`);
}

/** Pattern of a case-insensitive substring match (the columns use case-insensitive collations). */
export function likeContains(text: string): string {
  return `%${likeLiteral(text)}%`;
}

export function likePrefix(text: string): string {
  return `${likeLiteral(text)}%`;
}

/**
 * A datetime parameter. mysql2 formats Date objects itself (timezone 'Z'); on SQLite a datetime
 * is the text TypeORM writes, `YYYY-MM-DD HH:MM:SS.SSS` in UTC, which compares in time order.
 */
export function sqlDate(dataSource: DataSource, date: Date): Date | string {
  const type = dataSource.options.type;
  if (type === 'mysql' || type === 'mariadb') return date;
  return date.toISOString().replace('T', ' ').slice(0, 23);
}

export function placeholders(count: number): string {
  return new Array(count).fill('?').join(', ');
}

/** The integer a COUNT or an id column returns, whatever the driver's type for it. */
export function toNumber(value: unknown): number {
  return typeof value === 'bigint' ? Number(value) : Number(value ?? 0);
}

const sqliteQueues = new WeakMap<DataSource, Promise<unknown>>();

/**
 * Runs `fn` alone among the callers of this function on an SQLite data source. TypeORM shares
 * one query runner for SQLite, so two concurrent transactions would nest as savepoints and a
 * rollback of one could undo the other; MySQL and MariaDB give each its own connection.
 */
export function serializedOnSqlite<T>(dataSource: DataSource, fn: () => Promise<T>): Promise<T> {
  const type = dataSource.options.type;
  if (type === 'mysql' || type === 'mariadb') return fn();
  const previous = sqliteQueues.get(dataSource) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  sqliteQueues.set(
    dataSource,
    run.catch(() => undefined),
  );
  return run;
}

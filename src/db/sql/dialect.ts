import type { DataSource } from 'typeorm';

/**
 * What differs between the SQL of MariaDB/MySQL and of SQLite, decided once from the
 * configuration. Statement texts use `?` placeholders and run on both families; where the
 * families' SQL differs, the statement builders ask the dialect instead of branching on a driver.
 */
export type DialectName = 'mysql' | 'sqlite';

/** A datetime as a statement parameter of this dialect. */
export type SqlDate = Date | string;

/**
 * The LIKE escape character. Not `\`: in a MySQL string literal `'\'` does not even parse, and
 * `'\\'` is two characters for SQLite, so no spelling of a backslash escape runs on all three.
 */
const LIKE_ESCAPE = '!';

function likeLiteral(text: string): string {
  return text.replace(/[!%_]/g, (char) => `${LIKE_ESCAPE}${char}`);
}

export interface Dialect {
  readonly name: DialectName;
  /**
   * A datetime parameter. mysql2 formats Date objects itself (timezone 'Z'); on SQLite a datetime
   * is the text TypeORM writes, `YYYY-MM-DD HH:MM:SS.SSS` in UTC, which compares in time order.
   */
  date(date: Date): SqlDate;
  /** Whole seconds from one datetime expression to another. */
  secondsBetween(fromSql: string, toSql: string): string;
  /** An expression truncated to an integer. */
  integer(sql: string): string;
  /** Integer division of two integer expressions. */
  integerDivide(dividend: string, divisor: string): string;
  /** Text expressions (numbers are written in decimal) joined end to end. */
  concat(parts: readonly string[]): string;
  /** The number of elements of a JSON array held in a text expression. */
  jsonArrayLength(sql: string): string;
  /** An inner join (`… ON`) that reads its left side first, whatever the planner would choose. */
  readonly straightJoin: string;
  /** `?, ?, ?` for a list of `count` parameters. */
  placeholders(count: number): string;
  /** The ESCAPE clause that goes after every LIKE of these patterns. */
  readonly likeEscape: string;
  /** Text matched literally by LIKE: the wildcards and the escape character itself are escaped. */
  likeLiteral(text: string): string;
  /** Pattern of a case-insensitive substring match (the columns use case-insensitive collations). */
  likeContains(text: string): string;
  likePrefix(text: string): string;
  /** A boolean as a statement parameter. */
  bool(value: boolean | null): number | null;
  /**
   * Whether writers may send several statements in one exchange (Database.batches), carrying
   * values between them in session variables: MySQL/MariaDB. Elsewhere a writer runs its
   * statements one at a time inside Database.exclusive.
   */
  readonly statementBatches: boolean;
  /** The id the last INSERT of this connection generated, as an SQL expression. */
  readonly lastInsertId: string;
  /** A table or column name, quoted as this dialect quotes identifiers. */
  quote(identifier: string): string;
  /**
   * `INSERT INTO table (columns) VALUES (?, ...), ...` for `rows` rows: bulk writes send many
   * rows per statement, with one `?` per value.
   */
  insertRows(table: string, columns: readonly string[], rows: number): string;
  /** The id an INSERT of one row into a table with a generated id gave, from the driver's result. */
  insertId(result: unknown): number;
}

/** Both drivers quote by doubling the quote character inside the quotes. */
function quoteWith(quote: string): (identifier: string) => string {
  return (identifier) => `${quote}${identifier.split(quote).join(quote + quote)}${quote}`;
}

function insertRowsWith(quote: (identifier: string) => string) {
  return (table: string, columns: readonly string[], rows: number): string => {
    const row = `(${columns.map(() => '?').join(',')})`;
    const values = new Array<string>(rows).fill(row).join(',');
    return `INSERT INTO ${quote(table)} (${columns.map(quote).join(',')}) VALUES ${values}`;
  };
}

function insertId(result: unknown): number {
  // better-sqlite3 through TypeORM gives lastInsertRowid; mysql2 a ResultSetHeader.
  if (typeof result === 'number' || typeof result === 'bigint') return Number(result);
  if (typeof result === 'object' && result !== null && 'insertId' in result) {
    return Number((result as { insertId: unknown }).insertId);
  }
  throw new Error('the database returned no id for an INSERT');
}

const common = {
  likeEscape: `ESCAPE '${LIKE_ESCAPE}'`,
  likeLiteral,
  likeContains: (text: string) => `%${likeLiteral(text)}%`,
  likePrefix: (text: string) => `${likeLiteral(text)}%`,
  placeholders: (count: number) => new Array<string>(count).fill('?').join(', '),
  bool: (value: boolean | null) => (value === null ? null : value ? 1 : 0),
  insertId,
};

const quoteMysql = quoteWith('`');
const quoteSqlite = quoteWith('"');

const MYSQL: Dialect = {
  ...common,
  name: 'mysql',
  date: (date) => date,
  secondsBetween: (from, to) => `TIMESTAMPDIFF(SECOND, ${from}, ${to})`,
  integer: (sql) => `CAST(${sql} AS SIGNED)`,
  integerDivide: (dividend, divisor) => `(${dividend} DIV ${divisor})`,
  concat: (parts) => `CONCAT(${parts.join(', ')})`,
  jsonArrayLength: (sql) => `JSON_LENGTH(${sql})`,
  straightJoin: 'STRAIGHT_JOIN',
  statementBatches: true,
  lastInsertId: 'LAST_INSERT_ID()',
  quote: quoteMysql,
  insertRows: insertRowsWith(quoteMysql),
};

const SQLITE: Dialect = {
  ...common,
  name: 'sqlite',
  date: (date) => date.toISOString().replace('T', ' ').slice(0, 23),
  secondsBetween: (from, to) =>
    `CAST(strftime('%s', ${to}) AS INTEGER) - CAST(strftime('%s', ${from}) AS INTEGER)`,
  integer: (sql) => `CAST(${sql} AS INTEGER)`,
  integerDivide: (dividend, divisor) => `(${dividend} / ${divisor})`,
  concat: (parts) => `(${parts.join(' || ')})`,
  jsonArrayLength: (sql) => `json_array_length(${sql})`,
  // SQLite keeps the left table of a CROSS JOIN as the outer loop.
  straightJoin: 'CROSS JOIN',
  statementBatches: false,
  lastInsertId: 'last_insert_rowid()',
  quote: quoteSqlite,
  insertRows: insertRowsWith(quoteSqlite),
};

export function dialectNamed(name: DialectName): Dialect {
  return name === 'mysql' ? MYSQL : SQLITE;
}

/** The dialect of an open TypeORM data source (mysql and mariadb are one family). */
export function dialectOf(dataSource: DataSource): Dialect {
  const type = dataSource.options.type;
  return dialectNamed(type === 'mysql' || type === 'mariadb' ? 'mysql' : 'sqlite');
}

/** The integer a COUNT or an id column returns, whatever the driver's type for it. */
export function toNumber(value: unknown): number {
  return typeof value === 'bigint' ? Number(value) : Number(value ?? 0);
}

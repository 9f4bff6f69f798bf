import type { QueryRunner } from 'typeorm';
import type { Dialect, SqlDate } from '../../db/sql/dialect';

/** A statement parameter of a bulk load. */
export type SqlValue = string | number | SqlDate | null;

/** Parameters per statement, under SQLite's limit of 32766 bound variables. */
const MAX_PARAMETERS = 30_000;
/** Rough bytes per statement, well under MySQL/MariaDB's default max_allowed_packet (16 MB). */
const MAX_STATEMENT_BYTES = 4 * 1024 * 1024;

function rowsOf(result: unknown): Record<string, unknown>[] {
  return Array.isArray(result) ? (result as Record<string, unknown>[]) : [];
}

/**
 * The statements of one load: raw SQL on the load's query runner (inside its transaction), its
 * text built by the dialect of the database, so no statement branches on the driver.
 */
export class LoadStatements {
  constructor(
    private readonly runner: QueryRunner,
    readonly dialect: Dialect,
  ) {}

  run(sql: string, parameters: readonly unknown[] = []): Promise<unknown> {
    return this.runner.query(sql, parameters as unknown[]);
  }

  /** `SELECT columns FROM table WHERE column IN (values)`. */
  async selectIn(
    table: string,
    columns: readonly string[],
    column: string,
    values: readonly SqlValue[],
  ): Promise<Record<string, unknown>[]> {
    const { quote, placeholders } = this.dialect;
    const sql = `SELECT ${columns.map(quote).join(', ')} FROM ${quote(table)} WHERE ${quote(column)} IN (${placeholders(values.length)})`;
    return rowsOf(await this.run(sql, values));
  }

  /** Inserts one row and returns its generated id. */
  async insertOne(
    table: string,
    columns: readonly string[],
    values: readonly SqlValue[],
  ): Promise<number> {
    const result = await this.run(this.dialect.insertRows(table, columns, 1), values);
    return this.dialect.insertId(result);
  }
}

/** Buffers rows of one table and writes them with multi-row INSERTs. */
export class RowWriter {
  private readonly maxRows: number;
  private readonly fullSql: string;
  private parameters: SqlValue[] = [];
  private rows = 0;
  private bytes = 0;
  private sent = 0;

  constructor(
    private readonly statements: LoadStatements,
    private readonly table: string,
    private readonly columns: readonly string[],
    private readonly onFlush?: (written: number) => void,
  ) {
    this.maxRows = Math.floor(MAX_PARAMETERS / columns.length);
    // Full batches reuse one statement text (better-sqlite3 caches prepared statements by text).
    this.fullSql = statements.dialect.insertRows(table, columns, this.maxRows);
  }

  async add(values: readonly SqlValue[]): Promise<void> {
    for (const value of values) {
      this.parameters.push(value);
      // Up to 3 bytes per UTF-16 unit once encoded and escaped, about 8 for anything else.
      this.bytes += typeof value === 'string' ? value.length * 3 : 8;
    }
    this.rows += 1;
    if (this.rows === this.maxRows || this.bytes >= MAX_STATEMENT_BYTES) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.rows === 0) return;
    const sql =
      this.rows === this.maxRows
        ? this.fullSql
        : this.statements.dialect.insertRows(this.table, this.columns, this.rows);
    await this.statements.run(sql, this.parameters);
    this.sent += this.rows;
    this.parameters = [];
    this.rows = 0;
    this.bytes = 0;
    this.onFlush?.(this.sent);
  }

  /** Rows written so far. */
  get written(): number {
    return this.sent;
  }
}

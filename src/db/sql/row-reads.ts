import type { DataSource } from 'typeorm';
import { withStatementBatches, type SqlStatement } from './statement-batches';

/**
 * Rows of SELECT statements as the driver gives them: no query builder, no entity hydration.
 * The reads every request makes (credentials, loaders) take this path; a profile of getQuiz put
 * TypeORM's query building and the promise wrapper of each query at a fifth of a request's CPU.
 */
export interface RowReader {
  rows<T extends object = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
  ): Promise<T[]>;
}

interface PendingRead {
  statement: SqlStatement;
  resolve: (rows: object[]) => void;
  reject: (error: unknown) => void;
}

/** At most this many statements travel in one exchange (each is small; the text stays short). */
const MAX_STATEMENTS_PER_EXCHANGE = 32;

/** SELECTs sent through the batch pool (mysql2's callback API), one statement per exchange. */
function mysqlDirectReader(source: DataSource): RowReader {
  return {
    rows: <T extends object>(sql: string, params: readonly unknown[] = []) =>
      withStatementBatches(
        source,
        async (run) => {
          const [rows] = await run([{ sql, params: [...params] }]);
          return rows as T[];
        },
        'reads',
      ),
  };
}

/** Sends the reads as one exchange; if it fails, each alone, so each gets its own answer. */
async function sendTogether(source: DataSource, reads: readonly PendingRead[]): Promise<void> {
  try {
    const results = await withStatementBatches(
      source,
      (run) => run(reads.map((read) => read.statement)),
      'reads',
    );
    reads.forEach((read, index) => read.resolve(results[index] as object[]));
  } catch (error) {
    if (reads.length === 1) {
      (reads[0] as PendingRead).reject(error);
      return;
    }
    // The server stops at the first failing statement: the others are read again on their own.
    await Promise.all(reads.map((read) => sendTogether(source, [read])));
  }
}

/**
 * The reads asked for in one turn of the event loop travel together, in one exchange with the
 * server: a request's loaders that start at once (a quiz's questions, tags and author) cost one
 * round trip instead of one each. Meant for one request: a slow read delays only its own.
 */
function mysqlCoalescingReader(source: DataSource): RowReader {
  let pending: PendingRead[] = [];
  const flush = () => {
    const reads = pending;
    pending = [];
    for (let start = 0; start < reads.length; start += MAX_STATEMENTS_PER_EXCHANGE) {
      void sendTogether(source, reads.slice(start, start + MAX_STATEMENTS_PER_EXCHANGE));
    }
  };
  return {
    rows: <T extends object>(sql: string, params: readonly unknown[] = []) =>
      new Promise<T[]>((resolve, reject) => {
        // setImmediate runs once the loaders of this turn have dispatched their batches.
        if (pending.length === 0) setImmediate(flush);
        pending.push({
          statement: { sql, params: [...params] },
          resolve: resolve as (rows: object[]) => void,
          reject,
        });
      }),
  };
}

/** What is used of a better-sqlite3 connection. */
interface SqliteConnection {
  prepare(sql: string): { all(...params: unknown[]): unknown[] };
}

const SQLITE_STATEMENT_CACHE = 200;

/** better-sqlite3, in process: prepared statements kept by text, run on TypeORM's connection. */
function sqliteReader(source: DataSource): RowReader {
  const cache = new Map<string, ReturnType<SqliteConnection['prepare']>>();
  let cachedFor: SqliteConnection | undefined;
  return {
    rows: <T extends object>(sql: string, params: readonly unknown[] = []) => {
      try {
        const connection = (source.driver as unknown as { databaseConnection: SqliteConnection })
          .databaseConnection;
        // Statements belong to their connection: a reopened database starts a new cache.
        if (connection !== cachedFor) {
          cache.clear();
          cachedFor = connection;
        }
        let statement = cache.get(sql);
        if (!statement) {
          statement = connection.prepare(sql);
          cache.set(sql, statement);
          // Oldest first out: a Map keeps insertion order.
          if (cache.size > SQLITE_STATEMENT_CACHE)
            cache.delete(cache.keys().next().value as string);
        }
        // better-sqlite3 binds no booleans.
        const values = params.map((value) => (typeof value === 'boolean' ? Number(value) : value));
        source.logger.logQuery(sql, values);
        return Promise.resolve(statement.all(...values) as T[]);
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}

const direct = new WeakMap<DataSource, RowReader>();

/** Reads on their own: each statement is one exchange (MySQL) or one call (SQLite). */
export function directRowReader(source: DataSource): RowReader {
  let reader = direct.get(source);
  if (!reader) {
    reader =
      source.options.type === 'better-sqlite3' ? sqliteReader(source) : mysqlDirectReader(source);
    direct.set(source, reader);
  }
  return reader;
}

/**
 * A reader for one request: on MySQL/MariaDB the reads of one turn travel together; SQLite runs
 * in process, where a round trip costs nothing, so its reads stay direct.
 */
export function coalescingRowReader(source: DataSource): RowReader {
  return source.options.type === 'better-sqlite3'
    ? directRowReader(source)
    : mysqlCoalescingReader(source);
}

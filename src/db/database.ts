import type { DataSource } from 'typeorm';
import { dialectOf, type Dialect } from './sql/dialect';
import { coalescingRowReader, directRowReader, type RowReader } from './sql/row-reads';
import { withStatementBatches, type BatchRunner } from './sql/statement-batches';

/**
 * The database as the services see it: the dialect of its SQL and two handles. `read` serves
 * reads that may see another instance's writes a moment late (a replica, another cluster node);
 * `write` serves writes and the reads that must see this instance's own writes, such as the pages
 * of a data set it has just created. Today both are the one data source the configuration
 * opens; replicas or cluster nodes change this module, not the services.
 */
export interface Database {
  readonly dialect: Dialect;
  readonly read: DataSource;
  readonly write: DataSource;
  /**
   * Runs `work` alone among the callers of this function on SQLite, where TypeORM shares one
   * query runner: two concurrent transactions would nest as savepoints and a rollback of one
   * could undo the other. MySQL and MariaDB give each its own connection.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  /**
   * MySQL/MariaDB only: one connection on which each call of `run` sends its statements in one
   * exchange with the server (see statement-batches.ts).
   */
  batches<T>(work: (run: BatchRunner) => Promise<T>, pool?: 'writes' | 'charges'): Promise<T>;
  /** Raw rows through the write handle, each statement on its own (credentials, for one). */
  readonly writeRows: RowReader;
  /**
   * A reader of raw rows through the read handle for one request: the reads it is asked for in
   * one turn of the event loop travel in one exchange (row-reads.ts).
   */
  requestReader(): RowReader;
  readonly isOpen: boolean;
  /** Resolves when the database answers a trivial statement. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

class DataSourceDatabase implements Database {
  readonly dialect: Dialect;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly source: DataSource) {
    this.dialect = dialectOf(source);
  }

  get read(): DataSource {
    return this.source;
  }

  get write(): DataSource {
    return this.source;
  }

  get writeRows(): RowReader {
    return directRowReader(this.source);
  }

  requestReader(): RowReader {
    return coalescingRowReader(this.source);
  }

  get isOpen(): boolean {
    return this.source.isInitialized;
  }

  exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (this.dialect.name === 'mysql') return work();
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  batches<T>(
    work: (run: BatchRunner) => Promise<T>,
    pool: 'writes' | 'charges' = 'writes',
  ): Promise<T> {
    return withStatementBatches(this.source, work, pool);
  }

  async ping(): Promise<void> {
    await this.source.query('SELECT 1');
  }

  async close(): Promise<void> {
    if (this.source.isInitialized) await this.source.destroy();
  }
}

const databases = new WeakMap<DataSource, Database>();

/** The database of an open data source; one per data source, so state such as the SQLite queue is shared. */
export function databaseOf(source: DataSource): Database {
  let database = databases.get(source);
  if (!database) {
    database = new DataSourceDatabase(source);
    databases.set(source, database);
  }
  return database;
}

import type { DataSource } from 'typeorm';

/** A statement with its `?` parameters. */
export interface SqlStatement {
  sql: string;
  params: unknown[];
}

/**
 * A user variable of the MySQL session, given where a parameter goes: mysql2 writes its name
 * into the statement instead of a quoted value (values with `toSqlString` are written as is).
 */
export interface SqlVariable {
  toSqlString(): string;
}

export function sqlVariable(name: 'data_set_id'): SqlVariable {
  return { toSqlString: () => `@${name}` };
}

function isSqlVariable(value: unknown): value is SqlVariable {
  return typeof (value as Partial<SqlVariable> | null)?.toSqlString === 'function';
}

/** Sends statements as one batch and resolves with each one's result, in order. */
export type BatchRunner = (statements: readonly SqlStatement[]) => Promise<unknown[]>;

/** The parts of mysql2's callback API used here. */
interface BatchConnection {
  format(sql: string, values: unknown[]): string;
  query(sql: string, callback: (error: Error | null, result: unknown) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  release(): void;
  destroy(): void;
}

interface BatchPool {
  getConnection(callback: (error: Error | null, connection: BatchConnection) => void): void;
  on(event: 'connection', listener: (connection: BatchConnection) => void): void;
  end(callback: (error: Error | null) => void): void;
}

/** What is used of TypeORM's MySQL driver: its mysql2 module and its connection options. */
interface MysqlDriverInternals {
  mysql: { createPool(options: object): BatchPool };
  createConnectionOptions(options: object, credentials: object): object | Promise<object>;
}

/**
 * What a batch pool serves: `writes` (transactions that commit, whose connections wait on the
 * log flush), `reads` (plain SELECTs), so that a read never queues behind a commit, or `charges`
 * (each request's rate-limit count). A set writer holds its `writes` connection, transaction
 * open, until its request's charge answers: were charges drawn from the same pool, writers
 * holding every connection would wait for charges queued behind them, for ever.
 */
export type BatchPoolRole = 'writes' | 'reads' | 'charges';

const pools = new WeakMap<DataSource, Map<BatchPoolRole, Promise<BatchPool>>>();

/** The batch pools once open, read synchronously by the pool gauges (pool-usage.ts). */
const openedPools = new WeakMap<DataSource, Map<BatchPoolRole, BatchPool>>();

/** The data source's batch pools that are open, by role (none until a batch ran). */
export function openedBatchPools(dataSource: DataSource): ReadonlyMap<BatchPoolRole, unknown> {
  return openedPools.get(dataSource) ?? new Map();
}

/**
 * The data source's pool of connections that accept several statements in one exchange. Only
 * the batches of this module use it, with statements built by the service and values escaped
 * by mysql2; every other query keeps the driver's own single-statement pool. Its options are
 * the driver's own (host, credentials, TLS, charset, timezone, pool size), so both pools agree.
 */
function batchPool(dataSource: DataSource, role: BatchPoolRole): Promise<BatchPool> {
  // A pool opened after destroy() would never be closed, and would keep the process alive.
  if (!dataSource.isInitialized) {
    return Promise.reject(new Error('the data source is not initialized'));
  }
  let byRole = pools.get(dataSource);
  if (!byRole) {
    byRole = new Map();
    pools.set(dataSource, byRole);
  }
  let pool = byRole.get(role);
  if (!pool) {
    const driver = dataSource.driver as unknown as MysqlDriverInternals;
    pool = Promise.resolve(
      driver.createConnectionOptions(dataSource.options, dataSource.options),
    ).then((options) => {
      // Without FOUND_ROWS, an upsert counts 0 for a row it leaves as it was, 1 for an insert and
      // 2 for an update, so its writer can tell the three apart (answers.sql.ts).
      const flags = (options as { flags?: string | string[] }).flags;
      const listed = Array.isArray(flags) ? flags : flags ? String(flags).split(',') : [];
      const created = driver.mysql.createPool({
        ...options,
        multipleStatements: true,
        flags: [...listed, '-FOUND_ROWS'],
      });
      created.on('connection', (connection) => {
        // As the driver does for its own connections: an error of an idle connection is
        // logged, not thrown out of the event loop.
        connection.on('error', (error) =>
          dataSource.logger.log('warn', `MySQL batch connection error: ${error.message}`),
        );
        // Values are escaped with backslashes: a server that treats them as plain characters
        // (NO_BACKSLASH_ESCAPES) would let a value end its string, and here start a statement.
        connection.query(
          "SET SESSION sql_mode = REPLACE(@@SESSION.sql_mode, 'NO_BACKSLASH_ESCAPES', '')",
          () => undefined,
        );
      });
      let opened = openedPools.get(dataSource);
      if (!opened) {
        opened = new Map();
        openedPools.set(dataSource, opened);
      }
      opened.set(role, created);
      return created;
    });
    // A failed opening is not kept: the next batch tries again.
    pool.catch(() => byRole.delete(role));
    byRole.set(role, pool);
  }
  return pool;
}

function connectionOf(pool: BatchPool): Promise<BatchConnection> {
  return new Promise((resolve, reject) =>
    pool.getConnection((error, connection) => (error ? reject(error) : resolve(connection))),
  );
}

/**
 * Runs `work` with one MySQL/MariaDB connection on which each call of its runner sends all its
 * statements in one exchange with the server: one write, one round trip. The server runs them
 * in order and stops at the first that fails, whose error the runner rejects with; the
 * statements after it do not run. Statements are logged through the data source's logger like
 * any other query. A connection whose `work` failed is closed rather than reused, so no state
 * of a failed batch (an open transaction, a session setting) reaches another caller.
 */
export async function withStatementBatches<T>(
  dataSource: DataSource,
  work: (run: BatchRunner) => Promise<T>,
  role: BatchPoolRole = 'writes',
): Promise<T> {
  const connection = await connectionOf(await batchPool(dataSource, role));
  const run: BatchRunner = (statements) => {
    const sql = statements
      .map((statement) => {
        dataSource.logger.logQuery(
          statement.sql,
          statement.params.map((param) => (isSqlVariable(param) ? param.toSqlString() : param)),
        );
        return connection.format(statement.sql, statement.params);
      })
      .join(';\n');
    return new Promise((resolve, reject) =>
      connection.query(sql, (error, result) => {
        if (error) {
          dataSource.logger.logQueryError(error, sql, []);
          reject(error);
          return;
        }
        // One statement answers with its own result, several with the list of theirs.
        const results = statements.length === 1 ? [result] : (result as unknown[]);
        if (results.length !== statements.length) {
          reject(
            new Error(`a batch of ${statements.length} statements gave ${results.length} results`),
          );
          return;
        }
        resolve(results);
      }),
    );
  };
  try {
    const result = await work(run);
    connection.release();
    return result;
  } catch (error) {
    connection.destroy();
    throw error;
  }
}

/** Closes the data source's batch pools, if it opened any. */
export async function closeStatementBatches(dataSource: DataSource): Promise<void> {
  const byRole = pools.get(dataSource);
  if (!byRole) return;
  pools.delete(dataSource);
  openedPools.delete(dataSource);
  await Promise.all(
    [...byRole.values()].map(async (pool) => {
      const opened = await pool.catch(() => undefined);
      if (!opened) return;
      await new Promise<void>((resolve, reject) =>
        opened.end((error) => (error ? reject(error) : resolve())),
      );
    }),
  );
}

import fs from 'node:fs';
import path from 'node:path';
import { DataSource, type DataSourceOptions, type Logger, type Migration } from 'typeorm';
import { DEFAULT_MIGRATION_LOCK_TIMEOUT_SECONDS, type DatabaseConfig } from '../config/config';
import { ENTITIES } from './entities';
import { CONNECT_TIMEOUT_MS, nodeName, NodeSelector } from './failover';
import { clusterAwareMysql } from './galera-session';
import { instanceName, withMigrationLock, type MigrationLog } from './migration-lock';
import { MYSQL_MIGRATIONS } from './migrations/mysql';
import { SQLITE_MIGRATIONS } from './migrations/sqlite';
import { SnakeNamingStrategy } from './naming.strategy';
import { SqliteDatabase } from './sqlite-driver';
import { closeStatementBatches } from './sql/statement-batches';

export interface DataSourceExtras {
  /** Receives every SQL statement (tests count statements with it). */
  logger?: Logger;
  /** Says which instance migrated and which waited for it (the service's logger). */
  migrationLog?: MigrationLog;
}

/** Requests that may wait for each connection of the pool. */
export const QUEUED_REQUESTS_PER_CONNECTION = 100;

/** The TypeORM options for a database config; the type follows the URL scheme. */
export function dataSourceOptions(
  db: DatabaseConfig,
  extras: DataSourceExtras = {},
): DataSourceOptions {
  const common = {
    entities: ENTITIES,
    namingStrategy: new SnakeNamingStrategy(),
    // The schema only ever changes through reviewed migrations.
    synchronize: false,
    migrationsRun: false,
    logging: extras.logger ? (['query', 'error'] as const) : false,
    logger: extras.logger,
  };
  if (db.dialect === 'sqlite') {
    return {
      ...common,
      type: 'better-sqlite3',
      driver: SqliteDatabase,
      database: db.sqlitePath ?? ':memory:',
      migrations: SQLITE_MIGRATIONS,
      enableWAL: true,
      prepareDatabase: (database: { pragma: (sql: string) => unknown }) => {
        // Several requests may write at once; wait for the lock instead of failing at once.
        database.pragma('busy_timeout = 5000');
      },
    } as DataSourceOptions;
  }
  const selector = db.nodes?.length ? new NodeSelector(db.nodes) : undefined;
  selector?.onSwitch((from, to, cause) =>
    extras.migrationLog?.warn(
      { from: nodeName(from), to: nodeName(to), cause: (cause as Error)?.message },
      'database node does not answer: moving to the next one',
    ),
  );
  return {
    ...common,
    type: db.dialect,
    url: db.url,
    // mysql2, giving each connection causal reads when the server is a Galera node, and moving
    // every pool of this data source to the next node of DATABASE_URL when one stops answering.
    driver: clusterAwareMysql(selector),
    migrations: MYSQL_MIGRATIONS,
    charset: 'utf8mb4_unicode_ci',
    // Datetimes are UTC on the wire and in the database.
    timezone: 'Z',
    poolSize: db.poolSize,
    // A bounded wait for a connection: past it a request is refused at once with a 503 and
    // Retry-After rather than queued without end.
    extra: {
      connectionLimit: db.poolSize,
      waitForConnections: true,
      queueLimit: db.poolSize * QUEUED_REQUESTS_PER_CONNECTION,
      // A node that does not answer is given up on soon, for the next one or a 503, not a hang.
      connectTimeout: CONNECT_TIMEOUT_MS,
    },
  } as DataSourceOptions;
}

/** A TypeORM data source that also closes the pool of statement batches it may have opened. */
class ServiceDataSource extends DataSource {
  override async destroy(): Promise<void> {
    try {
      await closeStatementBatches(this);
    } finally {
      await super.destroy();
    }
  }
}

export function createDataSource(db: DatabaseConfig, extras: DataSourceExtras = {}): DataSource {
  if (db.dialect === 'sqlite' && db.sqlitePath) {
    fs.mkdirSync(path.dirname(db.sqlitePath), { recursive: true });
  }
  return new ServiceDataSource(dataSourceOptions(db, extras));
}

/**
 * Applies the pending migrations under the migration lock (src/db/migration-lock.ts), so that
 * replicas starting at once on one database migrate it once; returns those this call applied.
 * MySQL/MariaDB: the lease is kept on a connection of its own, renewed while the migrations hold
 * the pool's. SQLite: the same lease on the file's one connection, so a service and a CLI started
 * on one new file at once do not both create the tables; an in-memory database has no other
 * process to meet.
 */
export async function migrate(
  dataSource: DataSource,
  db: DatabaseConfig,
  log?: MigrationLog,
): Promise<Migration[]> {
  const run = () => dataSource.runMigrations({ transaction: 'each' });
  if (db.dialect === 'sqlite' && (!db.sqlitePath || db.sqlitePath === ':memory:')) return run();
  const lockSource =
    db.dialect === 'sqlite'
      ? dataSource
      : new DataSource({
          ...dataSourceOptions({ ...db, poolSize: 1 }),
          entities: [],
          migrations: [],
        } as DataSourceOptions);
  const instance = instanceName();
  try {
    if (!lockSource.isInitialized) await lockSource.initialize();
    const applied = await withMigrationLock(
      lockSource,
      {
        instance,
        log,
        timeoutSeconds: db.migrationLockTimeoutSeconds ?? DEFAULT_MIGRATION_LOCK_TIMEOUT_SECONDS,
      },
      run,
    );
    log?.info(
      { instance, applied: applied.map((migration) => migration.name) },
      applied.length ? 'applied migrations' : 'no pending migration',
    );
    return applied;
  } finally {
    if (lockSource !== dataSource && lockSource.isInitialized) await lockSource.destroy();
  }
}

/** Opens the connection and, unless disabled, applies pending migrations (under the lock). */
export async function openDatabase(
  db: DatabaseConfig,
  extras: DataSourceExtras = {},
): Promise<DataSource> {
  const dataSource = createDataSource(db, extras);
  await dataSource.initialize();
  try {
    if (db.migrateOnStart) await migrate(dataSource, db, extras.migrationLog);
  } catch (error) {
    await dataSource.destroy().catch(() => undefined);
    throw error;
  }
  return dataSource;
}

import type { DialectName } from './dialect';

/**
 * The statements of the migration lease (table migration_lock): one row per lock name, taken by
 * an INSERT, renewed and released by its holder, taken over only once expired. Plain row writes
 * on a table with a primary key, so they also coordinate the nodes of a Galera cluster, where
 * GET_LOCK and LOCK TABLES stay local to one node. Every time is the database's (UTC), never a
 * process clock, so the replicas' clocks need not agree.
 */

/** The table; bookkeeping like TypeORM's own `migrations` table, made before any migration runs. */
export const MIGRATION_LOCK_TABLE = 'migration_lock';

/** What the database says of the current lease. */
export interface MigrationLease {
  holder: string;
  acquiredAt: string;
  expiresAt: string;
  /** Past its expiry, in the database's time: its holder stopped renewing it. */
  expired: boolean;
}

export interface MigrationLockStatements {
  /** CREATE TABLE IF NOT EXISTS: every replica may run it at once. */
  createTable: string;
  /** (name, holder, leaseSeconds): fails with a duplicate key while someone holds the lease. */
  insert: string;
  /** (holder, leaseSeconds, name): takes over an expired lease; 1 row changed when taken. */
  takeOverExpired: string;
  /** (leaseSeconds, name, holder): pushes the holder's lease on; 0 rows when it was lost. */
  renew: string;
  /** (name, holder): ends the holder's lease. */
  release: string;
  /** (name): the current lease as holder, acquired_at, expires_at (UTC text), expired (0/1). */
  read: string;
}

const MYSQL_NOW = 'UTC_TIMESTAMP(6)';
const mysqlLater = `${MYSQL_NOW} + INTERVAL ? SECOND`;
// SQLite stores datetimes as `YYYY-MM-DD HH:MM:SS.SSS` text in UTC, which compares in time order.
const SQLITE_NOW = "strftime('%Y-%m-%d %H:%M:%f', 'now')";
const sqliteLater = "strftime('%Y-%m-%d %H:%M:%f', 'now', '+' || ? || ' seconds')";

export function migrationLockStatements(dialect: DialectName): MigrationLockStatements {
  const mysql = dialect === 'mysql';
  const now = mysql ? MYSQL_NOW : SQLITE_NOW;
  const later = mysql ? mysqlLater : sqliteLater;
  const time = mysql ? 'datetime(6)' : 'varchar(32)';
  const text = (column: string) =>
    mysql ? `DATE_FORMAT(${column}, '%Y-%m-%d %H:%i:%s.%f')` : column;
  return {
    createTable:
      `CREATE TABLE IF NOT EXISTS ${MIGRATION_LOCK_TABLE} (` +
      `name varchar(64) NOT NULL, holder varchar(255) NOT NULL, ` +
      `acquired_at ${time} NOT NULL, expires_at ${time} NOT NULL, PRIMARY KEY (name))` +
      (mysql ? ' ENGINE=InnoDB' : ''),
    insert: `INSERT INTO ${MIGRATION_LOCK_TABLE} (name, holder, acquired_at, expires_at) VALUES (?, ?, ${now}, ${later})`,
    takeOverExpired: `UPDATE ${MIGRATION_LOCK_TABLE} SET holder = ?, acquired_at = ${now}, expires_at = ${later} WHERE name = ? AND expires_at < ${now}`,
    renew: `UPDATE ${MIGRATION_LOCK_TABLE} SET expires_at = ${later} WHERE name = ? AND holder = ?`,
    release: `DELETE FROM ${MIGRATION_LOCK_TABLE} WHERE name = ? AND holder = ?`,
    read: `SELECT holder, ${text('acquired_at')} AS acquired_at, ${text('expires_at')} AS expires_at, CASE WHEN expires_at < ${now} THEN 1 ELSE 0 END AS expired FROM ${MIGRATION_LOCK_TABLE} WHERE name = ?`,
  };
}

import {
  RateLimiterMySQL,
  RateLimiterSQLite,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { DataSource } from 'typeorm';

/** A budget of points per window of seconds. */
export interface RateLimitWindow {
  points: number;
  durationSeconds: number;
}

/** The table of the counters (migration RateLimits); expired rows are purged by the maintenance job. */
export const RATE_LIMIT_TABLE = 'rate_limits';

/** What is used of TypeORM's drivers: the connections they already hold. */
interface DriverConnections {
  /** MySQL/MariaDB: the driver's mysql2 pool (callback API). */
  pool?: unknown;
  /** MySQL/MariaDB: the database the pool's connections use. */
  database?: string;
  /** SQLite: the better-sqlite3 connection. */
  databaseConnection?: unknown;
}

/**
 * rate-limiter-flexible's SQL store over the data source's own connections, so counts live in
 * the database every instance shares, with no pool of its own. A key that has used its budget is
 * also remembered in this process until its window ends, so a client hammering past its limit
 * costs no database work here.
 */
export function createRateLimitStore(
  dataSource: DataSource,
  window: RateLimitWindow,
): RateLimiterAbstract {
  const driver = dataSource.driver as unknown as DriverConnections;
  const options = {
    keyPrefix: 'key',
    points: window.points,
    duration: window.durationSeconds,
    tableName: RATE_LIMIT_TABLE,
    tableCreated: true,
    clearExpiredByTimeout: false,
    inMemoryBlockOnConsumed: window.points,
  };
  const type = dataSource.options.type;
  if (type === 'mysql' || type === 'mariadb') {
    return new RateLimiterMySQL({
      ...options,
      storeClient: driver.pool,
      storeType: 'pool',
      dbName: driver.database,
    });
  }
  return new RateLimiterSQLite({
    ...options,
    storeClient: driver.databaseConnection,
    storeType: 'better-sqlite3',
  });
}

import {
  RateLimiterMySQL,
  RateLimiterSQLite,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { retryingConflicts } from './conflict-retry';
import type { Database } from './database';
import {
  credentialsInForceOf,
  credentialsInForceSql,
  type CredentialsInForce,
  type CredentialsToConfirm,
} from './sql/credentials.sql';

/** A budget of points per window of seconds. */
export interface RateLimitWindow {
  points: number;
  durationSeconds: number;
}

/**
 * Options of a charge that also confirms cached credentials (`confirm`): the MySQL store reads
 * whether they still hold in the same exchange and sets `found`.
 */
export interface CredentialsCheck {
  confirm?: CredentialsToConfirm;
  found?: CredentialsInForce;
}

/** The table of the counters (migration RateLimits); expired rows are purged by the maintenance job. */
export const RATE_LIMIT_TABLE = 'rate_limits';

/** What is used of TypeORM's SQLite driver: the better-sqlite3 connection it already holds. */
interface SqliteDriverConnection {
  databaseConnection?: unknown;
}

/**
 * rate-limiter-flexible's MySQL store, its statements sent in one exchange. The library runs
 * BEGIN, its upsert, a SELECT of the counter and COMMIT as four round trips on a connection it
 * holds throughout; here the same four statements travel as one batch (statement-batches), so
 * counting a request costs one round trip. The decisions (points, blocks, windows) stay the
 * library's.
 */
class OneExchangeMySQLStore extends RateLimiterMySQL {
  constructor(
    options: ConstructorParameters<typeof RateLimiterMySQL>[0],
    private readonly db: Database,
  ) {
    super(options);
  }

  /** The library's upsert: the counter's row after adding `points` (or setting them). */
  _upsert(
    key: string,
    points: number,
    msDuration: number,
    forceExpire = false,
    options: CredentialsCheck = {},
  ): Promise<unknown> {
    const now = Date.now();
    const expire = msDuration > 0 ? now + msDuration : null;
    const upsert = forceExpire
      ? {
          sql: `INSERT INTO ${RATE_LIMIT_TABLE} (\`key\`, points, expire) VALUES (?, ?, ?)
                ON DUPLICATE KEY UPDATE points = ?, expire = ?`,
          params: [key, points, expire, points, expire],
        }
      : {
          sql: `INSERT INTO ${RATE_LIMIT_TABLE} (\`key\`, points, expire) VALUES (?, ?, ?)
                ON DUPLICATE KEY UPDATE points = IF(expire <= ?, ?, points + (?)),
                                        expire = IF(expire <= ?, ?, expire)`,
          params: [key, points, expire, now, points, points, now, expire],
        };
    const { confirm } = options;
    // Two instances counting one key on two Galera nodes at once: one commit loses certification
    // and is rolled back whole, so counting it again counts it once.
    return retryingConflicts(() =>
      this.db.batches(async (run) => {
        const [, , rows, , credentials] = await run([
          { sql: 'START TRANSACTION', params: [] },
          upsert,
          {
            sql: `SELECT points, expire FROM ${RATE_LIMIT_TABLE} WHERE \`key\` = ?`,
            params: [key],
          },
          { sql: 'COMMIT', params: [] },
          ...(confirm === undefined ? [] : [credentialsInForceSql(confirm)]),
        ]);
        if (confirm !== undefined) {
          options.found = credentialsInForceOf(credentials as Record<string, unknown>[]);
        }
        return rows;
      }, 'charges'),
    );
  }
}

/**
 * rate-limiter-flexible's SQL store over the data source, so counts live in the database every
 * instance shares: in one exchange per request on MySQL/MariaDB, on the better-sqlite3
 * connection TypeORM holds on SQLite. A key that has used its budget is also remembered in this
 * process until its window ends, so a client hammering past its limit costs no database work.
 */
export function createRateLimitStore(db: Database, window: RateLimitWindow): RateLimiterAbstract {
  const options = {
    keyPrefix: 'key',
    points: window.points,
    duration: window.durationSeconds,
    tableName: RATE_LIMIT_TABLE,
    tableCreated: true,
    clearExpiredByTimeout: false,
    inMemoryBlockOnConsumed: window.points,
  };
  if (db.dialect.name === 'mysql') {
    // The store client is only read by the library's own reads and deletes, which go unused.
    return new OneExchangeMySQLStore({ ...options, storeClient: {}, storeType: 'pool' }, db);
  }
  const driver = db.write.driver as unknown as SqliteDriverConnection;
  return new RateLimiterSQLite({
    ...options,
    storeClient: driver.databaseConnection,
    storeType: 'better-sqlite3',
  });
}

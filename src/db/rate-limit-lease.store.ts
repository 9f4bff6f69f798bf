import { retryingConflicts } from './conflict-retry';
import type { Database } from './database';

/** The table of the windows' counters (migration RateLimits); ended windows are purged by the maintenance job. */
export const RATE_LIMIT_TABLE = 'rate_limits';

/**
 * The row whose `points` count the changes of credentials (a key revoked, a person erased). Its
 * `expire` is NULL: the purge of ended windows never takes it.
 */
export const CREDENTIAL_CHANGES_KEY = 'credentials:changes';

/**
 * A slice asked of a key's window: at least `need` points (else nothing), at most `want`, and
 * never more than `1/SHARE_DIVISOR` of what is left, so that instances holding slices of a
 * budget nearly spent hold little of it.
 */
export interface SliceRequest {
  key: string;
  need: number;
  want: number;
  /** The window's budget. */
  limit: number;
  windowMs: number;
}

/** What a take answered: the points granted (0: refused) and the window's row after it. */
export interface SliceGrant {
  granted: number;
  /** Points of the window leased so far by every instance, this grant included. */
  leased: number;
  /** End of the window, in milliseconds since the epoch. */
  expire: number;
}

/**
 * Leading every statement of a lease, so that statement logs (and the tests counting a request's
 * statements) tell them from a request's own: a lease serves many requests.
 */
const LEASE_TAG = '/* rate-limit lease */';

/** No slice is more than this share of the points left in the window. */
export const SHARE_DIVISOR = 8;

/** The grant on a fresh window, where every point is left. */
function freshGrant(request: SliceRequest): number {
  if (request.need > request.limit) return 0;
  return Math.max(request.need, Math.min(request.want, Math.floor(request.limit / SHARE_DIVISOR)));
}

/**
 * MySQL/MariaDB: one upsert decides the grant from the row it updates (a window that ended starts
 * again), keeps it in a session variable, and the row is read back in the same exchange.
 */
function mysqlTake(db: Database, request: SliceRequest, now: number): Promise<SliceGrant> {
  const expire = now + request.windowMs;
  const fresh = freshGrant(request);
  const { need, want, limit } = request;
  // Assignments run left to right: `points` reads the window's old `expire`, which `expire`,
  // assigned after, still reads. One transaction, so the row read back is the one just written,
  // and a failure anywhere before COMMIT (a certification conflict, a causal wait that timed
  // out) rolls the take back whole before it is sent again.
  const statements = [
    { sql: `${LEASE_TAG} START TRANSACTION`, params: [] },
    {
      sql: `${LEASE_TAG} INSERT INTO ${RATE_LIMIT_TABLE} (\`key\`, points, expire)
            VALUES (?, @rate_limit_grant := ?, ?)
            ON DUPLICATE KEY UPDATE
              points = IF(expire IS NULL OR expire <= ?, (@rate_limit_grant := ?),
                points + (@rate_limit_grant := IF(? - points >= ?,
                  GREATEST(?, LEAST(?, FLOOR((? - points) / ${SHARE_DIVISOR}))), 0))),
              expire = IF(expire IS NULL OR expire <= ?, ?, expire)`,
      params: [request.key, fresh, expire, now, fresh, limit, need, need, want, limit, now, expire],
    },
    {
      sql: `${LEASE_TAG} SELECT @rate_limit_grant AS granted, points, expire FROM ${RATE_LIMIT_TABLE} WHERE \`key\` = ?`,
      params: [request.key],
    },
    { sql: `${LEASE_TAG} COMMIT`, params: [] },
  ];
  return retryingConflicts(() =>
    db.batches(async (run) => {
      const [, , rows] = await run(statements);
      const row = (rows as Record<string, unknown>[])[0] ?? {};
      return {
        granted: Number(row.granted ?? 0),
        leased: Number(row.points ?? 0),
        expire: Number(row.expire ?? expire),
      };
    }, 'charges'),
  );
}

/** SQLite: one process owns the file; the row is read and written inside its exclusive turn. */
function sqliteTake(db: Database, request: SliceRequest, now: number): Promise<SliceGrant> {
  return db.exclusive(async () => {
    const rows = (await db.write.query(
      `${LEASE_TAG} SELECT points, expire FROM ${RATE_LIMIT_TABLE} WHERE key = ?`,
      [request.key],
    )) as { points: number; expire: number | string | null }[];
    const row = rows[0];
    const running = row !== undefined && row.expire !== null && Number(row.expire) > now;
    const expire = running ? Number(row.expire) : now + request.windowMs;
    const before = running ? Number(row.points) : 0;
    const left = request.limit - before;
    const granted =
      left >= request.need
        ? Math.max(request.need, Math.min(request.want, Math.floor(left / SHARE_DIVISOR)))
        : 0;
    await db.write.query(
      `${LEASE_TAG} INSERT INTO ${RATE_LIMIT_TABLE} (key, points, expire) VALUES (?, ?, ?)
       ON CONFLICT(key) DO UPDATE SET points = excluded.points, expire = excluded.expire`,
      [request.key, before + granted, expire],
    );
    return { granted, leased: before + granted, expire };
  });
}

/** Leases a slice of a key's window (one exchange on MySQL/MariaDB). */
export function takeSlice(db: Database, request: SliceRequest): Promise<SliceGrant> {
  const now = Date.now();
  return db.dialect.name === 'mysql' ? mysqlTake(db, request, now) : sqliteTake(db, request, now);
}

/** Gives back unspent points of a slice, if its window is still the row's. */
export async function giveBackSlice(
  db: Database,
  key: string,
  points: number,
  expire: number,
): Promise<void> {
  const sql = `${LEASE_TAG} UPDATE ${RATE_LIMIT_TABLE} SET points = CASE WHEN points > ? THEN points - ? ELSE 0 END
               WHERE \`key\` = ? AND expire = ?`;
  const params = [points, points, key, expire];
  if (db.dialect.name === 'mysql') {
    await retryingConflicts(() => db.write.query(sql, params));
  } else {
    await db.exclusive(() => db.write.query(sql, params));
  }
}

/** The count of credential changes (0 before the first); one read of one row. */
export async function readCredentialChanges(db: Database): Promise<number> {
  const rows = (await db.write.query(
    `/* credential changes */ SELECT points FROM ${RATE_LIMIT_TABLE} WHERE \`key\` = ?`,
    [CREDENTIAL_CHANGES_KEY],
  )) as { points: number }[];
  return Number(rows[0]?.points ?? 0);
}

/**
 * The statement that counts one more change of credentials, for the transaction that makes it
 * (a key revoked, a person erased): instances that keep credentials in memory drop them when
 * they read a new count.
 */
export function credentialChangeStatement(dialect: Database['dialect']): {
  sql: string;
  params: string[];
} {
  return {
    sql:
      dialect.name === 'mysql'
        ? `INSERT INTO ${RATE_LIMIT_TABLE} (\`key\`, points, expire) VALUES (?, 1, NULL)
           ON DUPLICATE KEY UPDATE points = points + 1`
        : `INSERT INTO ${RATE_LIMIT_TABLE} (key, points, expire) VALUES (?, 1, NULL)
           ON CONFLICT(key) DO UPDATE SET points = points + 1`,
    params: [CREDENTIAL_CHANGES_KEY],
  };
}

import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { DataSource, QueryRunner } from 'typeorm';
import {
  migrationLockStatements,
  type MigrationLease,
  type MigrationLockStatements,
} from './sql/migration-lock.sql';

/** Where the lock says who migrated and who waited (the service's pino logger fits). */
export interface MigrationLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface MigrationLockOptions {
  /** How long a replica waits for another one's migrations before giving up, in seconds. */
  timeoutSeconds: number;
  /** The name of this instance in the lease and the logs; host/pid/random by default. */
  instance?: string;
  log?: MigrationLog;
  /** Lifetime of a lease that is not renewed: how long a dead holder blocks the others. */
  leaseSeconds?: number;
  /** Pause between two attempts of a waiter. */
  pollMs?: number;
}

/** The lock's row: one lock for the whole schema. */
const LOCK_NAME = 'migrations';
const DEFAULT_LEASE_SECONDS = 30;
const DEFAULT_POLL_MS = 500;

/** Errors that mean "someone else holds or is taking the lease": wait and try again. */
const CONTENTION_CODES = new Set([
  'ER_DUP_ENTRY', // the lease row exists
  'ER_LOCK_DEADLOCK', // 1213: InnoDB deadlock, or a Galera certification failure at COMMIT
  'ER_LOCK_WAIT_TIMEOUT',
  'SQLITE_CONSTRAINT_PRIMARYKEY',
  'SQLITE_CONSTRAINT_UNIQUE',
  'SQLITE_BUSY', // another process writes the file (its migrations)
]);

function isContention(error: unknown): boolean {
  const raw = error as { code?: unknown; driverError?: { code?: unknown } } | null;
  const code = raw?.driverError?.code ?? raw?.code;
  return typeof code === 'string' && CONTENTION_CODES.has(code);
}

/** Start-up gave up waiting for another instance's migrations. */
export class MigrationLockTimeoutError extends Error {
  constructor(
    readonly holder: string,
    readonly expiresAt: string,
    timeoutSeconds: number,
  ) {
    super(
      `migrations are locked by ${holder} (its lease runs until ${expiresAt} UTC, renewed while it ` +
        `migrates); gave up after waiting ${timeoutSeconds} s (MIGRATION_LOCK_TIMEOUT_SECONDS). ` +
        `If that instance is gone, its lease expires by itself; else raise the timeout.`,
    );
    this.name = 'MigrationLockTimeoutError';
  }
}

/** This process, as leases and logs name it: host, pid and a random tag (pids repeat in containers). */
export function instanceName(): string {
  return `${os.hostname()}/${process.pid}/${randomBytes(3).toString('hex')}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One lease held on one connection. */
class Lease {
  constructor(
    private readonly runner: QueryRunner,
    private readonly sql: MigrationLockStatements,
    readonly instance: string,
    private readonly leaseSeconds: number,
  ) {}

  /**
   * Takes the lease when it is free or expired. Writes only then: a waiter does not queue its
   * writes behind the holder's migrations (on SQLite they would wait for the file's write lock).
   */
  async tryTake(): Promise<{ taken: boolean; lease?: MigrationLease }> {
    const lease = await this.current();
    if (lease && !lease.expired) return { taken: false, lease };
    try {
      if (!lease) {
        await this.runner.query(this.sql.insert, [LOCK_NAME, this.instance, this.leaseSeconds]);
        return { taken: true };
      }
      // Conditional on the expiry, in the database's time: of two waiters only one changes the
      // row (on Galera the other fails certification at COMMIT with 1213).
      const result = await this.runner.query(
        this.sql.takeOverExpired,
        [this.instance, this.leaseSeconds, LOCK_NAME],
        true,
      );
      if (Number(result.affected) === 1) return { taken: true, lease };
    } catch (error) {
      // A duplicate key: another instance inserted first.
      if (!isContention(error)) throw error;
    }
    return { taken: false };
  }

  async current(): Promise<MigrationLease | undefined> {
    try {
      const rows = (await this.runner.query(this.sql.read, [LOCK_NAME])) as {
        holder: string;
        acquired_at: string;
        expires_at: string;
        expired: unknown;
      }[];
      const row = rows[0];
      return row
        ? {
            holder: row.holder,
            acquiredAt: row.acquired_at,
            expiresAt: row.expires_at,
            expired: Number(row.expired) === 1,
          }
        : undefined;
    } catch (error) {
      if (isContention(error)) return undefined;
      throw error;
    }
  }

  /** False when the lease was lost (it expired and another instance took it). */
  async renew(): Promise<boolean> {
    const result = await this.runner.query(
      this.sql.renew,
      [this.leaseSeconds, LOCK_NAME, this.instance],
      true,
    );
    return Number(result.affected) === 1;
  }

  async release(): Promise<void> {
    await this.runner.query(this.sql.release, [LOCK_NAME, this.instance]);
  }
}

/**
 * Runs `work` (the migrations) while holding the migration lease of the database `lockSource`
 * reaches, so that replicas starting at once on one database migrate it once: the first takes
 * the lease and migrates, the others wait (polling, at most `timeoutSeconds`), then take it in
 * turn and find nothing pending. The lease is renewed while `work` runs, released after it (also
 * when it fails), and taken over once expired when its holder died. `lockSource` should have a
 * connection of its own (renewals must not queue behind a long migration).
 */
export async function withMigrationLock<T>(
  lockSource: DataSource,
  options: MigrationLockOptions,
  work: () => Promise<T>,
): Promise<T> {
  const dialect = lockSource.options.type === 'better-sqlite3' ? 'sqlite' : 'mysql';
  const sql = migrationLockStatements(dialect);
  const instance = options.instance ?? instanceName();
  const leaseSeconds = options.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  const log = options.log;
  const runner = lockSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query(sql.createTable);
    const lease = new Lease(runner, sql, instance, leaseSeconds);
    const started = Date.now();
    let waitingFor: MigrationLease | undefined;
    for (;;) {
      const { taken, lease: seen } = await lease.tryTake();
      if (taken) {
        if (seen) {
          log?.warn(
            { instance, previousHolder: seen.holder, expiredAt: seen.expiresAt },
            'took over an expired migration lock (its holder stopped renewing it)',
          );
        }
        log?.info(
          { instance, waitedMs: waitingFor ? Date.now() - started : 0 },
          'migration lock taken',
        );
        break;
      }
      if (seen && seen.holder !== waitingFor?.holder) {
        log?.info(
          { instance, holder: seen.holder, expiresAt: seen.expiresAt },
          'waiting for the migration lock held by another instance',
        );
      }
      waitingFor = seen ?? waitingFor;
      if (Date.now() - started >= options.timeoutSeconds * 1000) {
        throw new MigrationLockTimeoutError(
          waitingFor?.holder ?? 'another instance',
          waitingFor?.expiresAt ?? 'unknown',
          options.timeoutSeconds,
        );
      }
      // A little jitter so waiters started together do not retry in step.
      await sleep((options.pollMs ?? DEFAULT_POLL_MS) * (0.75 + Math.random() / 2));
    }
    return await holdWhile(lease, leaseSeconds, log, work);
  } finally {
    await runner.release();
  }
}

/** Renews the lease every third of its life while `work` runs, then releases it. */
async function holdWhile<T>(
  lease: Lease,
  leaseSeconds: number,
  log: MigrationLog | undefined,
  work: () => Promise<T>,
): Promise<T> {
  const { instance } = lease;
  let renewing = Promise.resolve();
  const timer = setInterval(
    () => {
      renewing = lease.renew().then(
        (held) => {
          if (!held) log?.warn({ instance }, 'the migration lock was lost while migrating');
        },
        (error: unknown) =>
          log?.warn({ instance, err: error }, 'the migration lock could not be renewed'),
      );
    },
    (leaseSeconds * 1000) / 3,
  );
  try {
    return await work();
  } finally {
    clearInterval(timer);
    await renewing;
    // A failed release leaves the lease to expire by itself: the others wait that long, no more.
    await lease.release().then(
      () => log?.info({ instance }, 'migration lock released'),
      (error: unknown) =>
        log?.warn({ instance, err: error }, 'the migration lock could not be released'),
    );
  }
}

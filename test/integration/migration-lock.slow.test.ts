import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import type { DataSource } from 'typeorm';
import { runCli } from '../../src/cli/cli';
import type { DatabaseConfig } from '../../src/config/config';
import { openDatabase } from '../../src/db/data-source';
import {
  MigrationLockTimeoutError,
  withMigrationLock,
  type MigrationLog,
} from '../../src/db/migration-lock';
import { MYSQL_MIGRATIONS } from '../../src/db/migrations/mysql';
import { SQLITE_MIGRATIONS } from '../../src/db/migrations/sqlite';
import { migrationLockStatements } from '../../src/db/sql/migration-lock.sql';
import { admin, createTestDatabase, type TestDatabase } from '../helpers/database';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process';

/** Log records kept in order, as the service's logger would write them. */
function recordingLog(): MigrationLog & { records: { level: string; message: string }[] } {
  const records: { level: string; message: string; [field: string]: unknown }[] = [];
  return {
    records,
    info: (fields, message) => records.push({ level: 'info', message, ...fields }),
    warn: (fields, message) => records.push({ level: 'warn', message, ...fields }),
  };
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never happened: ${what}`);
}

/** The names in the migrations table, with how many times each is there. */
async function appliedMigrations(name: string): Promise<Record<string, number>> {
  return admin(async (conn) => {
    const [rows] = (await conn.query(
      `SELECT name, COUNT(*) AS n FROM \`${name}\`.migrations GROUP BY name`,
    )) as unknown as [{ name: string; n: number }[]];
    return Object.fromEntries(rows.map((row) => [row.name, Number(row.n)]));
  });
}

const ALL_ONCE = Object.fromEntries(MYSQL_MIGRATIONS.map((migration) => [migration.name, 1]));

/** The lease of another instance, written as it would have: expired or live for an hour. */
async function holdLease(name: string, holder: string, expired: boolean): Promise<void> {
  await admin(async (conn) => {
    await conn.query(`USE \`${name}\``);
    await conn.query(migrationLockStatements('mysql').createTable);
    await conn.query(
      `INSERT INTO migration_lock (name, holder, acquired_at, expires_at)
       VALUES ('migrations', ?, UTC_TIMESTAMP(6) - INTERVAL 2 HOUR, UTC_TIMESTAMP(6) + INTERVAL ? SECOND)`,
      [holder, expired ? -60 : 3600],
    );
  });
}

async function leaseRows(name: string): Promise<unknown[]> {
  return admin(async (conn) => {
    const [rows] = await conn.query(`SELECT holder FROM \`${name}\`.migration_lock`);
    return rows as unknown[];
  });
}

describe('migrations when several instances start at once (MariaDB)', () => {
  let db: TestDatabase;
  const opened: DataSource[] = [];

  beforeEach(async () => {
    db = await createTestDatabase('migration_lock');
  });

  afterEach(async () => {
    for (const dataSource of opened.splice(0))
      if (dataSource.isInitialized) await dataSource.destroy();
    await db.drop();
  });

  it('two service processes started together on an empty database both come up; one migrates, the other waits', async () => {
    const env = { DATABASE_URL: db.url, LOG_LEVEL: 'info', COOKIE_SECRET: 'x'.repeat(40) };
    const services: ServiceProcess[] = [];
    try {
      const started = await Promise.allSettled([
        startServiceProcess(env),
        startServiceProcess(env),
      ]);
      for (const result of started) if (result.status === 'fulfilled') services.push(result.value);
      expect(started.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled']);
      for (const service of services) {
        const ready = await fetch(`${service.url}/readyz`);
        expect(ready.status).toBe(200);
      }
      expect(await appliedMigrations(db.name)).toEqual(ALL_ONCE);

      // The logs are buffered: wait for each instance's outcome, then read who did what.
      const outcome = (service: ServiceProcess) =>
        /"msg":"(applied migrations|no pending migration)"/.exec(service.output())?.[1];
      await until(() => services.every((service) => outcome(service) !== undefined), 'outcomes');
      const outcomes = services.map(outcome).sort();
      expect(outcomes).toEqual(['applied migrations', 'no pending migration']);
      const applier = services.find((service) => outcome(service) === 'applied migrations');
      const other = services.find((service) => outcome(service) === 'no pending migration');
      const appliedLine = JSON.parse(
        applier
          ?.output()
          .split('\n')
          .find((line) => line.includes('"applied migrations"')) ?? '{}',
      ) as { applied?: string[]; instance?: string };
      expect(appliedLine.applied).toEqual(MYSQL_MIGRATIONS.map((migration) => migration.name));
      // The other one waited for the lease of the one that migrated (named in its log), unless it
      // started after the migrations were done.
      const waited = other?.output().includes('"msg":"waiting for the migration lock');
      if (waited) expect(other?.output()).toContain(`"holder":"${appliedLine.instance}"`);
      expect(await leaseRows(db.name)).toEqual([]);
    } finally {
      await Promise.all(services.map((service) => service.stop()));
    }
  });

  it('takes over the lease of an instance that died (expired), and migrates', async () => {
    await holdLease(db.name, 'dead-replica', true);
    const log = recordingLog();
    const dataSource = await openDatabase(db.config, { migrationLog: log });
    opened.push(dataSource);
    expect(log.records).toContainEqual(
      expect.objectContaining({ level: 'warn', previousHolder: 'dead-replica' }),
    );
    expect(log.records).toContainEqual(
      expect.objectContaining({ message: 'applied migrations', applied: Object.keys(ALL_ONCE) }),
    );
    expect(await appliedMigrations(db.name)).toEqual(ALL_ONCE);
    expect(await leaseRows(db.name)).toEqual([]);
  });

  it('waits while a live instance holds the lease, then migrates once it is released', async () => {
    await holdLease(db.name, 'busy-replica', false);
    const log = recordingLog();
    let settled = false;
    const opening = openDatabase(db.config, { migrationLog: log }).finally(() => {
      settled = true;
    });
    await until(
      () => log.records.some((record) => record.message.startsWith('waiting for the migration')),
      'the start waits',
    );
    expect(log.records).toContainEqual(expect.objectContaining({ holder: 'busy-replica' }));
    // Nothing migrated while the other instance holds the lease.
    const tables = await admin(async (conn) => {
      const [rows] = await conn.query(
        'SELECT table_name FROM information_schema.tables WHERE table_schema = ?',
        [db.name],
      );
      return (rows as unknown[]).length;
    });
    expect(tables).toBe(1);
    expect(settled).toBe(false);

    await admin((conn) => conn.query(`DELETE FROM \`${db.name}\`.migration_lock`));
    opened.push(await opening);
    expect(await appliedMigrations(db.name)).toEqual(ALL_ONCE);
    expect(log.records.map((record) => record.message)).toContain('applied migrations');
  });

  it('renews the lease while the holder migrates, so nobody takes it over meanwhile', async () => {
    const holderSource = await openDatabase({ ...db.config, migrateOnStart: false });
    const otherSource = await openDatabase({ ...db.config, migrateOnStart: false });
    opened.push(holderSource, otherSource);
    const expiry = async () =>
      admin(async (conn) => {
        const [rows] = await conn.query(
          `SELECT holder, DATE_FORMAT(expires_at, '%Y-%m-%d %H:%i:%s.%f') AS expires_at FROM \`${db.name}\`.migration_lock`,
        );
        return (rows as { holder: string; expires_at: string }[])[0];
      });
    const contender = await withMigrationLock(
      holderSource,
      { instance: 'long-migration', timeoutSeconds: 30, leaseSeconds: 1 },
      async () => {
        const first = await expiry();
        // A lease of 1 s, renewed every third of a second: its expiry moves on.
        await until(
          async () => (await expiry())?.expires_at !== first?.expires_at,
          'the lease is renewed',
        );
        // Another instance waits longer than the lease lasts, and still does not get it.
        return withMigrationLock(
          otherSource,
          { instance: 'second', timeoutSeconds: 3, pollMs: 100 },
          async () => 'taken',
        ).catch((error: unknown) => error);
      },
    );
    expect(contender).toBeInstanceOf(MigrationLockTimeoutError);
    expect((contender as MigrationLockTimeoutError).holder).toBe('long-migration');
    expect(await expiry()).toBeUndefined();
  });

  it('gives up after MIGRATION_LOCK_TIMEOUT_SECONDS with a message naming the holder (start and db:migrate)', async () => {
    await holdLease(db.name, 'busy-replica', false);
    const config: DatabaseConfig = { ...db.config, migrationLockTimeoutSeconds: 1 };
    const failure = await openDatabase(config).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(MigrationLockTimeoutError);
    expect((failure as Error).message).toMatch(/busy-replica.*MIGRATION_LOCK_TIMEOUT_SECONDS/);

    const stdout = new Capture();
    const stderr = new Capture();
    const input = new PassThrough();
    input.end('');
    const code = await runCli(['db:migrate'], {
      stdout,
      stderr,
      stdin: input,
      env: { DATABASE_URL: db.url, NODE_ENV: 'test', MIGRATION_LOCK_TIMEOUT_SECONDS: '1' },
    });
    expect(code).toBe(1);
    expect(stderr.text).toMatch(/^waiting for the migrations of busy-replica \(lease until /m);
    expect(stderr.text).toMatch(
      /^error: migrations are locked by busy-replica .*\(MIGRATION_LOCK_TIMEOUT_SECONDS\)/m,
    );
    expect(await appliedMigrations(db.name).catch(() => ({}))).toEqual({});
  });
});

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

describe('migrations when two service processes start at once on one new SQLite file', () => {
  it('both come up; each migration is applied once', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-migration-lock-'));
    const file = path.join(dir, 'quiz.sqlite');
    const services: ServiceProcess[] = [];
    let reader: DataSource | undefined;
    try {
      const env = { DATABASE_URL: `sqlite:${file}`, COOKIE_SECRET: 'x'.repeat(40) };
      const started = await Promise.allSettled([
        startServiceProcess(env),
        startServiceProcess(env),
      ]);
      for (const result of started) if (result.status === 'fulfilled') services.push(result.value);
      expect(started.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled']);
      for (const service of services)
        expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
      reader = await openDatabase({
        dialect: 'sqlite',
        sqlitePath: file,
        embedded: false,
        poolSize: 1,
        migrateOnStart: false,
      });
      const rows = (await reader.query(
        'SELECT name, COUNT(*) AS n FROM migrations GROUP BY name',
      )) as { name: string; n: number }[];
      expect(Object.fromEntries(rows.map((row) => [row.name, Number(row.n)]))).toEqual(
        Object.fromEntries(SQLITE_MIGRATIONS.map((migration) => [migration.name, 1])),
      );
    } finally {
      if (reader?.isInitialized) await reader.destroy();
      await Promise.all(services.map((service) => service.stop()));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

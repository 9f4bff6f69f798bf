import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import type { DataSource } from 'typeorm';
import type { DatabaseConfig } from '../../src/config/config';
import { openDatabase, type DataSourceExtras } from '../../src/db/data-source';
import { BACKENDS_GLOBAL } from './backend-selection';
import { copyStatements, recordedSnapshot } from './schema-template';

/** The server tests run against; a MariaDB on 127.0.0.1 unless TEST_DATABASE_URL says otherwise. */
export const TEST_SERVER_URL = process.env.TEST_DATABASE_URL ?? 'mariadb://root@127.0.0.1:3306';

export interface TestDatabase {
  name: string;
  config: DatabaseConfig;
  url: string;
  drop: () => Promise<void>;
}

function serverUrl(server = TEST_SERVER_URL): URL {
  const url = new URL(server);
  url.pathname = '/';
  return url;
}

/** A connection to the server (by default the tests' one) as its administrator, closed once `fn` is done. */
export async function admin<T>(
  fn: (conn: mysql.Connection) => Promise<T>,
  options: { multipleStatements?: boolean; server?: string } = {},
): Promise<T> {
  const url = serverUrl(options.server);
  const conn = await mysql.createConnection({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username || 'root'),
    password: decodeURIComponent(url.password),
    multipleStatements: options.multipleStatements ?? false,
  });
  try {
    return await fn(conn);
  } finally {
    await conn.end();
  }
}

function describeDatabase(name: string, server = TEST_SERVER_URL): TestDatabase {
  const url = serverUrl(server);
  url.pathname = `/${name}`;
  const scheme = url.protocol.replace(/:$/, '') as 'mysql' | 'mariadb';
  return {
    name,
    url: url.toString(),
    config: {
      dialect: scheme,
      url: url.toString(),
      embedded: false,
      poolSize: 5,
      migrateOnStart: true,
    },
    drop: () =>
      admin((conn) => conn.query(`DROP DATABASE IF EXISTS \`${name}\``), { server }).then(
        () => undefined,
      ),
  };
}

const databaseName = (label: string) =>
  `quiz_${label.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`;

/** Creates an empty database of its own for one test file; `drop` removes it. */
export async function createTestDatabase(
  label = 'test',
  server = TEST_SERVER_URL,
): Promise<TestDatabase> {
  const name = databaseName(label);
  await admin(
    (conn) =>
      conn.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`),
    { server },
  );
  return describeDatabase(name, server);
}

/**
 * A database of its own with every migration applied: a copy of the template the jest global
 * setup migrated for the run (test/helpers/schema-template.ts), or, outside such a run, an empty
 * database the caller migrates.
 */
async function createMigratedTestDatabase(label: string): Promise<TestDatabase> {
  const snapshot = recordedSnapshot();
  if (!snapshot) return createTestDatabase(label);
  const name = databaseName(label);
  await admin((conn) => conn.query(copyStatements(snapshot, name)), { multipleStatements: true });
  return describeDatabase(name);
}

/**
 * A migrated MariaDB database and its open data source. The schema is the template's, which the
 * real migrations made once for the run; opening still runs the migrations, and finds none
 * pending.
 */
export async function openTestDatabase(
  label = 'test',
  extras: DataSourceExtras = {},
): Promise<{ db: TestDatabase; dataSource: DataSource; close: () => Promise<void> }> {
  return openDatabaseOf(await createMigratedTestDatabase(label), extras);
}

/**
 * A MariaDB database migrated here, by every migration run on it in turn, and its open data
 * source: for the tests of the migrations themselves.
 */
export async function openFreshlyMigratedTestDatabase(
  label = 'test',
  extras: DataSourceExtras = {},
): Promise<{ db: TestDatabase; dataSource: DataSource; close: () => Promise<void> }> {
  return openDatabaseOf(await createTestDatabase(label), extras);
}

async function openDatabaseOf(
  db: TestDatabase,
  extras: DataSourceExtras,
): Promise<{ db: TestDatabase; dataSource: DataSource; close: () => Promise<void> }> {
  const dataSource = await openDatabase(db.config, extras);
  return {
    db,
    dataSource,
    close: async () => {
      if (dataSource.isInitialized) await dataSource.destroy();
      await db.drop();
    },
  };
}

/** A migrated SQLite database in memory. */
export async function openSqliteTestDatabase(
  extras: DataSourceExtras = {},
): Promise<{ dataSource: DataSource; close: () => Promise<void> }> {
  const dataSource = await openDatabase(
    {
      dialect: 'sqlite',
      sqlitePath: ':memory:',
      embedded: false,
      poolSize: 1,
      migrateOnStart: true,
    },
    extras,
  );
  // The app's shutdown may already have closed it; an in-memory database has nothing to drop.
  return {
    dataSource,
    close: async () => {
      if (dataSource.isInitialized) await dataSource.destroy();
    },
  };
}

/**
 * The nodes of the Galera cluster the cluster tier runs (test/cluster/cluster.setup.ts names
 * them in this variable, comma-separated); none outside that tier.
 */
export const GALERA_URLS_VARIABLE = 'QUIZ_GALERA_URLS';

export function galeraNodeUrls(): string[] {
  const urls = process.env[GALERA_URLS_VARIABLE]?.split(',').filter(Boolean) ?? [];
  if (urls.length === 0) {
    throw new Error(`no Galera cluster: ${GALERA_URLS_VARIABLE} is unset (run the cluster tier)`);
  }
  return urls;
}

/**
 * A database of its own on the Galera cluster, made through node `node` and migrated there by
 * every migration in turn (so each run checks the cluster accepts them all).
 */
export async function openGaleraTestDatabase(
  label = 'test',
  extras: DataSourceExtras = {},
  node = 0,
): Promise<{ db: TestDatabase; dataSource: DataSource; close: () => Promise<void> }> {
  const server = galeraNodeUrls()[node];
  if (!server) throw new Error(`the cluster has no node ${node + 1}`);
  return openDatabaseOf(await createTestDatabase(label, server), extras);
}

/** The same database through another node of the cluster (already migrated). */
export async function openOnGaleraNode(
  db: TestDatabase,
  node: number,
  extras: DataSourceExtras = {},
): Promise<DataSource> {
  const url = new URL(galeraNodeUrls()[node] ?? '');
  url.pathname = `/${db.name}`;
  return openDatabase({ ...db.config, url: url.toString(), migrateOnStart: false }, extras);
}

/**
 * The backends a suite run with `describe.each(BACKENDS)` covers: MariaDB and SQLite, or those a
 * test file named before importing the suite (test/cluster/galera-backend.ts names Galera), so a
 * suite runs against the cluster without a copy.
 */
export type Backend = 'MariaDB' | 'SQLite';
/** A MySQL-dialect backend too, but only in the cluster tier. */
export type ClusterBackend = 'Galera';

/**
 * Typed as the default pair so suites keyed by backend still type-check; a file that names
 * Galera runs only suites that merely pass the name to openBackend (results-oracle).
 */
export const BACKENDS = ((globalThis as Record<string, unknown>)[BACKENDS_GLOBAL] ?? [
  'MariaDB',
  'SQLite',
]) as readonly Backend[];

/** A migrated database of the given kind, for suites that run on several. */
export async function openBackend(
  backend: Backend | ClusterBackend,
  label: string,
  extras: DataSourceExtras = {},
): Promise<{ dataSource: DataSource; close: () => Promise<void> }> {
  if (backend === 'Galera') return openGaleraTestDatabase(label, extras);
  return backend === 'MariaDB' ? openTestDatabase(label, extras) : openSqliteTestDatabase(extras);
}

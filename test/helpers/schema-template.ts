import fs from 'node:fs';
import type mysql from 'mysql2/promise';
import { runFile } from './run-state';

/**
 * Migrate once, copy per test file. The jest global setup migrates one template database with
 * the real migrations (src/db/migrations, through TypeORM as the service does) and records its
 * schema here: each table's `SHOW CREATE TABLE` (foreign keys, indexes, AUTO_INCREMENT and all)
 * and which tables hold rows (the `migrations` table). A test file's database is then that
 * schema replayed and those rows copied, in one exchange with the server, instead of every
 * migration run again. The global setup checks once that a copy reads back identical to the
 * template; a schema with more than tables (views, triggers, routines, events) is not copied and
 * every test file migrates its own database, as before.
 */

export interface SchemaSnapshot {
  /** The migrated template database; it lives as long as the run. */
  template: string;
  /** `SHOW CREATE TABLE` of each table of the template. */
  createTables: string[];
  /** Tables of the template that hold rows, copied whole into each copy. */
  tablesWithRows: string[];
}

export const SNAPSHOT_FILE = 'schema-snapshot.json';

const quote = (name: string) => `\`${name.replace(/`/g, '``')}\``;

/** What, besides tables, a schema holds; a copy made of tables would miss it. */
async function otherObjects(conn: mysql.Connection, schema: string): Promise<string[]> {
  const [rows] = await conn.query(
    `SELECT CONCAT('view ', TABLE_NAME) AS what FROM information_schema.TABLES
       WHERE TABLE_SCHEMA = ? AND TABLE_TYPE <> 'BASE TABLE'
     UNION ALL SELECT CONCAT('trigger ', TRIGGER_NAME) FROM information_schema.TRIGGERS
       WHERE TRIGGER_SCHEMA = ?
     UNION ALL SELECT CONCAT('routine ', ROUTINE_NAME) FROM information_schema.ROUTINES
       WHERE ROUTINE_SCHEMA = ?
     UNION ALL SELECT CONCAT('event ', EVENT_NAME) FROM information_schema.EVENTS
       WHERE EVENT_SCHEMA = ?`,
    [schema, schema, schema, schema],
  );
  return (rows as { what: string }[]).map((row) => row.what);
}

async function tableNames(conn: mysql.Connection, schema: string): Promise<string[]> {
  const [rows] = await conn.query(
    `SELECT TABLE_NAME AS name FROM information_schema.TABLES
       WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME`,
    [schema],
  );
  return (rows as { name: string }[]).map((row) => row.name);
}

async function showCreateTables(conn: mysql.Connection, schema: string): Promise<string[]> {
  const statements: string[] = [];
  for (const table of await tableNames(conn, schema)) {
    const [rows] = await conn.query(`SHOW CREATE TABLE ${quote(schema)}.${quote(table)}`);
    statements.push((rows as Record<string, string>[])[0]['Create Table']);
  }
  return statements;
}

/**
 * The snapshot of a migrated database, or why it cannot be copied table by table (then test
 * files migrate their own databases).
 */
export async function takeSnapshot(
  conn: mysql.Connection,
  template: string,
): Promise<SchemaSnapshot | { notCopied: string }> {
  const others = await otherObjects(conn, template);
  if (others.length > 0) return { notCopied: `the schema holds ${others.join(', ')}` };
  const tablesWithRows: string[] = [];
  for (const table of await tableNames(conn, template)) {
    const [rows] = await conn.query(
      `SELECT EXISTS (SELECT 1 FROM ${quote(template)}.${quote(table)}) AS n`,
    );
    if (Number((rows as { n: unknown }[])[0].n) > 0) tablesWithRows.push(table);
  }
  return { template, createTables: await showCreateTables(conn, template), tablesWithRows };
}

/**
 * The statements that make `name` a copy of the template: one exchange on a connection opened
 * with `multipleStatements`. Tables come in name order, so foreign keys are checked only once
 * all exist (as mysqldump does).
 */
export function copyStatements(snapshot: SchemaSnapshot, name: string): string {
  return [
    `CREATE DATABASE ${quote(name)} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    `USE ${quote(name)}`,
    'SET FOREIGN_KEY_CHECKS = 0',
    ...snapshot.createTables,
    ...snapshot.tablesWithRows.map(
      (table) =>
        `INSERT INTO ${quote(name)}.${quote(table)} SELECT * FROM ${quote(snapshot.template)}.${quote(table)}`,
    ),
    'SET FOREIGN_KEY_CHECKS = 1',
  ].join(';\n');
}

/** Throws unless `copy` reads back as the template: the same tables, DDL and rows. */
export async function expectSameSchema(
  conn: mysql.Connection,
  template: string,
  copy: string,
): Promise<void> {
  const [want, got] = [await showCreateTables(conn, template), await showCreateTables(conn, copy)];
  if (JSON.stringify(want) !== JSON.stringify(got)) {
    throw new Error(
      `a copy of ${template} differs from it:\n${want.join('\n')}\n---\n${got.join('\n')}`,
    );
  }
  for (const table of await tableNames(conn, template)) {
    const [rows] = await conn.query(
      `CHECKSUM TABLE ${quote(template)}.${quote(table)}, ${quote(copy)}.${quote(table)} EXTENDED`,
    );
    const [a, b] = (rows as { Checksum: unknown }[]).map((row) => String(row.Checksum));
    if (a !== b) throw new Error(`the rows of ${table} differ between ${template} and its copy`);
  }
}

let cached: SchemaSnapshot | null | undefined;

/** The snapshot the global setup recorded for this run, if any. */
export function recordedSnapshot(): SchemaSnapshot | null {
  if (cached !== undefined) return cached;
  const file = runFile(SNAPSHOT_FILE);
  cached =
    file && fs.existsSync(file)
      ? (JSON.parse(fs.readFileSync(file, 'utf8')) as SchemaSnapshot)
      : null;
  return cached;
}

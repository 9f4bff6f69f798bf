import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DataSource, type DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../../src/config/config';
import { dataSourceOptions, openDatabase } from '../../src/db/data-source';
import { MYSQL_MIGRATIONS } from '../../src/db/migrations/mysql';
import { SQLITE_MIGRATIONS } from '../../src/db/migrations/sqlite';
import {
  BACKENDS,
  createTestDatabase,
  openFreshlyMigratedTestDatabase,
  openSqliteTestDatabase,
} from '../helpers/database';

describe('migrations', () => {
  it('give, on an empty MariaDB database, a schema with no pending change against the entities', async () => {
    const { dataSource, close } = await openFreshlyMigratedTestDatabase('schema');
    try {
      const tables = await dataSource.query('SHOW TABLES');
      expect(tables.length).toBeGreaterThanOrEqual(15);
      const pending = await dataSource.driver.createSchemaBuilder().log();
      expect(pending.upQueries.map((q) => q.query)).toEqual([]);
      expect(await dataSource.showMigrations()).toBe(false);
    } finally {
      await close();
    }
  });

  it('give, on an empty SQLite database, a schema with no pending change against the entities', async () => {
    const { dataSource, close } = await openSqliteTestDatabase();
    try {
      const pending = await dataSource.driver.createSchemaBuilder().log();
      expect(pending.upQueries.map((q) => q.query)).toEqual([]);
      expect(await dataSource.showMigrations()).toBe(false);
    } finally {
      await close();
    }
  });
});

describe.each(BACKENDS)('the computed_results migration on %s', (backend) => {
  // Rows as the initial schema stored them: a user set and a set of computed results, both in
  // data_set_items. The migration must move the results and keep the members, and back.
  const FAR = '2099-01-01 00:00:00';

  async function openAtInitialSchema() {
    if (backend === 'MariaDB') {
      const db = await createTestDatabase('migration');
      const dataSource = new DataSource({
        ...dataSourceOptions({ ...db.config, migrateOnStart: false }),
        migrations: MYSQL_MIGRATIONS.slice(0, 1),
      } as DataSourceOptions);
      await dataSource.initialize();
      return { dataSource, config: db.config, drop: db.drop };
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-migration-'));
    const config: DatabaseConfig = {
      dialect: 'sqlite',
      sqlitePath: path.join(dir, 'db.sqlite'),
      embedded: false,
      poolSize: 1,
      migrateOnStart: true,
    };
    const dataSource = new DataSource({
      ...dataSourceOptions(config),
      migrations: SQLITE_MIGRATIONS.slice(0, 1),
    } as DataSourceOptions);
    await dataSource.initialize();
    return {
      dataSource,
      config,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }

  it('moves the results of existing sets to computed_results and back', async () => {
    const initial = await openAtInitialSchema();
    let migrated: DataSource | undefined;
    try {
      await initial.dataSource.runMigrations();
      const sets = `INSERT INTO data_sets (id, item_type, owner_user_id, owner_api_key_id, total_number_of_items,
                                           number_of_items_per_page, parameters, expires_at)
                    VALUES (1, 'user', NULL, 7, 2, 50, NULL, ?), (2, 'computedResult', NULL, 7, 2, 50, NULL, ?)`;
      await initial.dataSource.query(sets, [FAR, FAR]);
      await initial.dataSource.query(
        `INSERT INTO data_set_items (data_set_id, position, item_id, user_id, quiz_id, session_id,
                                     aggregation_function, nb_good_answers, percentile)
         VALUES (1, 1, 11, NULL, NULL, NULL, NULL, NULL, NULL),
                (1, 2, 12, NULL, NULL, NULL, NULL, NULL, NULL),
                (2, 1, NULL, 11, 5, 9, NULL, 3, 62.5),
                (2, 2, NULL, 12, NULL, NULL, 'average', 1.5, NULL)`,
      );
      await initial.dataSource.destroy();

      migrated = await openDatabase(initial.config);
      expect(await migrated.showMigrations()).toBe(false);
      const results = (await migrated.query(
        `SELECT data_set_id, position, user_id, quiz_id, session_id, aggregation_function,
                nb_good_answers, percentile FROM computed_results ORDER BY position`,
      )) as Record<string, unknown>[];
      expect(
        results.map((row) => Object.values(row).map((v) => (v === null ? null : String(v)))),
      ).toEqual([
        ['2', '1', '11', '5', '9', null, '3', '62.5'],
        ['2', '2', '12', null, null, 'average', '1.5', null],
      ]);
      const members = (await migrated.query(
        'SELECT data_set_id, position, item_id FROM data_set_items ORDER BY data_set_id, position',
      )) as Record<string, unknown>[];
      expect(members.map((row) => Object.values(row).map(String))).toEqual([
        ['1', '1', '11'],
        ['1', '2', '12'],
      ]);

      // Back to the schema before ComputedResultsTable: the migrations after it are undone first.
      const migrations = backend === 'MariaDB' ? MYSQL_MIGRATIONS : SQLITE_MIGRATIONS;
      const after =
        migrations.length - 1 - migrations.findIndex((m) => /^ComputedResultsTable/.test(m.name));
      // As TypeORM runs migrations on SQLite: foreign keys off, so the tables a migration
      // rebuilds under another name keep the references other tables make to them.
      if (backend === 'SQLite') await migrated.query('PRAGMA foreign_keys = OFF');
      for (let undone = 0; undone <= after; undone += 1) await migrated.undoLastMigration();
      const back = (await migrated.query(
        `SELECT data_set_id, position, item_id, user_id, aggregation_function, percentile
           FROM data_set_items ORDER BY data_set_id, position`,
      )) as Record<string, unknown>[];
      expect(
        back.map((row) => Object.values(row).map((v) => (v === null ? null : String(v)))),
      ).toEqual([
        ['1', '1', '11', null, null, null],
        ['1', '2', '12', null, null, null],
        ['2', '1', null, '11', null, '62.5'],
        ['2', '2', null, '12', 'average', null],
      ]);
    } finally {
      if (migrated?.isInitialized) await migrated.destroy();
      if (initial.dataSource.isInitialized) await initial.dataSource.destroy();
      await initial.drop();
    }
  });
});

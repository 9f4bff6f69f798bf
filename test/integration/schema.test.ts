import { openSqliteTestDatabase, openTestDatabase } from '../helpers/database';

describe('migrations', () => {
  it('give, on an empty MariaDB database, a schema with no pending change against the entities', async () => {
    const { dataSource, close } = await openTestDatabase('schema');
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

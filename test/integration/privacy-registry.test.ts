import { Writable } from 'node:stream';
import type { DataSource } from 'typeorm';
import { runCli } from '../../src/cli/cli';
import { databaseOf } from '../../src/db/database';
import { readSchemaColumns } from '../../src/db/sql/schema-columns.sql';
import { PERSONAL_DATA_REGISTRY } from '../../src/domain/privacy/personal-data.registry';
import { registryProblems } from '../../src/domain/privacy/registry-problems';
import { BACKENDS, openBackend, TEST_SERVER_URL } from '../helpers/database';

/**
 * The registry of personal data (contract.md §14.2) against the schema the real migrations make,
 * on both databases: every table and column declared, every reference to users declared as naming
 * a person; and the check fails on a column added without a declaration.
 */

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

describe.each(BACKENDS)('the registry of personal data on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'privacy_registry'));
  });

  afterAll(async () => {
    await close?.();
  });

  it('declares every table and column of the migrated schema, and nothing else', async () => {
    const schema = await readSchemaColumns(databaseOf(dataSource));
    // The reader sees the schema: the tables that hold pupils' data are there, with their keys.
    expect(schema).toEqual(
      expect.arrayContaining([
        { table: 'answers', column: 'user_id', references: 'users' },
        { table: 'answers', column: 'value' },
        { table: 'users', column: 'email' },
      ]),
    );
    const tables = new Set(schema.map(({ table }) => table));
    expect(
      PERSONAL_DATA_REGISTRY.filter((entry) => !tables.has(entry.table)).map((e) => e.table),
    ).toEqual(backend === 'SQLite' ? ['migration_lock'] : []);
    expect(registryProblems(schema)).toEqual([]);
  });

  it('fails on a column added without a declaration, and on one that hides a person', async () => {
    const probe = await openBackend(backend, 'privacy_registry_probe');
    try {
      const run = (sql: string) => probe.dataSource.query(sql);
      await run('ALTER TABLE sessions ADD COLUMN teacher_email varchar(254) NULL');
      await run('CREATE TABLE notes (id integer PRIMARY KEY, pupil_id integer NULL, body text)');
      const problems = registryProblems(await readSchemaColumns(databaseOf(probe.dataSource)));
      expect(problems).toEqual([
        'table notes is not in the registry',
        'column sessions.teacher_email is not in the registry',
      ]);
      // A declared column referencing users must name a person; one that looks personal and is
      // declared as holding nothing must say why.
      const hidden = PERSONAL_DATA_REGISTRY.map((entry) =>
        entry.table === 'answers'
          ? { ...entry, columns: { ...entry.columns, user_id: { category: null } } }
          : entry.table === 'sessions'
            ? { ...entry, columns: { ...entry.columns, teacher_email: { category: null } } }
            : entry,
      );
      expect(
        registryProblems(await readSchemaColumns(databaseOf(probe.dataSource)), hidden),
      ).toEqual(
        expect.arrayContaining([
          'column answers.user_id references users but is not declared as a person',
          'column sessions.teacher_email looks personal: declare it, or say why it is not',
        ]),
      );
    } finally {
      await probe.close();
    }
  });

  if (backend === 'MariaDB') {
    it('prints the record of processing with cli privacy:registry, checked with --check', async () => {
      const [{ name }] = (await dataSource.query('SELECT DATABASE() AS name')) as {
        name: string;
      }[];
      const stdout = new Capture();
      const stderr = new Capture();
      const code = await runCli(['privacy:registry', '--check'], {
        stdout,
        stderr,
        env: { DATABASE_URL: `${TEST_SERVER_URL}/${name}`, NODE_ENV: 'test' },
      });
      expect({ code, stderr: stderr.text }).toEqual({ code: 0, stderr: '' });
      expect(stdout.text).toContain('answers: one pupil');
      expect(stdout.text).toContain('value (answer)');
      expect(stdout.text).toContain('The registry declares every column of the database.');
      const json = new Capture();
      expect(await runCli(['privacy:registry', '--json'], { stdout: json, stderr })).toBe(0);
      expect(JSON.parse(json.text)).toEqual(PERSONAL_DATA_REGISTRY);
    });
  }
});

import type { QueryRunner } from 'typeorm';
import { dialectOf } from '../../db/sql/dialect';
import { ImportError } from './import-validator';
import { LoadStatements } from './row-writer';

/** Every table a load writes. */
export const LOADED_TABLES = [
  'users',
  'quizzes',
  'quiz_tags',
  'questions',
  'user_groups',
  'user_group_members',
  'sessions',
  'session_attendees',
  'session_quizzes',
  'answers',
  'user_quiz_flags',
] as const;

/**
 * A load into an empty database (a freshly migrated one, as `generate --empty-database` and the
 * benchmarks fill) may write its answers in bulk: checked empty inside the load's transaction,
 * the answers then go in as ONE statement, a LOAD DATA LOCAL INFILE streamed as they are
 * validated (loadInfile), with unique and foreign-key checks off for that statement only
 * (withoutChecks). InnoDB writes a statement that fills an empty table in bulk when these checks
 * are off (MariaDB >= 10.7): every index sorted once at the end of the statement rather than
 * updated row by row, which for 10M answers and their four secondary indexes thrashes any buffer
 * pool smaller than them. Row INSERTs after the first would be written row by row again, hence
 * one statement; the other tables, a few hundred thousand rows at most, load as usual.
 *
 * Nothing the checks guard goes unchecked: the validator refuses an answer given twice in the
 * file, the table holds no row to collide with, and every id an answer refers to was inserted by
 * the same load. A failure still rolls the whole load back.
 *
 * Returns whether the server lets the answers be streamed (its local_infile); when it does not,
 * they load as usual.
 */
export async function checkEmptyDatabase(runner: QueryRunner): Promise<{ infile: boolean }> {
  const sql = new LoadStatements(runner, dialectOf(runner.connection));
  const { quote } = sql.dialect;
  for (const table of LOADED_TABLES) {
    const rows = await sql.run(`SELECT 1 AS found FROM ${quote(table)} LIMIT 1`);
    if (Array.isArray(rows) && rows.length > 0) {
      throw new ImportError(
        '$',
        `a load into an empty database found rows in ${table}: load it without the empty-database mode`,
      );
    }
  }
  if (sql.dialect.name !== 'mysql') return { infile: false };
  const [server] = (await sql.run('SELECT @@GLOBAL.local_infile AS local_files')) as {
    local_files: unknown;
  }[];
  return { infile: Number(server?.local_files) === 1 };
}

/**
 * Runs `write` with unique and foreign-key checks off in the session (MariaDB/MySQL), then puts
 * them back as they were: the connection returns to the service's pool afterwards, and one whose
 * checks cannot be put back is closed rather than returned.
 */
export async function withoutChecks<T>(runner: QueryRunner, write: () => Promise<T>): Promise<T> {
  const [saved] = (await runner.query(
    'SELECT @@SESSION.unique_checks AS u, @@SESSION.foreign_key_checks AS f',
  )) as { u: unknown; f: unknown }[];
  await runner.query('SET SESSION unique_checks = 0, foreign_key_checks = 0');
  try {
    return await write();
  } finally {
    try {
      await runner.query('SET SESSION unique_checks = ?, foreign_key_checks = ?', [
        Number(saved?.u ?? 1),
        Number(saved?.f ?? 1),
      ]);
    } catch {
      // Destroyed, the connection leaves the pool: no later writer runs without the checks.
      (runner as { databaseConnection?: { destroy?: () => void } }).databaseConnection?.destroy?.();
    }
  }
}

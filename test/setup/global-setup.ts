import 'reflect-metadata';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/db/data-source';
import { startRunBuild } from '../helpers/build';
import { admin, createTestDatabase } from '../helpers/database';
import { RUN_DIR_VARIABLE } from '../helpers/run-state';
import {
  copyStatements,
  expectSameSchema,
  SNAPSHOT_FILE,
  takeSnapshot,
} from '../helpers/schema-template';

/**
 * Once before the test files of a run (jest `globalSetup`):
 * - a directory of the run, named to the test files by QUIZ_TEST_RUN_DIR;
 * - the service's build started in the background when a selected file needs it
 *   (test/helpers/build.ts);
 * - a template MariaDB database migrated by the real migrations, whose schema each test file's
 *   database copies (test/helpers/schema-template.ts). Without a reachable server the files
 *   migrate their own databases (and those that need one fail as before).
 */
export default async function globalSetup(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-test-run-'));
  process.env[RUN_DIR_VARIABLE] = dir;
  if (process.env.QUIZ_TEST_BUILD_NEEDED === '1') startRunBuild();
  await prepareTemplate(dir);
}

async function prepareTemplate(dir: string): Promise<void> {
  let template: Awaited<ReturnType<typeof createTestDatabase>>;
  try {
    template = await createTestDatabase('template');
  } catch (error) {
    console.warn(`No template database (${String(error)}): each test file migrates its own.`);
    return;
  }
  try {
    const dataSource = await openDatabase(template.config);
    await dataSource.destroy();
    const snapshot = await admin((conn) => takeSnapshot(conn, template.name));
    if ('notCopied' in snapshot) {
      console.warn(`The migrated schema is not copied (${snapshot.notCopied}).`);
      await template.drop();
      return;
    }
    // Once per run: a copy must read back as the template, or no test file uses copies.
    const probe = `${template.name}_probe`;
    await admin(
      async (conn) => {
        await conn.query(copyStatements(snapshot, probe));
        try {
          await expectSameSchema(conn, template.name, probe);
        } finally {
          await conn.query(`DROP DATABASE IF EXISTS \`${probe}\``);
        }
      },
      { multipleStatements: true },
    );
    fs.writeFileSync(path.join(dir, SNAPSHOT_FILE), JSON.stringify(snapshot));
  } catch (error) {
    await template.drop();
    throw error;
  }
}

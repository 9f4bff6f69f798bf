import fs from 'node:fs';
import path from 'node:path';
import { settleRunBuild } from '../helpers/build';
import { admin } from '../helpers/database';
import { RUN_DIR_VARIABLE } from '../helpers/run-state';
import { SNAPSHOT_FILE, type SchemaSnapshot } from '../helpers/schema-template';

/**
 * Once after the run (jest `globalTeardown`): lets a build it started end, drops the template
 * and the run's directory.
 */
export default async function globalTeardown(): Promise<void> {
  const dir = process.env[RUN_DIR_VARIABLE];
  if (!dir) return;
  await settleRunBuild();
  const file = path.join(dir, SNAPSHOT_FILE);
  if (fs.existsSync(file)) {
    const { template } = JSON.parse(fs.readFileSync(file, 'utf8')) as SchemaSnapshot;
    await admin((conn) => conn.query(`DROP DATABASE IF EXISTS \`${template}\``));
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

import fs from 'node:fs';
import path from 'node:path';

/**
 * What the jest global setup (test/setup/global-setup.ts) prepared once for a whole run, handed
 * to the test files through the environment their workers inherit. Outside such a run (a helper
 * used by a script, another jest config) it is absent and every helper does the work itself.
 */

/** A directory of the run: the schema snapshot, the build's lock and outcome. */
export const RUN_DIR_VARIABLE = 'QUIZ_TEST_RUN_DIR';

export function runDirectory(): string | undefined {
  const dir = process.env[RUN_DIR_VARIABLE];
  return dir && fs.existsSync(dir) ? dir : undefined;
}

export function runFile(name: string): string | undefined {
  const dir = runDirectory();
  return dir ? path.join(dir, name) : undefined;
}

import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { runFile } from './run-state';

/**
 * The service built once for a run, for the suites that start what `npm start` and
 * `npm run cli` start (dist/). The build is what `npm start` does first on a fresh checkout: its
 * pre-script, `npm run prestart`, which runs `npm run build` when TypeScript is installed. Those
 * suites then start `npm start --ignore-scripts` / `npm run --ignore-scripts cli`: the same
 * scripts without building again.
 *
 * In a jest run, the global setup starts the build in the background when a selected test file
 * holds the text `ensureBuilt(` (test/setup/sequencer.mjs looks), and every such file waits for
 * that one build; outside a jest run the first call builds.
 */

export const ROOT = path.resolve(__dirname, '../..');

const BUILD_COMMAND = ['run', '--silent', 'prestart'];
const LOCK = 'build.lock';
const DONE = 'build.done';
const FAILED = 'build.failed';
const BUILD_TIMEOUT_MS = 5 * 60_000;

function buildHere(): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      'npm',
      BUILD_COMMAND,
      { cwd: ROOT, maxBuffer: 16 * 1024 * 1024, timeout: BUILD_TIMEOUT_MS },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`npm ${BUILD_COMMAND.join(' ')} failed:\n${stdout}${stderr}`));
        else resolve();
      },
    );
  });
}

/**
 * Starts the run's build in a process of its own, which records its outcome in the run
 * directory; returns at once. Called by the global setup only.
 */
export function startRunBuild(): void {
  const lock = runFile(LOCK);
  if (!lock) return;
  fs.mkdirSync(lock);
  const done = runFile(DONE) as string;
  const failed = runFile(FAILED) as string;
  // A shell records the outcome, so that nothing of jest's main process has to stay alive for it.
  const script = `out=$(npm ${BUILD_COMMAND.join(' ')} 2>&1); code=$?
if [ $code -eq 0 ]; then printf ok > "$DONE"; else printf '%s\\n(exit %s)' "$out" "$code" > "$FAILED"; fi`;
  const child = spawn('sh', ['-c', script], {
    cwd: ROOT,
    env: { ...process.env, DONE: done, FAILED: failed },
    stdio: 'ignore',
    detached: true,
  });
  child.unref();
}

async function waitForRunBuild(): Promise<void> {
  const done = runFile(DONE) as string;
  const failed = runFile(FAILED) as string;
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (fs.existsSync(done)) return;
    if (fs.existsSync(failed)) {
      throw new Error(`npm ${BUILD_COMMAND.join(' ')} failed:\n${fs.readFileSync(failed, 'utf8')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`npm ${BUILD_COMMAND.join(' ')} did not finish in ${BUILD_TIMEOUT_MS} ms`);
}

/** Waits for a build the global setup started, whatever its outcome (for the teardown). */
export async function settleRunBuild(): Promise<void> {
  const lock = runFile(LOCK);
  if (!lock || !fs.existsSync(lock)) return;
  await waitForRunBuild().catch(() => undefined);
}

let built: Promise<void> | undefined;

/** Resolves once dist/ holds the build of this checkout. */
export function ensureBuilt(): Promise<void> {
  built ??= (async () => {
    const lock = runFile(LOCK);
    if (!lock) return buildHere();
    // The global setup started the run's build unless it did not see this file selected (a file
    // given by another route); then the first file to come here builds, the others wait.
    let mine = false;
    try {
      fs.mkdirSync(lock);
      mine = true;
    } catch {
      // Another file of the run builds.
    }
    if (!mine) return waitForRunBuild();
    try {
      await buildHere();
      fs.writeFileSync(runFile(DONE) as string, 'ok');
    } catch (error) {
      fs.writeFileSync(runFile(FAILED) as string, (error as Error).message);
      throw error;
    }
  })();
  return built;
}

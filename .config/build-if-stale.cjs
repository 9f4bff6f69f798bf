// Builds (`npm run build`) only when a source is newer than the last build, so a second
// `npm start` or `npm run cli` starts at once. Without TypeScript (a production install, where
// dist/ is the build that ships) it never builds.
//
//   node .config/build-if-stale.cjs              build if stale
//   node .config/build-if-stale.cjs --dry-run    print "stale" or "fresh", build nothing
//   --root <dir>                                 the project folder (default: this file's parent)
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

/** What the build reads: a change in any of these makes dist/ stale. */
const INPUTS = ['src', 'packages', 'package.json', 'package-lock.json', 'tsconfig.json', '.config'];
/** Folders the build writes or npm fills (the workspaces' own dist/), not sources. */
const SKIPPED = new Set(['dist', 'node_modules']);
const STAMP = path.join('dist', '.build-stamp');

function newestMtime(file) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(file)) {
    if (SKIPPED.has(entry)) continue;
    newest = Math.max(newest, newestMtime(path.join(file, entry)));
  }
  return newest;
}

/** Whether dist/ is older than a source (or was never built here). */
function isStale(root) {
  let built;
  try {
    built = fs.statSync(path.join(root, STAMP)).mtimeMs;
  } catch {
    return true;
  }
  return INPUTS.some((input) => newestMtime(path.join(root, input)) > built);
}

function main(argv) {
  const rootIndex = argv.indexOf('--root');
  const root = rootIndex >= 0 ? path.resolve(argv[rootIndex + 1]) : path.resolve(__dirname, '..');
  if (argv.includes('--dry-run')) {
    process.stdout.write(`${isStale(root) ? 'stale' : 'fresh'}\n`);
    return;
  }
  try {
    require.resolve('typescript', { paths: [root] });
  } catch {
    return;
  }
  if (!isStale(root)) return;
  // The stamp takes the time the build started: a source saved during the build stays newer.
  const started = new Date();
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  fs.writeFileSync(path.join(root, STAMP), '');
  fs.utimesSync(path.join(root, STAMP), started, started);
}

main(process.argv.slice(2));

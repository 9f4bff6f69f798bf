// Writes the browser files the service serves under {base}/sdk/ and {base}/demo/ (see
// src/api/web/sdk.routes.ts) into dist/sdk: the SDK as built by its package, packages/client
// (a classic script exposing the global `QuizApi`, and an ES module), and the demo page's script.
// Run after the package's own build (`npm run build:client`).
import { readFile, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pid } from 'node:process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'dist', 'sdk');
const packageBrowserDir = path.join(root, 'packages', 'client', 'dist', 'browser');

const demo = await build({
  entryPoints: ['src/api/web/demo/demo-page.script.ts'],
  bundle: true,
  format: 'iife',
  // The browsers of the last few years; no polyfills are added.
  target: ['es2020'],
  platform: 'browser',
  legalComments: 'none',
  logLevel: 'warning',
  write: false,
  absWorkingDir: root,
  outfile: path.join(outDir, 'demo-page.js'),
});

const files = [
  ...demo.outputFiles.map((file) => ({ path: file.path, contents: file.contents })),
  ...(await Promise.all(
    ['quiz-api-client.js', 'quiz-api-client.mjs'].map(async (name) => ({
      path: path.join(outDir, name),
      contents: await readFile(path.join(packageBrowserDir, name)),
    })),
  )),
];

await mkdir(outDir, { recursive: true });
// Each file is written whole then renamed, so a server reading it meanwhile never sees half.
for (const file of files) {
  const temporary = `${file.path}.${pid}.tmp`;
  await writeFile(temporary, file.contents);
  await rename(temporary, file.path);
}

// Builds the browser files the service serves under {base}/sdk/ and {base}/demo/ (see
// src/api/web/sdk.routes.ts) into dist/sdk: the SDK as a classic script exposing the global
// `QuizApi`, the SDK as an ES module, and the demo page's script. The typed CommonJS build with
// declarations (the package's "./client" export) is tsc -p .config/tsconfig.client.json.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pid } from 'node:process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'dist', 'sdk');

const common = {
  bundle: true,
  // The browsers of the last few years; no polyfills are added.
  target: ['es2020'],
  platform: 'browser',
  legalComments: 'none',
  logLevel: 'warning',
  write: false,
  absWorkingDir: root,
};

const bundles = [
  {
    entryPoints: ['src/client/index.ts'],
    format: 'iife',
    globalName: 'QuizApi',
    outfile: 'quiz-api-client.js',
  },
  { entryPoints: ['src/client/index.ts'], format: 'esm', outfile: 'quiz-api-client.mjs' },
  {
    entryPoints: ['src/api/web/demo/demo-page.script.ts'],
    format: 'iife',
    outfile: 'demo-page.js',
  },
];

await mkdir(outDir, { recursive: true });
const results = await Promise.all(
  bundles.map(({ outfile, ...options }) =>
    build({ ...common, ...options, outfile: path.join(outDir, outfile) }),
  ),
);
// Each file is written whole then renamed, so a server reading it meanwhile never sees half.
for (const file of results.flatMap((result) => result.outputFiles)) {
  const temporary = `${file.path}.${pid}.tmp`;
  await writeFile(temporary, file.contents);
  await rename(temporary, file.path);
}

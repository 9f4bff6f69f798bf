// Builds the package into dist/ (`npm run build`; `npm pack` runs it first):
//   index.cjs, index.mjs            Node and bundlers: CommonJS and ES module, graphql-ws external
//   index.d.ts (+ one per module)   the declarations, by tsc; index.d.mts gives them to `import`
//   browser/quiz-api-client.js      classic script defining the global `QuizApi`, all inlined
//   browser/quiz-api-client.mjs     the same as an ES module
// The service serves the browser files under {base}/sdk/ (its .config/build-client.mjs copies them).
// First, src/possible-types.generated.ts from the service's SDL (scripts/possible-types.mjs).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { execPath } from 'node:process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { writePossibleTypes } from './possible-types.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const entry = 'src/index.ts';

const common = {
  entryPoints: [entry],
  bundle: true,
  legalComments: 'none',
  logLevel: 'warning',
  absWorkingDir: root,
};

// Node 20 and the bundlers resolve graphql-ws themselves: one copy in an application.
const forNode = { ...common, platform: 'neutral', target: ['es2022'], packages: 'external' };
// The browsers of the last few years; no polyfills are added.
const forBrowsers = { ...common, platform: 'browser', target: ['es2020'] };

// possibleTypes from the service's SDL, where the package sits in its repository (a copy packed
// on its own keeps the module generated last).
const schemaFile = path.join(root, '..', '..', 'schema', 'schema.graphql');
if (existsSync(schemaFile)) {
  await writePossibleTypes(schemaFile, path.join(root, 'src', 'possible-types.generated.ts'));
}

// Removed modules must not linger in what is packed.
await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });
await Promise.all([
  build({ ...forNode, format: 'cjs', outfile: path.join(dist, 'index.cjs') }),
  build({ ...forNode, format: 'esm', outfile: path.join(dist, 'index.mjs') }),
  build({
    ...forBrowsers,
    format: 'iife',
    globalName: 'QuizApi',
    outfile: path.join(dist, 'browser', 'quiz-api-client.js'),
  }),
  build({
    ...forBrowsers,
    format: 'esm',
    outfile: path.join(dist, 'browser', 'quiz-api-client.mjs'),
  }),
]);

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(execPath, [tsc, '-p', path.join(root, 'tsconfig.json')], {
  stdio: 'inherit',
});
// The declarations are CommonJS (the package's "type"); ES module importers get them through a
// file of their own kind, so TypeScript sees the `import` entry as an ES module.
await writeFile(path.join(dist, 'index.d.mts'), "export * from './index.js';\n");

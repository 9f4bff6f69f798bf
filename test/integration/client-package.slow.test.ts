import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { testOutputPath } from '../helpers/browser';

/**
 * The client package (packages/client) as `npm pack` makes it and a project installs it: small,
 * the built files only, no dependency of the service, and its entry points loading in Node.
 * The package is packed from a copy of its folder (sources, settings, build script), so the
 * build `npm pack` runs first never touches the dist/ the service and other suites load.
 */
const ROOT = path.resolve(__dirname, '../..');
const PACKAGE_DIR = path.join(ROOT, 'packages', 'client');
const NAME = '@quiz-results/client';

/** What the client may depend on at run time (live results); anything else is not the client's. */
const ALLOWED_DEPENDENCIES = ['graphql-ws'];
/** The service's own packages, named even if the root package.json changes. */
const SERVER_PACKAGES = [
  'quiz-results-service',
  'typeorm',
  'mysql2',
  'argon2',
  'better-sqlite3',
  'express',
  '@apollo/server',
  'type-graphql',
  'pino',
  'reflect-metadata',
];

interface PackReport {
  name: string;
  size: number;
  filename: string;
  files: { path: string }[];
}

interface Manifest {
  main?: string;
  module?: string;
  types?: string;
  exports?: unknown;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  bundleDependencies?: string[];
}

/** Every file path named in an `exports` map, at any depth of conditions. */
function exportTargets(exports: unknown): string[] {
  if (typeof exports === 'string') return [exports];
  if (exports && typeof exports === 'object') return Object.values(exports).flatMap(exportTargets);
  return [];
}

/** Runs Node in `cwd` and returns what it printed. */
function node(cwd: string, args: string[]): string {
  return execFileSync(process.execPath, args, { cwd, encoding: 'utf8' }).trim();
}

describe('the client package, packed', () => {
  let work: string;
  let report: PackReport;
  let installed: string;
  let manifest: Manifest;

  beforeAll(() => {
    work = fs.mkdtempSync(testOutputPath('client-package-'));
    const copy = path.join(work, 'client');
    // Under the repository, so the build finds esbuild, TypeScript and graphql-ws.
    fs.cpSync(PACKAGE_DIR, copy, {
      recursive: true,
      filter: (source) => !['dist', 'node_modules'].includes(path.basename(source)),
    });
    const json = execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
      cwd: copy,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    [report] = JSON.parse(json) as PackReport[];
    // Installed as npm would: in a project's node_modules, nearer than the workspace link.
    installed = path.join(work, 'consumer', 'node_modules', ...NAME.split('/'));
    fs.mkdirSync(installed, { recursive: true });
    execFileSync('tar', [
      '-xzf',
      path.join(work, report.filename),
      '-C',
      installed,
      '--strip-components=1',
    ]);
    manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
  });

  afterAll(() => {
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('is under 100 KB and holds the built files, the README and package.json only', () => {
    expect(report.name).toBe(NAME);
    expect(report.size).toBeLessThan(100_000);
    const files = report.files.map((file) => file.path).sort();
    const outside = files.filter(
      (file) => !['package.json', 'README.md'].includes(file) && !file.startsWith('dist/'),
    );
    expect(outside).toEqual([]);
    expect(files.filter((file) => /\.ts$/.test(file) && !file.endsWith('.d.ts'))).toEqual([]);
    expect(files).toEqual(
      expect.arrayContaining([
        'dist/index.cjs',
        'dist/index.mjs',
        'dist/index.d.ts',
        'dist/index.d.mts',
        'dist/browser/quiz-api-client.js',
        'dist/browser/quiz-api-client.mjs',
      ]),
    );
    // Every file the manifest points at is in the package.
    const named = [
      manifest.main,
      manifest.module,
      manifest.types,
      ...exportTargets(manifest.exports),
    ]
      .filter((target): target is string => target !== undefined)
      .map((target) => path.posix.normalize(target));
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((target) => !files.includes(target))).toEqual([]);
  });

  it('depends on graphql-ws only, on nothing of the service', () => {
    const declared = [
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
      ...Object.keys(manifest.optionalDependencies ?? {}),
      ...(manifest.bundleDependencies ?? []),
    ];
    const rootManifest = JSON.parse(
      fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'),
    ) as Manifest;
    const serverPackages = new Set([
      ...SERVER_PACKAGES,
      ...Object.keys(rootManifest.dependencies ?? {}).filter(
        (name) => name !== NAME && !ALLOWED_DEPENDENCIES.includes(name),
      ),
    ]);
    expect(declared.filter((name) => serverPackages.has(name))).toEqual([]);
    expect(declared.sort()).toEqual(ALLOWED_DEPENDENCIES);
  });

  it('loads in Node as CommonJS and as an ES module, from the installed package, alike', () => {
    const consumer = path.join(work, 'consumer');
    const required = JSON.parse(
      node(consumer, [
        '-e',
        `const c = require('${NAME}');
         new c.QuizApiClient({ baseUrl: 'https://quiz.example.org', apiKey: 'k' });
         console.log(JSON.stringify({ from: require.resolve('${NAME}'), type: typeof c.QuizApiClient, names: Object.keys(c).sort() }));`,
      ]),
    ) as { from: string; type: string; names: string[] };
    const imported = JSON.parse(
      node(consumer, [
        '--input-type=module',
        '-e',
        `import * as c from '${NAME}';
         new c.QuizApiClient({ baseUrl: 'https://quiz.example.org', apiKey: 'k' });
         console.log(JSON.stringify({ from: import.meta.resolve('${NAME}'), type: typeof c.QuizApiClient, names: Object.keys(c).sort() }));`,
      ]),
    ) as { from: string; type: string; names: string[] };
    expect(required.from).toBe(path.join(installed, 'dist', 'index.cjs'));
    expect(imported.from).toBe(`file://${path.join(installed, 'dist', 'index.mjs')}`);
    expect(required.type).toBe('function');
    expect(imported.type).toBe('function');
    expect(imported.names).toEqual(expect.arrayContaining(['DataSet', 'watchSessionResults']));
    expect(required.names).toEqual(imported.names);
  });

  it('gives its types to TypeScript projects importing it as an ES module and as CommonJS', () => {
    const consumer = path.join(work, 'consumer');
    const uses = `import { QuizApiClient, UnauthorizedOperationException, type Quiz } from '${NAME}';
export const client: QuizApiClient = new QuizApiClient({ baseUrl: 'https://x', apiKey: 'k' });
export const quizzes: Quiz[] = [];
export const refused = (e: unknown): boolean => e instanceof UnauthorizedOperationException;
`;
    fs.writeFileSync(path.join(consumer, 'uses.mts'), uses);
    fs.writeFileSync(path.join(consumer, 'uses.cts'), uses);
    const settings = {
      compilerOptions: {
        module: 'node16',
        moduleResolution: 'node16',
        target: 'es2022',
        lib: ['es2022', 'dom'],
        types: [],
        strict: true,
        noEmit: true,
        traceResolution: true,
      },
      files: ['uses.mts', 'uses.cts'],
    };
    fs.writeFileSync(path.join(consumer, 'tsconfig.json'), JSON.stringify(settings));
    const trace = node(consumer, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json']);
    const resolved = [
      ...trace.matchAll(/'@quiz-results\/client' was successfully resolved to '([^']+)'/g),
    ]
      .map((match) => path.relative(installed, match[1] as string))
      .sort();
    expect(resolved).toEqual(['dist/index.d.mts', 'dist/index.d.ts']);
  });

  it('has browser builds: a classic script defining QuizApi and an ES module, with nothing to resolve', async () => {
    const browser = path.join(installed, 'dist', 'browser');
    const context: { QuizApi?: { QuizApiClient?: unknown } } = {};
    vm.runInNewContext(fs.readFileSync(path.join(browser, 'quiz-api-client.js'), 'utf8'), context);
    expect(typeof context.QuizApi?.QuizApiClient).toBe('function');

    const module = fs.readFileSync(path.join(browser, 'quiz-api-client.mjs'), 'utf8');
    // graphql-ws is inlined: no import a browser would have to resolve.
    expect(module).not.toMatch(
      /^(?:import|export)\b[^\n]*\bfrom\s*["']|\b(?:import|require)\(\s*["']/m,
    );
    expect(
      node(browser, [
        '--input-type=module',
        '-e',
        "import('./quiz-api-client.mjs').then((c) => console.log(typeof c.QuizApiClient, typeof c.watchSessionResults))",
      ]),
    ).toBe('function function');
  });
});

describe('the client sources', () => {
  it('import nothing but each other and graphql-ws/client', () => {
    const src = path.join(PACKAGE_DIR, 'src');
    const outside = fs.readdirSync(src).flatMap((file) =>
      [
        ...fs
          .readFileSync(path.join(src, file), 'utf8')
          .matchAll(/(?:\bfrom\s+|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g),
      ]
        .map((match) => match[1] as string)
        .filter(
          (specifier) =>
            specifier !== 'graphql-ws/client' &&
            !(specifier.startsWith('./') && fs.existsSync(path.join(src, `${specifier}.ts`))),
        )
        .map((specifier) => `${file} -> ${specifier}`),
    );
    expect(outside).toEqual([]);
  });
});

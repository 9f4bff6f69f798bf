import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * `npm start` and `npm run cli` build first only when a source is newer than the last build
 * (.config/build-if-stale.cjs): its decision, on a project folder of its own.
 */
const SCRIPT = path.resolve(__dirname, '../../.config/build-if-stale.cjs');

function decision(root: string): string {
  return execFileSync(process.execPath, [SCRIPT, '--root', root, '--dry-run'], {
    encoding: 'utf8',
  }).trim();
}

/** Sets a file's modification time, `secondsAgo` before now. */
function age(file: string, secondsAgo: number): void {
  const when = new Date(Date.now() - secondsAgo * 1000);
  fs.utimesSync(file, when, when);
}

describe('the build before npm start and npm run cli', () => {
  let root: string;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'build-if-stale-'));
    fs.mkdirSync(path.join(root, 'src', 'api'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', 'api', 'a.ts'), 'export const a = 1;\n');
    fs.writeFileSync(path.join(root, 'package.json'), '{}\n');
    age(path.join(root, 'src', 'api', 'a.ts'), 60);
    age(path.join(root, 'package.json'), 60);
  });

  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const stamp = () => path.join(root, 'dist', '.build-stamp');
  const build = (secondsAgo: number) => {
    fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
    fs.writeFileSync(stamp(), '');
    age(stamp(), secondsAgo);
  };

  it('builds a checkout never built here', () => {
    expect(decision(root)).toBe('stale');
  });

  it('starts at once when nothing changed since the build', () => {
    build(10);
    expect(decision(root)).toBe('fresh');
  });

  it('builds again after a source, package.json or a build setting changed', () => {
    build(10);
    fs.writeFileSync(path.join(root, 'src', 'api', 'a.ts'), 'export const a = 2;\n');
    expect(decision(root)).toBe('stale');

    build(0);
    expect(decision(root)).toBe('fresh');
    fs.writeFileSync(path.join(root, 'package.json'), '{"name":"x"}\n');
    age(stamp(), 10);
    expect(decision(root)).toBe('stale');

    fs.writeFileSync(path.join(root, 'package.json'), '{}\n');
    age(path.join(root, 'package.json'), 60);
    build(10);
    fs.mkdirSync(path.join(root, '.config'));
    fs.writeFileSync(path.join(root, '.config', 'tsconfig.build.json'), '{}\n');
    expect(decision(root)).toBe('stale');
  });

  it("builds again after a change in the client package's sources, not after its own build", () => {
    const client = path.join(root, 'packages', 'client');
    fs.mkdirSync(path.join(client, 'src'), { recursive: true });
    fs.mkdirSync(path.join(client, 'dist'), { recursive: true });
    fs.writeFileSync(path.join(client, 'src', 'index.ts'), 'export const b = 1;\n');
    fs.writeFileSync(path.join(client, 'package.json'), '{}\n');
    age(path.join(client, 'src', 'index.ts'), 60);
    age(path.join(client, 'package.json'), 60);
    build(10);
    // The package's dist/ is written by the build itself, after the stamp's time.
    fs.writeFileSync(path.join(client, 'dist', 'index.cjs'), '');
    expect(decision(root)).toBe('fresh');

    fs.writeFileSync(path.join(client, 'src', 'index.ts'), 'export const b = 2;\n');
    expect(decision(root)).toBe('stale');
    age(path.join(client, 'src', 'index.ts'), 60);
    build(10);
    expect(decision(root)).toBe('fresh');
    fs.writeFileSync(path.join(client, 'package.json'), '{"name":"x"}\n');
    expect(decision(root)).toBe('stale');
  });
});

import fs from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(__dirname, '../../src');

function filesUnder(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    return entry.isDirectory() ? filesUnder(full) : full.endsWith('.ts') ? [full] : [];
  });
}

/** The modules a file imports: `type` imports too when `withTypes`, else only those that run. */
function importsOf(file: string, withTypes: boolean): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/^(?:import|export)\s+(type\s+)?[^;]*?from\s+'([^']+)'/gm)) {
    if (match[1] && !withTypes) continue;
    const specifier = match[2] as string;
    if (!specifier.startsWith('.')) {
      found.push(specifier);
      continue;
    }
    const target = path.resolve(path.dirname(file), specifier);
    found.push(fs.existsSync(`${target}.ts`) ? `${target}.ts` : path.join(target, 'index.ts'));
  }
  return found;
}

/** The import cycles among `files` (each as a path of files), type imports counted. */
function cyclesAmong(files: readonly string[]): string[] {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, trail: string[]): void => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      cycles.push(
        trail
          .slice(trail.indexOf(file))
          .concat(file)
          .map((f) => path.relative(SRC, f))
          .join(' -> '),
      );
      return;
    }
    state.set(file, 'open');
    for (const target of importsOf(file, true).filter((t) => files.includes(t))) {
      visit(target, [...trail, file]);
    }
    state.set(file, 'done');
  };
  files.forEach((file) => visit(file, []));
  return cycles;
}

describe('the layers of src', () => {
  it('src/domain imports nothing but src/domain: no database, service, API or package', () => {
    const outside = filesUnder(path.join(SRC, 'domain')).flatMap((file) =>
      importsOf(file, true)
        .filter((target) => !target.startsWith(path.join(SRC, 'domain') + path.sep))
        .map((target) => `${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`),
    );
    expect(outside).toEqual([]);
  });

  it('has no import cycle, type imports included', () => {
    const files = filesUnder(SRC);
    expect(files.length).toBeGreaterThan(100);
    expect(cyclesAmong(files)).toEqual([]);
  });

  it('services, context, db and domain never import a transport, the app or the CLI', () => {
    const upper = ['api', 'app', 'cli'].map((folder) => path.join(SRC, folder) + path.sep);
    const upward = ['services', 'context', 'db', 'domain']
      .flatMap((folder) => filesUnder(path.join(SRC, folder)))
      .flatMap((file) =>
        importsOf(file, true)
          .filter((target) => upper.some((folder) => target.startsWith(folder)))
          .map((target) => `${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`),
      );
    expect(upward).toEqual([]);
  });
});

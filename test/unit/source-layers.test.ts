import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

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

/**
 * The folders of src as a graph: a folder's own root files are one node (`api` is the files
 * directly in src/api, not those of src/api/rest), and an import between two files is an edge
 * between their folders. Type imports count: a loop of types is a loop of meaning.
 */
function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const folderOf = (file: string): string => path.relative(SRC, path.dirname(file)) || '.';
  for (const file of filesUnder(SRC)) {
    const from = folderOf(file);
    const edges = graph.get(from) ?? graph.set(from, new Set()).get(from)!;
    for (const target of importsOf(file, true)) {
      if (!target.startsWith(SRC + path.sep) || folderOf(target) === from) continue;
      edges.add(folderOf(target));
    }
  }
  return graph;
}

/** The strongly connected components of a graph (Tarjan), each as a set of its nodes. */
function componentsOf(graph: Map<string, Set<string>>): Set<string>[] {
  const components: Set<string>[] = [];
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component = new Set<string>();
    let member: string;
    do {
      member = stack.pop()!;
      component.add(member);
    } while (member !== node);
    components.push(component);
  };
  [...graph.keys()].forEach((node) => index.has(node) || visit(node));
  return components;
}

/**
 * Every elementary loop of the folder graph, each once: it starts at its least folder (by name)
 * and passes only folders above it within one component, so it reads the same on every run.
 */
function folderLoops(graph: Map<string, Set<string>>): string[] {
  const loops: string[] = [];
  for (const component of componentsOf(graph).filter((c) => c.size > 1)) {
    for (const start of [...component].sort()) {
      const walk = (folder: string, trail: string[]): void => {
        for (const next of [...graph.get(folder)!].filter((f) => component.has(f)).sort()) {
          if (next === start) loops.push([...trail, start].join(' -> '));
          else if (next > start && !trail.includes(next)) walk(next, [...trail, next]);
        }
      };
      walk(start, [start]);
    }
  }
  return loops.sort();
}

/** The imports from files under `from` to modules under any of `to` (folders or files of src). */
function importsBetween(from: string, to: readonly string[]): string[] {
  const targets = to.map((t) => path.join(SRC, t));
  const hits = (target: string): boolean =>
    targets.some((t) => target === `${t}.ts` || target.startsWith(t + path.sep));
  return filesUnder(path.join(SRC, from)).flatMap((file) =>
    importsOf(file, true)
      .filter(hits)
      .map((target) => `${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`),
  );
}

/** A string literal that starts as a statement does (its first word, then a space). */
const STATEMENT_START = /^\s*(?:SELECT|INSERT|UPDATE|DELETE|WITH)\s/i;

/**
 * The SQL text and repository uses of a file: each string or template literal whose text starts
 * with a statement's first word, and each `getRepository(`, `createQueryBuilder(` or
 * `Repository<` outside comments and strings. Parsed, so comments and words inside strings count
 * only where they really are code or literal text.
 */
function dataAccessIn(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const where = (node: ts.Node, what: string): string => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    return `${path.relative(SRC, file)}:${line + 1} ${what}`;
  };
  const visit = (node: ts.Node): void => {
    const literal =
      ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)
        ? node.text
        : ts.isTemplateExpression(node)
          ? node.head.text
          : undefined;
    if (literal !== undefined && STATEMENT_START.test(literal)) {
      found.push(where(node, `SQL ${JSON.stringify(literal.trim().slice(0, 30))}`));
    }
    if (
      ts.isPropertyAccessExpression(node) &&
      ['getRepository', 'createQueryBuilder'].includes(node.name.text) &&
      ts.isCallExpression(node.parent) &&
      node.parent.expression === node
    ) {
      found.push(where(node, `${node.name.text}(`));
    }
    if (ts.isTypeReferenceNode(node) && /(?:^|\.)Repository$/.test(node.typeName.getText(source))) {
      found.push(where(node, 'Repository<'));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
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

  it('has no import loop between folders', () => {
    const graph = folderGraph();
    expect(graph.size).toBeGreaterThan(30);
    expect(folderLoops(graph)).toEqual([]);
  });

  it('the set engine (services/sets) imports no other service: the kinds register with it', () => {
    const services = path.join(SRC, 'services') + path.sep;
    const sets = path.join(SRC, 'services/sets') + path.sep;
    const others = filesUnder(path.join(SRC, 'services/sets')).flatMap((file) =>
      importsOf(file, true)
        .filter((target) => target.startsWith(services) && !target.startsWith(sets))
        .map((target) => `${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`),
    );
    expect(filesUnder(path.join(SRC, 'services/sets')).length).toBeGreaterThan(5);
    expect(others).toEqual([]);
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

  it('src/db imports no service: statements are built from src/domain, never from a service', () => {
    expect(filesUnder(path.join(SRC, 'db')).length).toBeGreaterThan(20);
    expect(importsBetween('db', ['services'])).toEqual([]);
  });

  it('GraphQL types take their vocabularies (enums) from src/domain, not from entity files', () => {
    expect(importsBetween('api/graphql', ['db/entities'])).toEqual([]);
  });

  it('web pages reach data through services, never a repository or src/db', () => {
    const repository = filesUnder(path.join(SRC, 'api/web')).flatMap((file) =>
      /\bgetRepository\b|\bRepository</.test(fs.readFileSync(file, 'utf8'))
        ? [path.relative(SRC, file)]
        : [],
    );
    expect([...importsBetween('api/web', ['db']), ...repository]).toEqual([]);
  });

  it('services hold no SQL text and no repository: statements live behind src/db', () => {
    // The check sees what it looks for: the statements and stores of src/db are flagged.
    expect(dataAccessIn(path.join(SRC, 'db/sql/access-log.sql.ts')).join()).toMatch(/SQL/);
    expect(dataAccessIn(path.join(SRC, 'db/users.store.ts')).join()).toMatch(/getRepository/);
    const files = filesUnder(path.join(SRC, 'services'));
    expect(files.length).toBeGreaterThan(40);
    expect(files.flatMap(dataAccessIn)).toEqual([]);
  });

  it('the two transports are sibling adapters: neither GraphQL nor REST imports the other', () => {
    expect(importsBetween('api/graphql', ['api/rest'])).toEqual([]);
    expect(importsBetween('api/rest', ['api/graphql'])).toEqual([]);
  });

  it('the operation catalog, below both transports, imports neither REST nor GraphQL', () => {
    expect(importsBetween('api/operations', ['api/rest', 'api/graphql'])).toEqual([]);
  });
});

// The `possibleTypes` map of Apollo Client's InMemoryCache (and of urql's and Relay's caches),
// read from the service's SDL as the service prints it (graphql-js printSchema): each union and
// interface with the object types it may be, sorted. No dependency: the SDL's printed form is
// one definition per line (`union X = A | B`, `type T implements I & J {`).
import { readFile, rename, writeFile } from 'node:fs/promises';
import { pid } from 'node:process';

/** Supertype name → its possible object types, sorted, from SDL text. */
export function possibleTypesOf(sdl) {
  const map = new Map();
  const add = (supertype, type) => {
    if (!map.has(supertype)) map.set(supertype, new Set());
    map.get(supertype).add(type);
  };
  for (const line of sdl.split('\n')) {
    const union = /^union (\w+)(?: @[^=]*)? = (.+)$/.exec(line);
    if (union) for (const type of union[2].split('|')) add(union[1], type.trim());
    const object = /^type (\w+) implements ([\w &]+?)(?: @.*)? \{$/.exec(line);
    if (object) for (const supertype of object[2].split('&')) add(supertype.trim(), object[1]);
  }
  return Object.fromEntries(
    [...map.keys()].sort().map((supertype) => [supertype, [...map.get(supertype)].sort()]),
  );
}

/** The TypeScript module the package exports it from. */
export function possibleTypesModule(sdl) {
  // As Prettier writes it (printWidth 100): one line per entry, or one per type when too long.
  const entries = Object.entries(possibleTypesOf(sdl))
    .map(([supertype, types]) => {
      const quoted = types.map((type) => `'${type}'`);
      const line = `  ${supertype}: [${quoted.join(', ')}],`;
      return line.length <= 100
        ? line
        : `  ${supertype}: [\n${quoted.map((type) => `    ${type},\n`).join('')}  ],`;
    })
    .join('\n');
  return `// Generated from schema/schema.graphql by scripts/possible-types.mjs (npm run build): do not edit.

/**
 * Each union and interface of the service's GraphQL schema with the object types it may be: the
 * \`possibleTypes\` option of Apollo Client's InMemoryCache, so fragments on \`DataSet\`,
 * \`DataSetItem\` and \`Question\` read from the cache (contract.md §15).
 */
export const possibleTypes: { [supertype: string]: string[] } = {
${entries}
};
`;
}

/** Rewrites `target` from the SDL file `schemaFile`, whole then renamed. */
export async function writePossibleTypes(schemaFile, target) {
  const text = possibleTypesModule(await readFile(schemaFile, 'utf8'));
  const temporary = `${target}.${pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, target);
}

/** Reads a V8 CPU profile (.cpuprofile) and tells where the time went, by frame and by layer. */
import fs from 'node:fs';
import path from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * The layers a request crosses. A sample counts in a layer when any frame of its stack belongs to
 * it (inclusive time), so a layer's share includes what it calls (mysql2 under TypeORM, say).
 */
const LAYERS: readonly {
  name: string;
  matches: (frame: CallFrame) => boolean;
  /** Counted only when the sampled frame itself belongs to it. */
  selfOnly?: boolean;
}[] = [
  { name: 'TypeORM (all)', matches: (f) => f.url.includes('/node_modules/typeorm/') },
  {
    name: 'TypeORM hydration (raw rows to entities)',
    matches: (f) => /typeorm\/query-builder\/transformer\//.test(f.url),
  },
  {
    name: 'TypeORM query building',
    matches: (f) => /typeorm\/query-builder\/(Select|QueryBuilder|Query)/.test(f.url),
  },
  { name: 'mysql2 driver', matches: (f) => f.url.includes('/node_modules/mysql2/') },
  {
    name: 'logging (pino, redaction, the request line)',
    matches: (f) =>
      /\/node_modules\/(pino|sonic-boom|pino-std-serializers)\//.test(f.url) ||
      f.url.includes('/src/observability/') ||
      f.url.includes('/src/api/http/request-log.js'),
  },
  {
    // The middleware calls the next one: only its own frames count, not what follows.
    name: 'logging: request-log middleware (self time)',
    matches: (f) => f.url.includes('/src/api/http/request-log.middleware.js'),
    selfOnly: true,
  },
  {
    // Middleware calls the next one: self time, or every handler would count as Express.
    name: 'Express, router, body-parser (self time)',
    matches: (f) =>
      /\/node_modules\/(express|router|body-parser|raw-body|finalhandler|send|on-finished|type-is|negotiator)\//.test(
        f.url,
      ),
    selfOnly: true,
  },
  { name: 'Apollo Server', matches: (f) => f.url.includes('/node_modules/@apollo/') },
  { name: 'graphql-js', matches: (f) => f.url.includes('/node_modules/graphql/') },
  {
    name: 'graphql-jit (its runtime; the compiled functions have no file)',
    matches: (f) => f.url.includes('/node_modules/graphql-jit/'),
  },
  { name: 'type-graphql', matches: (f) => f.url.includes('/node_modules/type-graphql/') },
  {
    name: 'JSON (parse, stringify)',
    matches: (f) =>
      /^(JSON\.)?(stringify|parse|prettyJSONStringify)$/.test(f.functionName) &&
      (f.url === '' || /express\/lib\/response|@apollo\/server|body-parser/.test(f.url)),
  },
  {
    name: 'API key and token lookup',
    matches: (f) => /src\/(services\/auth\/credentials|db\/sql\/credentials)/.test(f.url),
  },
  {
    name: 'rate-limit charge (slices in memory, their leases)',
    matches: (f) => /src\/(db\/rate-limit|context\/api-key-rate-limits)/.test(f.url),
  },
  { name: 'DataLoader', matches: (f) => f.url.includes('/node_modules/dataloader/') },
  {
    name: 'Node core (http, net, streams; self time)',
    matches: (f) => f.url.startsWith('node:'),
    selfOnly: true,
  },
  {
    name: 'socket writes (write, writev system calls; self time)',
    matches: (f) => f.url === '' && /^(writeBuffer|writev|writeUtf8String)$/.test(f.functionName),
    selfOnly: true,
  },
  { name: 'garbage collector', matches: (f) => f.functionName === '(garbage collector)' },
];

const IDLE = '(idle)';

export interface ProfileSummary {
  /** Milliseconds of samples in the window, idle included. */
  totalMs: number;
  busyMs: number;
  layers: { name: string; ms: number; share: number }[];
  topSelf: { frame: string; ms: number; share: number }[];
  packages: { name: string; ms: number; share: number }[];
}

/** Where a frame comes from: an npm package, the project's file, node core or V8. */
function packageOf(frame: CallFrame, root: string): string {
  const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(frame.url);
  if (match) return match[1] as string;
  if (frame.url.startsWith('node:')) return 'node core';
  if (frame.url.includes('/src/'))
    return `project ${path.dirname(frame.url.slice(frame.url.indexOf('/src/') + 1))}`;
  if (frame.url === '')
    return frame.functionName.startsWith('(') ? frame.functionName : 'V8 builtins';
  return path.relative(root, frame.url.replace(/^file:\/\//, ''));
}

function frameLabel(frame: CallFrame): string {
  const file = frame.url.replace(/^.*\/node_modules\//, '').replace(/^.*\/(src\/)/, '$1');
  return `${frame.functionName || '(anonymous)'} ${file}${file ? `:${frame.lineNumber + 1}` : ''}`;
}

/**
 * Summarises the samples taken between `fromUs` and `toUs` (the profile's clock, microseconds;
 * the whole profile when absent): the load, without the start-up and the shutdown.
 */
export function summariseProfile(
  file: string,
  window: { fromUs?: number; toUs?: number } = {},
  root = process.cwd(),
): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);

  const layerMs = new Map<string, number>();
  const selfMs = new Map<string, number>();
  const packageMs = new Map<string, number>();
  let totalMs = 0;
  let idleMs = 0;
  let time = profile.startTime;
  profile.samples.forEach((nodeId, index) => {
    time += profile.timeDeltas[index] ?? 0;
    // A sample stands for the interval up to the next one.
    const ms = (profile.timeDeltas[index + 1] ?? 0) / 1000;
    if (window.fromUs !== undefined && time < window.fromUs) return;
    if (window.toUs !== undefined && time > window.toUs) return;
    const leaf = byId.get(nodeId);
    if (!leaf) return;
    totalMs += ms;
    if (leaf.callFrame.functionName === IDLE) {
      idleMs += ms;
      return;
    }
    const label = frameLabel(leaf.callFrame);
    selfMs.set(label, (selfMs.get(label) ?? 0) + ms);
    const pkg = packageOf(leaf.callFrame, root);
    packageMs.set(pkg, (packageMs.get(pkg) ?? 0) + ms);
    const seen = new Set<string>();
    for (let id: number | undefined = nodeId; id !== undefined; id = parent.get(id)) {
      const frame = (byId.get(id) as ProfileNode).callFrame;
      for (const layer of LAYERS) {
        if (layer.selfOnly && id !== nodeId) continue;
        if (!seen.has(layer.name) && layer.matches(frame)) seen.add(layer.name);
      }
    }
    for (const name of seen) layerMs.set(name, (layerMs.get(name) ?? 0) + ms);
  });
  const busyMs = totalMs - idleMs;
  const ranked = (map: Map<string, number>, limit: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([name, ms]) => ({ name, ms, share: ms / busyMs }));
  return {
    totalMs,
    busyMs,
    layers: LAYERS.map(({ name }) => {
      const ms = layerMs.get(name) ?? 0;
      return { name, ms, share: ms / busyMs };
    }),
    topSelf: ranked(selfMs, 25).map(({ name, ms, share }) => ({ frame: name, ms, share })),
    packages: ranked(packageMs, 15),
  };
}

const pct = (share: number) => `${(share * 100).toFixed(1).padStart(5)} %`;

/** The summary as text: layers (inclusive), packages (self), top frames (self). */
export function formatSummary(title: string, summary: ProfileSummary): string {
  const lines = [
    `\n${title}`,
    `  ${(summary.busyMs / 1000).toFixed(1)} s busy of ${(summary.totalMs / 1000).toFixed(1)} s sampled (${pct(summary.busyMs / summary.totalMs)} of one core)`,
    '  layer (inclusive: the layer and what it calls)            share of busy time',
    ...summary.layers.map((l) => `    ${l.name.padEnd(56)}${pct(l.share)}`),
    '  package or folder (self time)',
    ...summary.packages.map((p) => `    ${p.name.padEnd(56)}${pct(p.share)}`),
    '  top frames (self time)',
    ...summary.topSelf.map((t) => `    ${pct(t.share)}  ${t.frame}`),
  ];
  return lines.join('\n');
}

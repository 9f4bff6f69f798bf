/** The load: autocannon in a child process (so that it does not share the floor's event loop). */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './results-bench.config';

const run = promisify(execFile);
const BIN = path.join(ROOT, 'node_modules/.bin/autocannon');

export interface Target {
  name: string;
  url: string;
  /** A JSON body to POST (GraphQL); GET without it. */
  body?: string;
}

export interface Measure {
  rps: number;
  p50: number;
  p99: number;
  /** non-2xx answers plus transport errors (timeouts, resets). */
  errors: number;
  /** The errors by HTTP status, and `socket` for timeouts and connection errors. */
  statuses: Record<string, number>;
}

interface AutocannonJson {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  statusCodeStats?: Record<string, { count: number }>;
}

/** One autocannon run; `warmUpSeconds` of load first on fresh connections, left out of the figures. */
export async function autocannon(
  target: Target,
  connections: number,
  seconds: number,
  warmUpSeconds = 0,
): Promise<Measure> {
  const warmUp =
    warmUpSeconds > 0
      ? ['--warmup', '[', '-c', String(connections), '-d', String(warmUpSeconds), ']']
      : [];
  const post = target.body
    ? ['-m', 'POST', '-H', 'content-type=application/json', '-b', target.body]
    : [];
  const { stdout } = await run(
    BIN,
    ['-c', String(connections), '-d', String(seconds), ...warmUp, '--json', ...post, target.url],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  // Newline-delimited: with a warm-up, its result comes first, the timed run's last.
  const lines = stdout.trim().split('\n');
  const json = JSON.parse(lines[lines.length - 1] as string) as AutocannonJson;
  const statuses: Record<string, number> = {};
  for (const [status, { count }] of Object.entries(json.statusCodeStats ?? {})) {
    if (!status.startsWith('2')) statuses[status] = count;
  }
  if (json.errors > 0) statuses.socket = json.errors;
  return {
    rps: json.requests.average,
    p50: json.latency.p50,
    p99: json.latency.p99,
    errors: json.non2xx + json.errors,
    statuses,
  };
}

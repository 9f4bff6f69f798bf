import os from 'node:os';
import { CONNECTIONS, GENERATE, RATE_LIMIT_POINTS, TEACHER, WARM_UP, out } from './load-settings';
import { KINDS, bump, type KindStats, type Result, type Stats } from './load-workload';

/** The tables a run prints: statuses, latencies and memory, overall and by kind of request. */

export type Rss = { start: number; peak: number; end: number };

/** Classes of statuses counted apart: 429 is not among the 4xx. */
const CLASSES: [string, (status: number) => boolean][] = [
  ['2xx', (s) => s >= 200 && s < 300],
  ['4xx', (s) => s >= 400 && s < 500 && s !== 429],
  ['429', (s) => s === 429],
  ['5xx', (s) => s >= 500],
];
const tally = (statuses: Map<number, number>, test: (status: number) => boolean) =>
  [...statuses].reduce((sum, [status, n]) => sum + (test(status) ? n : 0), 0);

const percentile = (sorted: number[], p: number) =>
  sorted.length ? (sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] as number) : NaN;
const WIDTHS = [21, 7, 8, 8, 8, 8, 8, 6, 6, 6];
const cells = (values: (string | number)[]) =>
  values.map((v, i) => String(v)[i ? 'padStart' : 'padEnd'](WIDTHS[i] ?? 8)).join('');
const counts = (map: Map<string | number, number>) =>
  [...map].map(([key, n]) => `${key}×${n}`).join(', ');

/** Prints the tables; true when the run failed (5xx, GraphQL server errors, connection errors). */
export function report(result: Result, stats: Stats, rss: Rss): boolean {
  const statuses = new Map<number, number>();
  for (const [s, v] of Object.entries(result.statusCodeStats)) statuses.set(Number(s), v.count);
  const server = tally(statuses, (s) => s >= 500);
  const gqlErrors = new Map<string, number>();
  for (const s of stats.values()) for (const [code, n] of s.graphqlErrors) bump(gqlErrors, code, n);
  const gqlServer = ['INTERNAL_SERVER_ERROR', 'SERVICE_UNAVAILABLE'].reduce(
    (sum, code) => sum + (gqlErrors.get(code) ?? 0),
    0,
  );
  const failed = server > 0 || gqlServer > 0 || result.errors > 0;
  const share = (group: string) => KINDS.reduce((sum, k) => sum + (k[1] === group ? k[2] : 0), 0);
  const { latency: l } = result;
  const non2xx = new Map([...statuses].filter(([s]) => s < 200 || s >= 300));

  out(
    [
      `\nMixed load: ${CONNECTIONS} connections for ${result.duration} s, after ${WARM_UP} s of warm-up at 10 (not counted)`,
      `Machine: ${os.cpus().length} CPUs shared by the service, MariaDB and autocannon`,
      `Service: production build, LOG_LEVEL=warn, RATE_LIMIT_POINTS=${RATE_LIMIT_POINTS} per 60 s: the per-key limiter is out of the way (this measures capacity, not the limit); 429s are counted apart`,
      `Data: generate ${GENERATE} --seed 1; requester ${TEACHER.email} (API key bound to localhost, access token from the login page)`,
      `Mix: reads ${share('read')}%, set making ${share('set making')}%, writes ${share('write')}%\n`,
    ].join('\n'),
  );
  const rows: [string, string | number][] = [
    ['requests/s (mean)', result.requests.mean.toFixed(1)],
    ['requests answered', result.requests.total],
    ['latency p50 / p97.5 / p99 (ms)', `${l.p50} / ${l.p97_5} / ${l.p99}`],
    ...CLASSES.map(([label, test]): [string, number] => [label, tally(statuses, test)]),
    ['non-2xx by status (all)', counts(non2xx) || '-'],
    ['GraphQL errors in 200 answers', counts(gqlErrors) || '0'],
    ['connection errors / timeouts', `${result.errors - result.timeouts} / ${result.timeouts}`],
    [
      'service RSS start / peak / end (MB)',
      [rss.start, rss.peak, rss.end].map(Math.round).join(' / '),
    ],
  ];
  for (const [label, value] of rows) out(`${label.padEnd(36)}${value}`);

  out(
    `\n${cells(['kind', 'share', 'count', 'p50 ms', 'p97.5', 'p99', '2xx', '4xx', '429', '5xx'])}  GraphQL errors`,
  );
  for (const [name] of KINDS) {
    const s = stats.get(name) as KindStats;
    const sorted = s.ms.sort((a, b) => a - b);
    const p = (q: number) => percentile(sorted, q).toFixed(0);
    const share = `${((100 * sorted.length) / Math.max(1, result.requests.total)).toFixed(1)}%`;
    const byClass = CLASSES.map(([, test]) => tally(s.statuses, test));
    const row = [name, share, sorted.length, p(50), p(97.5), p(99), ...byClass];
    out(`${cells(row)}  ${counts(s.graphqlErrors)}`);
  }
  const verdict = failed
    ? 'FAILED: 5xx, GraphQL server errors, connection errors or timeouts'
    : 'OK: no 5xx, no connection error, no timeout';
  out(`\nRESULT: ${verdict}`);
  return failed;
}

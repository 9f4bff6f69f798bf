/** How getResults grows from tier to tier: the cells several tiers share, side by side. */
import { out, SHAPE_LABEL, SHAPES, TRANSPORT_LABEL, type Transport } from './results-bench.config';
import type { TierReport } from './results-bench.tier-run';

/** The service's two transports and the floor: what the growth of a cell is read from. */
const GROWTH_TRANSPORTS: Transport[] = ['REST', 'GraphQL', 'floor'];

const cell = (text: string, width: number) => text.padStart(width);

function mb(value: number | undefined): string {
  return value === undefined ? '–' : value.toFixed(0);
}

function count(value: number): string {
  if (value >= 1e6) return `${(value / 1e6).toFixed(2)}M`;
  if (value >= 1e3) return `${(value / 1e3).toFixed(0)}k`;
  return String(value);
}

/**
 * Prints, once two tiers or more ran, the median of every (users × quizzes, shape, transport)
 * that at least two of them measured, one column per tier and the factor from each tier to the
 * next; then each tier's answers and the service's memory. A cell missing from a tier (tier S has
 * no 10,000-user set) shows –.
 */
export function printGrowth(reports: TierReport[]): void {
  if (reports.length < 2) return;
  const tiers = reports.map((r) => r.tier.name);
  const steps = reports.slice(1).map((r, i) => [reports[i] as TierReport, r] as const);
  const sizes = new Map<string, { users: number; quizzes: number }>();
  for (const report of reports) {
    for (const row of report.rows) sizes.set(`${row.users}×${row.quizzes}`, row);
  }
  const ordered = [...sizes.values()].sort((a, b) => a.users - b.users || a.quizzes - b.quizzes);
  const median = (report: TierReport, users: number, quizzes: number, key: string) =>
    report.rows.find(
      (r) => r.users === users && r.quizzes === quizzes && `${r.shape}/${r.transport}` === key,
    )?.medianMs;

  out(
    `\ngrowth from tier to tier: median ms of the cells at least two tiers measured (${tiers.join(' → ')})`,
  );
  const head =
    `${'users × quizzes'.padEnd(17)}${'shape'.padEnd(13)}${'transport'.padEnd(11)}` +
    tiers.map((t) => cell(t, 9)).join('') +
    steps.map(([a, b]) => cell(`${b.tier.name}÷${a.tier.name}`, 7)).join('');
  out(head);
  for (const { users, quizzes } of ordered) {
    for (const shape of SHAPES) {
      // The rows of the results: a cell of a larger tier may hold fewer (lower participation).
      const resultRows = reports.map(
        (r) =>
          r.rows.find(
            (row) => row.users === users && row.quizzes === quizzes && row.shape === shape,
          )?.resultRows,
      );
      if (resultRows.filter((n) => n !== undefined).length >= 2) {
        out(
          `${`${users} × ${quizzes}`.padEnd(17)}${SHAPE_LABEL[shape].padEnd(13)}${'rows'.padEnd(11)}` +
            resultRows.map((n) => cell(n === undefined ? '–' : String(n), 9)).join(''),
        );
      }
      for (const transport of GROWTH_TRANSPORTS) {
        const key = `${shape}/${transport}`;
        const values = reports.map((r) => median(r, users, quizzes, key));
        if (values.filter((v) => v !== undefined).length < 2) continue;
        const factors = steps.map(([a, b]) => {
          const from = median(a, users, quizzes, key);
          const to = median(b, users, quizzes, key);
          return from && to ? `${(to / from).toFixed(2)}×` : '–';
        });
        out(
          `${`${users} × ${quizzes}`.padEnd(17)}${SHAPE_LABEL[shape].padEnd(13)}${TRANSPORT_LABEL[transport].padEnd(11)}` +
            values.map((v) => cell(v === undefined ? '–' : v.toFixed(1), 9)).join('') +
            factors.map((f) => cell(f, 7)).join(''),
        );
      }
    }
  }
  const line = (label: string, values: string[]) =>
    out(`${label.padEnd(41)}${values.map((v) => cell(v, 9)).join('')}`);
  line(
    'answers',
    reports.map((r) => count(r.answers)),
  );
  line(
    'service RSS, peak over the run (MB)',
    reports.map((r) => mb(r.peakMb)),
  );
  line(
    'service RSS, peak in 10,000 × 100 (MB)',
    reports.map((r) => mb(r.bigCaseMb?.mb)),
  );
  line(
    'fixed cost of a request, REST (ms)',
    reports.map((r) => r.fixedMs.REST.toFixed(1)),
  );
}

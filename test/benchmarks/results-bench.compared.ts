/** This build against the compared one (BENCH_COMPARE_JS), cell by cell: medians and ratios. */
import {
  COMPARE_RATIO,
  median,
  out,
  SHAPE_LABEL,
  TRANSPORT_LABEL,
  type Row,
  type Transport,
} from './results-bench.config';
import type { TierReport } from './results-bench.tier-run';

/** Each of this build's targets and its counterpart on the compared build. */
const PAIRS: { mine: Transport; theirs: Transport; counted: boolean }[] = [
  { mine: 'REST', theirs: 'compareREST', counted: true },
  { mine: 'GraphQL', theirs: 'compareGraphQL', counted: true },
  // Information: the statement alone (rolled back) of each build, what the scoping changes.
  { mine: 'stmt', theirs: 'compareStmt', counted: false },
  // Information only: under the requester scope an anonymous aggregate reads no answer.
  { mine: 'anonREST', theirs: 'compareAnonREST', counted: false },
];

interface Pair {
  mine: Row;
  theirs: Row;
  /** The median of the runs' ratios (run i of both builds ran in the same round). */
  ratio: number;
  counted: boolean;
}

/**
 * The median of each round's ratio, this build's time over the compared build's: the load of a
 * shared machine drifts over a run, and a round's two requests run a few ms apart, so the paired
 * ratios are steadier than the ratio of the two medians.
 */
function pairedRatio(mine: Row, theirs: Row): number {
  const a = mine.runsMs ?? [];
  const b = theirs.runsMs ?? [];
  if (a.length === 0 || a.length !== b.length) return mine.medianMs / theirs.medianMs;
  return median(a.map((ms, i) => ms / (b[i] as number)));
}

function pairsOf(report: TierReport): Pair[] {
  const find = (r: Row, transport: Transport) =>
    report.rows.find(
      (o) =>
        o.transport === transport &&
        o.users === r.users &&
        o.quizzes === r.quizzes &&
        o.shape === r.shape,
    );
  return PAIRS.flatMap(({ mine, theirs, counted }) =>
    report.rows
      .filter((r) => r.transport === mine)
      .flatMap((r) => {
        const other = find(r, theirs);
        return other ? [{ mine: r, theirs: other, ratio: pairedRatio(r, other), counted }] : [];
      }),
  );
}

const geometricMean = (values: number[]) =>
  Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length);

/**
 * Prints, when a compared build ran, every cell's median on both builds and their paired ratio, then
 * at tier M the target: every cell of an authenticated request (REST, GraphQL) within
 * COMPARE_RATIO (1.03) of the compared build, with the geometric mean of the ratios per transport
 * (what noise on single cells averages out of).
 */
export function printComparedBuild(reports: TierReport[]): void {
  const all = reports.map((report) => ({ report, pairs: pairsOf(report) }));
  if (all.every(({ pairs }) => pairs.length === 0)) return;
  out(
    "\nthis build against the compared build (BENCH_COMPARE_JS): medians in ms; ratio: the median of the runs' ratios (this / compared, run by run)",
  );
  out(
    `${'tier'.padEnd(5)}${'users × quizzes'.padEnd(17)}${'shape'.padEnd(13)}${'transport'.padEnd(16)}${'this'.padStart(9)}${'compared'.padStart(10)}${'ratio'.padStart(8)}`,
  );
  for (const { report, pairs } of all) {
    for (const { mine, theirs, ratio } of pairs) {
      out(
        `${report.tier.name.padEnd(5)}${`${mine.users} × ${mine.quizzes}`.padEnd(17)}${SHAPE_LABEL[mine.shape].padEnd(13)}${TRANSPORT_LABEL[mine.transport].padEnd(16)}${mine.medianMs.toFixed(1).padStart(9)}${theirs.medianMs.toFixed(1).padStart(10)}${ratio.toFixed(3).padStart(8)}`,
      );
    }
  }
  for (const { report, pairs } of all) {
    const means = PAIRS.flatMap(({ mine }) => {
      const ratios = pairs.filter((p) => p.mine.transport === mine).map((p) => p.ratio);
      return ratios.length ? [`${TRANSPORT_LABEL[mine]} ${geometricMean(ratios).toFixed(3)}`] : [];
    });
    out(`tier ${report.tier.name} geometric mean of the ratios: ${means.join(', ')}`);
  }
  const m = all.find(({ report }) => report.tier.name === 'M');
  const counted = m?.pairs.filter((p) => p.counted) ?? [];
  if (counted.length === 0) return;
  const over = counted.filter((p) => p.ratio > COMPARE_RATIO);
  out(
    `TARGET tier M: every getResults median ≤ ${COMPARE_RATIO}× the compared build's: ${over.length === 0 ? 'MET' : `MISSED in ${over.length} of ${counted.length}`}` +
      over
        .map(
          ({ mine, ratio }) =>
            `\n  ${mine.users} × ${mine.quizzes} ${SHAPE_LABEL[mine.shape]} ${mine.transport}: ${ratio.toFixed(3)}×`,
        )
        .join(''),
  );
}

/** The targets of tier L: the 10,000 × 100 case, close to its floor and within the memory bound. */
import { out, SHAPE_LABEL } from './results-bench.config';
import type { TierReport } from './results-bench.tier-run';

/** Service time / floor time allowed at 10,000 users × 100 quizzes on tier L. */
const L_RATIO = 1.2;
const RSS_LIMIT_MB = 300;

/**
 * Tier L's targets, when it ran: every service row of 10,000 × 100 within 1.2× its floor (each
 * was answered: a failed request, a timeout included, stops the run), and the service's RSS under
 * 300 MB while they ran. A missed ratio is shown with its lower bound, the fixed cost of a request
 * plus the service's statement alone.
 */
export function printTierLTargets(reports: TierReport[]): void {
  const l = reports.find((r) => r.tier.name === 'L');
  if (!l) return;
  const big = l.rows.filter((r) => r.users === 10000 && r.quizzes === 100);
  const service = big.filter((r) => r.transport === 'REST' || r.transport === 'GraphQL');
  if (service.length === 0) return;
  const missed = service.filter((r) => r.ratio > L_RATIO);
  const bound = (r: (typeof service)[number]): number => {
    const stmt = big.find((s) => s.transport === 'stmt' && s.shape === r.shape);
    const floorMs = r.medianMs / r.ratio;
    return (l.fixedMs[r.transport as 'REST' | 'GraphQL'] + (stmt?.medianMs ?? 0)) / floorMs;
  };
  out(
    `\nTARGET tier L 10,000 × 100 answered, ≤ ${L_RATIO}× floor: ${missed.length === 0 ? 'MET' : `MISSED in ${missed.length} of ${service.length}`}` +
      service
        .map(
          (r) =>
            `\n  ${SHAPE_LABEL[r.shape]} ${r.transport}: ${r.medianMs.toFixed(1)} ms, ${r.ratio.toFixed(2)}× floor` +
            (r.ratio > L_RATIO ? ` (fixed cost + statement alone: ${bound(r).toFixed(2)}×)` : ''),
        )
        .join(''),
  );
  if (l.bigCaseMb) {
    out(
      `TARGET tier L RSS < ${RSS_LIMIT_MB} MB during 10,000 × 100: ${l.bigCaseMb.mb < RSS_LIMIT_MB ? 'MET' : 'MISSED'} (${l.bigCaseMb.mb.toFixed(0)} MB; peak over the run ${l.peakMb.toFixed(0)} MB)`,
    );
  }
}

/** The targets of tiers M and L: what a request adds to its floor, throughput, memory. */
import { out, SHAPE_LABEL, type Row } from './results-bench.config';
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

/** What a getResults request may add to its floor at tier M: 1.5 ms, plus 1 µs per row written. */
const M_FIXED_MS = 1.5;
const M_PER_ROW_MS = 0.001;
const STMT_RATIO = 1.1;
/** Above this many rows written, the statement alone may take up to STMT_RATIO_LARGE × floor. */
const STMT_LARGE_ROWS = 1000;
const STMT_RATIO_LARGE = 1.4;
const THROUGHPUT_RATIO = 0.7;

/**
 * Tier M's targets, when it ran. Each service row: its median minus the floor's at most 1.5 ms
 * plus 1 µs per row the request writes (every item of the result set: what any implementation of
 * the contract must do is authenticate, write and commit the set, and answer over HTTP); the
 * service's statement alone within 1.1× the floor (1.4× in a cell writing over 1,000 rows); the
 * throughput at 32 connections at least 0.7× the floor's; no full scan of answers; RSS under 300 MB during 10,000 × 100.
 */
export function printTierMTargets(reports: TierReport[]): void {
  const m = reports.find((r) => r.tier.name === 'M');
  if (!m) return;
  const floorOf = (r: Row) =>
    m.rows.find(
      (f) =>
        f.transport === 'floor' &&
        f.users === r.users &&
        f.quizzes === r.quizzes &&
        f.shape === r.shape,
    );
  const cell = (r: Row) => `${r.users} × ${r.quizzes} ${SHAPE_LABEL[r.shape]} ${r.transport}`;
  const service = m.rows.filter((r) => r.transport === 'REST' || r.transport === 'GraphQL');
  const over = service.flatMap((r) => {
    const floor = floorOf(r);
    if (!floor) return [];
    const added = r.medianMs - floor.medianMs;
    const allowed = M_FIXED_MS + M_PER_ROW_MS * r.resultRows;
    return added > allowed ? [{ r, added, allowed }] : [];
  });
  const { httpMs, commitMs } = m.fixedFloorMs;
  out(
    `\nTARGET tier M: service median − floor median ≤ ${M_FIXED_MS} ms + 1 µs per row written: ${over.length === 0 ? 'MET' : `MISSED in ${over.length} of ${service.length}`}` +
      ` (fixed cost REST ${m.fixedMs.REST.toFixed(2)} ms, GraphQL ${m.fixedMs.GraphQL.toFixed(2)} ms; an HTTP round trip and a committed exchange alone: ${(httpMs + commitMs).toFixed(2)} ms)` +
      over
        .map(
          ({ r, added, allowed }) =>
            `\n  ${cell(r)} (${r.resultRows} rows): +${added.toFixed(2)} ms, allowed ${allowed.toFixed(2)} ms`,
        )
        .join(''),
  );
  const statements = m.rows.filter((r) => r.transport === 'stmt');
  const allowedRatio = (r: Row) => (r.resultRows > STMT_LARGE_ROWS ? STMT_RATIO_LARGE : STMT_RATIO);
  const slow = statements.filter((r) => r.ratio > allowedRatio(r));
  out(
    `TARGET tier M: the service's statement alone ≤ ${STMT_RATIO}× floor (≤ ${STMT_RATIO_LARGE}× writing over ${STMT_LARGE_ROWS} rows): ${slow.length === 0 ? 'MET' : `MISSED in ${slow.length} of ${statements.length}`}` +
      slow
        .map(
          (r) =>
            `\n  ${cell(r)} (${r.resultRows} rows): ${r.ratio.toFixed(2)}×, allowed ${allowedRatio(r)}×`,
        )
        .join(''),
  );
  if (m.throughput) {
    const rows = m.throughput.rows.filter(
      (r) => r.transport === 'REST' || r.transport === 'GraphQL',
    );
    const low = rows.filter((r) => r.ratio < THROUGHPUT_RATIO);
    out(
      `TARGET tier M: throughput at 32 connections ≥ ${THROUGHPUT_RATIO}× floor: ${low.length === 0 ? 'MET' : `MISSED in ${low.length} of ${rows.length}`} (${rows.map((r) => `${r.transport} ${r.ratio.toFixed(2)}×`).join(', ')})`,
    );
  }
  if (m.explainOk !== undefined) {
    out(
      `TARGET no full scan of answers for a 100-user set (EXPLAIN above): ${m.explainOk ? 'MET' : 'MISSED'}`,
    );
  }
  if (m.bigCaseMb) {
    out(
      `TARGET RSS < ${RSS_LIMIT_MB} MB during 10,000 × 100: ${m.bigCaseMb.mb < RSS_LIMIT_MB ? 'MET' : 'MISSED'} (${m.bigCaseMb.mb.toFixed(0)} MB)`,
    );
  }
}

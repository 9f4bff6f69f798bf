import type { PhaseResult } from './ingest-phase';
import {
  BATCH,
  COMPARE_RATIO,
  GENERATE,
  PACED_RATE,
  PROBE_BATCH,
  PROBE_INTERVAL_MS,
  ROUNDS,
  SECONDS,
  TARGET,
  TRUNCATE,
  WRITERS,
  median,
  out,
  percentile,
} from './ingest-settings';
import { TARGET_LABEL, type Target } from './ingest-sinks';

/** The table of a run: answers/s per round and median, the probe's percentiles, memory, targets. */

export interface Memory {
  idleMb: number;
  hwmMb: number;
  cpus: number;
}

const pad = (text: string | number, width: number) => String(text).padStart(width);

/** Prints the tables; true when a batch was refused or failed. */
export function report(rounds: PhaseResult[][], memory: Memory): boolean {
  const of = (target: Target, paced = false) =>
    rounds.flatMap((phases) =>
      phases.filter((p) => p.target === target && (p.rate !== undefined) === paced),
    );
  const rate = (target: Target, paced = false) =>
    median(of(target, paced).map((p) => p.answersPerSecond));
  const probe = (target: Target, p: number, paced = false) =>
    median(of(target, paced).map((phase) => percentile(phase.probeMs, p)));
  const probeCells = (target: Target, paced = false) =>
    [50, 95, 99].map((p) => probe(target, p, paced).toFixed(1)).join(' / ');

  out(
    [
      `\nIngestion: ${WRITERS} writers sending batches of ${BATCH} answers back to back, each writer to its own session`,
      `(${GENERATE.questions}-question quizzes, 1,000 pupils; every answer a new row), ${SECONDS} s per phase, ${ROUNDS} rounds,`,
      `targets interleaved (order rotated each round); probe: ${PROBE_BATCH} answers every ${PROBE_INTERVAL_MS} ms to a session of its own,`,
      `under the same load; answers table ${TRUNCATE ? 'emptied before each phase' : 'kept from phase to phase'}.`,
      `Machine: ${memory.cpus} CPUs shared by the service, MariaDB and this process.\n`,
    ].join('\n'),
  );
  const floor = rate('floor');
  const header =
    `${'target'.padEnd(44)}${'answers/s by round'.padStart(6 + 8 * ROUNDS)}` +
    `${'median'.padStart(9)}${'× floor'.padStart(9)}   probe ack ms p50 / p95 / p99`;
  out(header);
  const row = (target: Target, paced: boolean) => {
    const perRound = of(target, paced).map((p) => pad(Math.round(p.answersPerSecond), 8));
    const label = `${TARGET_LABEL[target]}${paced ? ' (paced)' : ''}`;
    out(
      `${label.padEnd(44)}      ${perRound.join('')}${pad(Math.round(rate(target, paced)), 9)}` +
        `${pad(present('floor', paced) ? (rate(target, paced) / rate('floor', paced)).toFixed(2) : '–', 9)}   ${probeCells(target, paced)}`,
    );
  };
  const hasBurst = rounds.flat().some((p) => p.rate === undefined);
  const hasPaced = rounds.flat().some((p) => p.rate !== undefined);
  const present = (target: Target, paced: boolean) => of(target, paced).length > 0;
  const targets: Target[] = ['service', 'hooks', 'compare', 'floor', 'floorTx'];
  if (hasBurst) for (const target of targets) if (present(target, false)) row(target, false);
  if (hasPaced) {
    out(
      `writers paced to ${PACED_RATE.toLocaleString('en')} answers/s in all (a batch every ` +
        `${((1000 * WRITERS * BATCH) / PACED_RATE).toFixed(0)} ms per writer):`,
    );
    for (const target of targets) if (present(target, true)) row(target, true);
  }
  out(
    `(probe percentiles: per phase over its ~${Math.round((SECONDS * 1000) / PROBE_INTERVAL_MS)} batches, then the median of the rounds)`,
  );

  const service = rounds.flat().filter((p) => p.target === 'service');
  const rss = (key: 'peakMb' | 'endMb') => median(service.map((p) => p.rss?.[key] ?? NaN));
  out(
    `\nservice RSS (VmRSS): ${memory.idleMb.toFixed(0)} MB idle before the run; during load, peak ${rss('peakMb').toFixed(0)} MB ` +
      `and ${rss('endMb').toFixed(0)} MB at the end of a phase (medians of rounds); VmHWM over the run ${memory.hwmMb.toFixed(0)} MB`,
  );
  const notNew = rounds.flat().filter((p) => p.inserted !== p.answers);
  for (const p of notNew) {
    out(
      `note: ${TARGET_LABEL[p.target]}: ${p.answers - p.inserted} answers were not new rows ` +
        `(writer:batch inserted/sent ${p.notNew.slice(0, 10).join(', ')})`,
    );
  }
  const errors = rounds.flat().filter((p) => p.errors.size > 0);
  for (const p of errors) {
    out(
      `ERRORS ${TARGET_LABEL[p.target]}: ${[...p.errors].map(([k, n]) => `${k} ×${n}`).join(', ')}`,
    );
  }
  const verdict = (met: boolean) => (met ? 'MET' : 'MISSED');
  const p99Line = (paced: boolean, load: string) => {
    const p99 = probe('service', 99, paced);
    out(
      `TARGET p99 ≤ ${TARGET.probeP99Ms} ms for a ${PROBE_BATCH}-answer batch ${load}: ` +
        `${verdict(p99 <= TARGET.probeP99Ms)} (${p99.toFixed(1)} ms` +
        `${present('floor', paced) ? `; the floor ${probe('floor', 99, paced).toFixed(1)} ms` : ''})`,
    );
  };
  out('');
  if (hasBurst) {
    const served = rate('service');
    out(
      `TARGET ≥ ${TARGET.answersPerSecond.toLocaleString('en')} answers/s through the service: ` +
        `${verdict(served >= TARGET.answersPerSecond)} (median ${Math.round(served)}` +
        `${present('floor', false) ? `; the floor ${Math.round(floor)}` : ''})`,
    );
    p99Line(false, 'beside writers sending back to back');
  }
  if (hasPaced)
    p99Line(true, `beside writers paced to ${PACED_RATE.toLocaleString('en')} answers/s`);
  for (const paced of [false, true].filter((paced) => present('compare', paced))) {
    out(
      `compared build, ${paced ? 'paced' : 'back to back'}: ${Math.round(rate('compare', paced))} answers/s, ` +
        `probe ${probeCells('compare', paced)} ms; this build ${Math.round(rate('service', paced))} answers/s, ` +
        `probe ${probeCells('service', paced)} ms`,
    );
  }
  if (present('compare', false)) compareLine(of('service'), of('compare'));
  return errors.length > 0;
}

/**
 * This build's answers/s over the compared build's, round by round (phases of one round run
 * minutes apart at most, so the machine's load weighs on both alike), and their median against
 * the ratio allowed (BENCH_COMPARE_RATIO: 0.95, within 5 %).
 */
function compareLine(service: PhaseResult[], compare: PhaseResult[]): void {
  const ratios = service.map(
    (phase, i) => phase.answersPerSecond / (compare[i]?.answersPerSecond ?? NaN),
  );
  const ratio = median(ratios);
  out(
    `TARGET this build ≥ ${COMPARE_RATIO}× the compared build's answers/s (median of the rounds' ratios): ` +
      `${ratio >= COMPARE_RATIO ? 'MET' : 'MISSED'} (${ratio.toFixed(3)}; by round ${ratios.map((r) => r.toFixed(3)).join(', ')})`,
  );
}

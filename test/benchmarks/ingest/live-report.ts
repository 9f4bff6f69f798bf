import {
  LIVE_JITTER_MS,
  LIVE_PER_CONNECTION,
  LIVE_PUPILS,
  LIVE_TARGET,
  LIVE_THINK_MS,
  LIVE_WARM_UP,
  out,
  percentile,
} from './ingest-settings';
import { LIVE_PATH_LABEL, type LivePhaseResult } from './live-phase';

/** The live phase's table: latency percentiles, rates, errors, memory and the targets. */

const pad = (text: string | number, width: number) => String(text).padStart(width);
const verdict = (met: boolean) => (met ? 'MET' : 'MISSED');

/** Prints the table; true when a batch was refused, a subscription failed or a batch never showed. */
export function reportLive(runs: readonly LivePhaseResult[], pollIntervalMs: number): boolean {
  const [first] = runs;
  if (!first) return false;
  out(
    [
      `\nLive results: ${first.sessions} sessions of ${LIVE_PUPILS} pupils (${first.quizzes} quiz${first.quizzes > 1 ? 'zes' : ''} of questions answered one after the other,`,
      `${LIVE_THINK_MS.min / 1000} to ${LIVE_THINK_MS.max / 1000} s of thought before each answer, every answer a new row); each session's classroom app sends`,
      `one addAnswers batch about every second (±${LIVE_JITTER_MS} ms, sessions de-phased); each session subscribed once (sessionResults,`,
      `nbAnswers and nbGoodAnswers, detailed) over ${first.connections} graphql-ws connections of ${LIVE_PER_CONNECTION}; ${LIVE_WARM_UP} s of warm-up, then ${first.seconds} s measured.`,
      `Latency: from a batch's acknowledgement to the first message of its session whose nbAnswers add up to the`,
      `session's count after it (0 when a message came first); LIVE_POLL_INTERVAL_MS ${pollIntervalMs}.\n`,
    ].join('\n'),
  );
  out(
    `${'path'.padEnd(44)}latency ms p50 / p95 / p99 / max   msgs/sub/s  batches/s  answers/s  errors`,
  );
  for (const run of runs) {
    const cells = [50, 95, 99, 100]
      .map((p) => percentile(run.latenciesMs, p).toFixed(0))
      .join(' / ');
    const errors = [...run.errors.values()].reduce((a, b) => a + b, 0);
    out(
      `${LIVE_PATH_LABEL[run.path].padEnd(44)}${cells.padStart(32)}` +
        `${pad((run.messages / run.sessions / run.seconds).toFixed(2), 14)}` +
        `${pad((run.batches / run.seconds).toFixed(1), 11)}${pad((run.answers / run.seconds).toFixed(0), 11)}` +
        `${pad(errors, 8)}`,
    );
  }
  out(
    `(over each run's ${runs.map((run) => run.latenciesMs.length).join(' / ')} batches; ` +
      `reflected before their acknowledgement: ${runs.map((run) => run.beforeAck).join(' / ')})`,
  );
  for (const run of runs) {
    out(
      `service RSS (VmRSS) and CPU in the window, ${LIVE_PATH_LABEL[run.path]}: ` +
        run.rss
          .map(
            (r) =>
              `${r.name} peak ${r.peakMb.toFixed(0)} MB, ${r.endMb.toFixed(0)} MB at the end, ` +
              `${(100 * r.cores).toFixed(0)}% of a core`,
          )
          .join('; ') +
        ` (this process ${(100 * run.benchCores).toFixed(0)}%)`,
    );
  }
  for (const run of runs.filter((run) => run.inserted !== run.answers)) {
    out(
      `note: ${LIVE_PATH_LABEL[run.path]}: ${run.answers - run.inserted} answers were not new rows`,
    );
  }
  const failed = runs.filter((run) => run.errors.size > 0);
  for (const run of failed) {
    out(
      `ERRORS ${LIVE_PATH_LABEL[run.path]}: ${[...run.errors].map(([k, n]) => `${k} ×${n}`).join(', ')}`,
    );
  }
  out('');
  for (const run of runs) {
    const p95 = percentile(run.latenciesMs, 95);
    out(
      `TARGET live p95 ≤ ${LIVE_TARGET.p95Ms} ms, ${LIVE_PATH_LABEL[run.path]}: ` +
        `${verdict(p95 <= LIVE_TARGET.p95Ms)} (${p95.toFixed(0)} ms)`,
    );
  }
  const rss = runs.flatMap((run) => run.rss.map((r) => ({ ...r, path: run.path })));
  const peak = Math.max(...rss.map((r) => r.peakMb));
  const end = Math.max(...rss.map((r) => r.endMb));
  out(
    `TARGET service RSS < ${LIVE_TARGET.rssMb} MB during the live phase (peak and end): ` +
      `${verdict(peak < LIVE_TARGET.rssMb && end < LIVE_TARGET.rssMb)} (peak ${peak.toFixed(0)} MB, end ${end.toFixed(0)} MB, the highest of any instance)`,
  );
  return failed.length > 0;
}

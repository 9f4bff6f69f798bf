import os from 'node:os';
import {
  LIVE_JITTER_MS,
  LIVE_PER_CONNECTION,
  LIVE_PUPILS,
  LIVE_THINK_MS,
  LIVE_WARM_UP,
  median,
  out,
  percentile,
} from './ingest-settings';
import { LIVE_PATH_LABEL, type LivePath, type LivePhaseResult } from './live-phase';
import { LIVE_ROUNDS, LIVE_SUBSCRIBERS, LIVE_TARGETS } from './live-settings';

/**
 * The live phase's tables: for each path and number of subscribers per session, the latency
 * percentiles (pooled over the rounds), rates and errors; the CPU time per batch and per message
 * (median of the rounds) and its growth with the subscribers; memory; and the issue's targets.
 */

const pad = (text: string | number, width: number) => String(text).padStart(width);
const verdict = (met: boolean) => (met ? 'MET' : 'MISSED');
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const errorCount = (run: LivePhaseResult) => sum([...run.errors.values()]);
const plural = (n: number) => `${n} subscriber${n > 1 ? 's' : ''}`;

type Instance = LivePhaseResult['rss'][number];

/** The instance holding the subscriptions, and the other one (the writes) when there are two. */
const serving = (run: LivePhaseResult) => run.rss.find((r) => r.subscriptions) ?? run.rss[0];
const writing = (run: LivePhaseResult) => run.rss.find((r) => !r.subscriptions);

/** CPU ms of the subscriptions' instance per batch and per message delivered, in one run. */
const perBatch = (run: LivePhaseResult) => (serving(run)?.cpuMs ?? NaN) / run.batches;
const perMessage = (run: LivePhaseResult) => (serving(run)?.cpuMs ?? NaN) / run.messages;

/** The runs of one path with one number of subscribers per session, over the rounds. */
interface Group {
  path: LivePath;
  subscribers: number;
  runs: LivePhaseResult[];
}

function groups(runs: readonly LivePhaseResult[]): Group[] {
  const found: Group[] = [];
  for (const run of runs) {
    const group = found.find((g) => g.path === run.path && g.subscribers === run.subscribers);
    if (group) group.runs.push(run);
    else found.push({ path: run.path, subscribers: run.subscribers, runs: [run] });
  }
  return found.sort((a, b) =>
    a.path === b.path ? a.subscribers - b.subscribers : a.path === 'local' ? -1 : 1,
  );
}

function header(first: LivePhaseResult, pollIntervalMs: number): void {
  out(
    [
      `\nLive results: ${first.sessions} sessions of ${LIVE_PUPILS} pupils (${first.quizzes} quiz${first.quizzes > 1 ? 'zes' : ''} of questions answered one after the other,`,
      `${LIVE_THINK_MS.min / 1000} to ${LIVE_THINK_MS.max / 1000} s of thought before each answer, every answer a new row); each session's classroom app sends`,
      `one addAnswers batch about every second (±${LIVE_JITTER_MS} ms, sessions de-phased). Each session followed by 1, then by ${LIVE_SUBSCRIBERS},`,
      `sessionResults subscriptions (nbAnswers and nbGoodAnswers, detailed; the same query and the teacher's token, so that`,
      `an instance shares one computation among them), ${LIVE_PER_CONNECTION} to a graphql-ws connection, a session's on different ones;`,
      `${LIVE_ROUNDS} round${LIVE_ROUNDS > 1 ? 's' : ''} of each path, the two runs' order swapped from round to round; each run ${LIVE_WARM_UP} s of warm-up, then ${first.seconds} s measured.`,
      `Latency: from a batch's acknowledgement to the first message on each subscription to its session whose nbAnswers`,
      `add up to the session's count after it (0 when a message came first), pooled over subscriptions and rounds;`,
      `LIVE_POLL_INTERVAL_MS ${pollIntervalMs}.\n`,
    ].join('\n'),
  );
}

function latencyTable(all: readonly Group[]): void {
  out(
    `${'path'.padEnd(42)}subs  latency ms p50 / p95 / p99 / max  msgs/sub/s  batches/s  answers/s  errors`,
  );
  for (const { path, subscribers, runs } of all) {
    const latencies = runs.flatMap((run) => run.latenciesMs);
    const cells = [50, 95, 99, 100].map((p) => percentile(latencies, p).toFixed(0)).join(' / ');
    const seconds = sum(runs.map((run) => run.seconds));
    const subscriptions = runs[0] ? runs[0].sessions * subscribers : NaN;
    out(
      `${LIVE_PATH_LABEL[path].padEnd(42)}${pad(subscribers, 4)}${cells.padStart(32)}` +
        `${pad((sum(runs.map((r) => r.messages)) / subscriptions / seconds).toFixed(2), 12)}` +
        `${pad((sum(runs.map((r) => r.batches)) / seconds).toFixed(1), 11)}` +
        `${pad((sum(runs.map((r) => r.answers)) / seconds).toFixed(0), 11)}` +
        `${pad(sum(runs.map(errorCount)), 8)}`,
    );
  }
  out(
    `(values per row: ${all.map((g) => sum(g.runs.map((r) => r.latenciesMs.length))).join(' / ')} subscriber-batches; ` +
      `reflected before their acknowledgement: ${all.map((g) => sum(g.runs.map((r) => r.beforeAck))).join(' / ')})`,
  );
}

function cpuTable(all: readonly Group[]): void {
  out(
    `\nCPU time of the instance holding the subscriptions over the measured window (utime + stime of /proc/<pid>/stat),` +
      `\nper batch acknowledged and per message delivered, median of the rounds (the rounds' values in brackets):`,
  );
  out(
    `${'path'.padEnd(42)}subs   CPU ms/batch             CPU ms/message           % of a core  writes' instance ms/batch`,
  );
  const list = (values: number[], digits: number) =>
    `${median(values).toFixed(digits)} (${values.map((v) => v.toFixed(digits)).join(', ')})`;
  for (const { path, subscribers, runs } of all) {
    const writes = runs.map((run) => (writing(run)?.cpuMs ?? NaN) / run.batches);
    out(
      `${LIVE_PATH_LABEL[path].padEnd(42)}${pad(subscribers, 4)}   ` +
        `${list(runs.map(perBatch), 2).padEnd(25)}${list(runs.map(perMessage), 3).padEnd(25)}` +
        `${pad((100 * median(runs.map((r) => serving(r)?.cores ?? NaN))).toFixed(0), 11)}` +
        `${pad(path === 'cross' ? median(writes).toFixed(2) : '(the same)', 27)}`,
    );
  }
}

/** Each round's ratio of the LIVE_SUBSCRIBERS run to the 1-subscriber run of the same path. */
function ratios(runs: readonly LivePhaseResult[], path: LivePath) {
  const pairs: { batch: number; message: number }[] = [];
  for (let round = 1; round <= LIVE_ROUNDS; round += 1) {
    const of = (n: number) =>
      runs.find((r) => r.path === path && r.round === round && r.subscribers === n);
    const one = of(1);
    const many = of(LIVE_SUBSCRIBERS);
    if (one && many) {
      pairs.push({
        batch: perBatch(many) / perBatch(one),
        message: perMessage(many) / perMessage(one),
      });
    }
  }
  return {
    batch: median(pairs.map((p) => p.batch)),
    message: median(pairs.map((p) => p.message)),
    rounds: pairs,
  };
}

function memory(all: readonly Group[]): void {
  out(`\nservice RSS (VmRSS) per round (an instance keeps what an earlier run made it take):`);
  for (const { path, subscribers, runs } of all) {
    const names = runs[0]?.rss.map((r) => r.name) ?? [];
    const mb = (of: (r: Instance) => number, name: string) =>
      runs
        .map((run) => {
          const instance = run.rss.find((r) => r.name === name);
          return instance ? of(instance).toFixed(0) : '-';
        })
        .join(' / ');
    const cells = names.map(
      (name) =>
        `${name} peak ${mb((r) => r.peakMb, name)} MB, at the end ${mb((r) => r.endMb, name)} MB`,
    );
    out(
      `${LIVE_PATH_LABEL[path]}, ${plural(subscribers)}: ${cells.join('; ')}` +
        ` (this process ${(100 * median(runs.map((r) => r.benchCores))).toFixed(0)}% of a core; ` +
        `load average ${runs.map((r) => r.loadAverage.toFixed(1)).join(' / ')} on ${os.cpus().length} cores)`,
    );
  }
}

/** Prints the tables; true when a batch was refused, a subscription failed or a batch never showed. */
export function reportLive(runs: readonly LivePhaseResult[], pollIntervalMs: number): boolean {
  const [first] = runs;
  if (!first) return false;
  const all = groups(runs);
  const paths = [...new Set(all.map((g) => g.path))];
  header(first, pollIntervalMs);
  latencyTable(all);
  cpuTable(all);
  if (LIVE_SUBSCRIBERS > 1) {
    for (const path of paths) {
      const r = ratios(runs, path);
      out(
        `${plural(LIVE_SUBSCRIBERS)} per session over 1, ${LIVE_PATH_LABEL[path]}: CPU per batch ` +
          `${r.batch.toFixed(2)}×, per message ${r.message.toFixed(2)}× (rounds: ` +
          `${r.rounds.map((p) => `${p.batch.toFixed(2)}× and ${p.message.toFixed(2)}×`).join('; ')})`,
      );
    }
  }
  memory(all);
  for (const run of runs.filter((run) => run.inserted !== run.answers)) {
    out(
      `note: ${LIVE_PATH_LABEL[run.path]}, ${plural(run.subscribers)}, round ${run.round}: ` +
        `${run.answers - run.inserted} answers were not new rows`,
    );
  }
  const failed = runs.filter((run) => run.errors.size > 0);
  for (const run of failed) {
    out(
      `ERRORS ${LIVE_PATH_LABEL[run.path]}, ${plural(run.subscribers)}, round ${run.round}: ` +
        [...run.errors].map(([k, n]) => `${k} ×${n}`).join(', '),
    );
  }
  targets(runs, all, paths);
  return failed.length > 0;
}

function targets(
  runs: readonly LivePhaseResult[],
  all: readonly Group[],
  paths: readonly LivePath[],
): void {
  out('');
  for (const { path, runs: measured } of all.filter((g) => g.subscribers === LIVE_SUBSCRIBERS)) {
    const limit = path === 'local' ? LIVE_TARGETS.localP95Ms : LIVE_TARGETS.crossP95Ms;
    const p95 = percentile(
      measured.flatMap((run) => run.latenciesMs),
      95,
    );
    out(
      `TARGET live p95 ≤ ${limit} ms, ${LIVE_PATH_LABEL[path]}, ${plural(LIVE_SUBSCRIBERS)} per session: ` +
        `${verdict(p95 <= limit)} (${p95.toFixed(0)} ms)`,
    );
  }
  for (const path of LIVE_SUBSCRIBERS > 1 ? paths : []) {
    const r = ratios(runs, path);
    out(
      `TARGET CPU per message not growing with a session's subscribers (${LIVE_SUBSCRIBERS} over 1 ≤ ` +
        `${LIVE_TARGETS.cpuPerMessageRatio.toFixed(2)}×), ${LIVE_PATH_LABEL[path]}: ` +
        `${verdict(r.message <= LIVE_TARGETS.cpuPerMessageRatio)} (${r.message.toFixed(2)}×; per batch ${r.batch.toFixed(2)}×)`,
    );
  }
  const rss = runs.flatMap((run) => run.rss);
  const peak = Math.max(...rss.map((r) => r.peakMb));
  const end = Math.max(...rss.map((r) => r.endMb));
  out(
    `TARGET service RSS < ${LIVE_TARGETS.rssMb} MB during the live phase (peak and end): ` +
      `${verdict(peak < LIVE_TARGETS.rssMb && end < LIVE_TARGETS.rssMb)} (peak ${peak.toFixed(0)} MB, end ${end.toFixed(0)} MB, the highest of any instance and run)`,
  );
  const errors = sum(runs.map(errorCount));
  out(
    `TARGET errors = ${LIVE_TARGETS.errors} in the live phase: ${verdict(errors <= LIVE_TARGETS.errors)} ` +
      `(${errors} over ${runs.length} runs)`,
  );
}

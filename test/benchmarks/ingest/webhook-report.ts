import type { PhaseResult } from './ingest-phase';
import {
  PACED_RATE,
  WEBHOOK_REFLECT_TIMEOUT_MS,
  WEBHOOK_TARGET,
  median,
  out,
  percentile,
} from './ingest-settings';
import type { Target } from './ingest-sinks';

/** The webhook lines of a run (BENCH_WEBHOOKS=1): answers/s off and on, delivery latency, signatures. */

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(0) : '–');
const verdict = (met: boolean) => (met ? 'MET' : 'MISSED');

/** Prints them; true when a message failed its signature or a batch's event never came. */
export function reportWebhooks(
  rounds: PhaseResult[][],
  run: { messages: number; signatureFailures: number },
): boolean {
  const of = (target: Target, paced: boolean) =>
    rounds.flatMap((phases) =>
      phases.filter((p) => p.target === target && (p.rate !== undefined) === paced),
    );
  const series = [false, true].filter((paced) => of('hooks', paced).length > 0);
  if (series.length === 0) return false;
  const name = (paced: boolean) =>
    paced ? `paced to ${PACED_RATE.toLocaleString('en')} answers/s` : 'back to back';
  out(
    `\nWebhooks: the teacher's endpoint (answers.recorded, to a receiver of this process on 127.0.0.1 ` +
      `answering 204) enabled in the "webhooks on" phases, disabled in the "webhooks off" ones, ` +
      `one service process, phases interleaved in the same rounds.`,
  );
  const ratios = new Map<boolean, number[]>();
  for (const paced of series) {
    const off = of('service', paced);
    const on = of('hooks', paced);
    const perRound = on.map((p, i) => p.answersPerSecond / (off[i]?.answersPerSecond ?? NaN));
    ratios.set(paced, perRound);
    out(
      `answers/s ${name(paced)}: off ${off.map((p) => Math.round(p.answersPerSecond)).join(', ')} ` +
        `(median ${Math.round(median(off.map((p) => p.answersPerSecond)))}); on ` +
        `${on.map((p) => Math.round(p.answersPerSecond)).join(', ')} (median ` +
        `${Math.round(median(on.map((p) => p.answersPerSecond)))}); on/off by round ` +
        `${perRound.map((r) => r.toFixed(3)).join(', ')}, median ${median(perRound).toFixed(3)}`,
    );
  }
  out(
    `delivery: from a batch's acknowledgement to the arrival of the event covering it (its session's ` +
      `received answers adding up to those acknowledged through it); per phase, then the median of rounds`,
  );
  const p95s = new Map<boolean, number>();
  let failed = false;
  for (const paced of series) {
    const hooks = of('hooks', paced)
      .map((p) => p.webhooks)
      .filter((w) => w !== undefined);
    const cell = (p: number) => median(hooks.map((w) => percentile(w.latenciesMs, p)));
    const firstCell = (p: number) => median(hooks.map((w) => percentile(w.firstAfterMs, p)));
    const pooled = hooks.flatMap((w) => w.latenciesMs);
    const sum = (pick: (w: (typeof hooks)[number]) => number) =>
      hooks.reduce((a, w) => a + pick(w), 0);
    p95s.set(paced, cell(95));
    out(
      `  ${name(paced)}: p50 / p95 / p99 / max ${ms(cell(50))} / ${ms(cell(95))} / ${ms(cell(99))} / ` +
        `${ms(Math.max(...pooled))} ms (p95 by round ${hooks.map((w) => ms(percentile(w.latenciesMs, 95))).join(', ')}; ` +
        `pooled p95 ${ms(percentile(pooled, 95))}); batches ${sum((w) => w.batches)}, events ${sum((w) => w.events)}, ` +
        `not covered within ${WEBHOOK_REFLECT_TIMEOUT_MS / 1000} s ${sum((w) => w.unreflected)}, ` +
        `duplicates ${sum((w) => w.duplicates)}, signature failures ${sum((w) => w.signatureFailures)}; ` +
        `first event of the session after the ack: p50 / p95 ${ms(firstCell(50))} / ` +
        `${ms(firstCell(95))} ms; drain ` +
        `${hooks.map((w) => (w.drainMs / 1000).toFixed(1)).join(', ')} s`,
    );
    const stage = (pick: (w: (typeof hooks)[number]) => number[]) => {
      const values = hooks.flatMap(pick);
      return `${ms(percentile(values, 50))} / ${ms(percentile(values, 95))}`;
    };
    out(
      `    per event (the service's records, pooled, p50 / p95 ms): first entry → dispatched ` +
        `${stage((w) => w.stages.dispatchMs)}, dispatched → attempt started ${stage((w) => w.stages.claimMs)}, ` +
        `attempt ${stage((w) => w.stages.sendMs)}`,
    );
    if (sum((w) => w.unreflected) > 0) failed = true;
  }
  const rss = (target: Target, key: 'peakMb' | 'endMb') =>
    median(
      rounds
        .flat()
        .filter((p) => p.target === target)
        .map((p) => p.rss?.[key] ?? NaN),
    ).toFixed(0);
  out(
    `service RSS (VmRSS, medians of phases): webhooks on peak ${rss('hooks', 'peakMb')} MB, ` +
      `end ${rss('hooks', 'endMb')} MB; off peak ${rss('service', 'peakMb')} MB, end ${rss('service', 'endMb')} MB`,
  );
  out(
    `messages received over the run ${run.messages}, signature failures ${run.signatureFailures}`,
  );
  const burst = ratios.get(false);
  if (burst) {
    out(
      `TARGET answers/s with webhooks on ≥ ${WEBHOOK_TARGET.ratio} × off (back to back, median of the ` +
        `rounds' ratios): ${verdict(median(burst) >= WEBHOOK_TARGET.ratio)} (${median(burst).toFixed(3)})`,
    );
  }
  const paced = p95s.get(true);
  if (paced !== undefined) {
    out(
      `TARGET event delivered p95 ≤ ${WEBHOOK_TARGET.p95Ms.toLocaleString('en')} ms after the ` +
        `acknowledgement at ${PACED_RATE.toLocaleString('en')} answers/s: ` +
        `${verdict(paced <= WEBHOOK_TARGET.p95Ms)} (${ms(paced)} ms, median of the rounds' p95)`,
    );
  }
  out(
    `TARGET no signature failure: ${verdict(run.signatureFailures === 0)} (${run.signatureFailures})`,
  );
  return failed || run.signatureFailures > 0;
}

/** Reports how far a long command is: `(phase, done, total?)`; `end()` once it stops. */
export interface ProgressReporter {
  (phase: string, done: number, total?: number): void;
  /** Ends a bar left open on a terminal (a command that failed half-way), so the next line starts clean. */
  end(): void;
  /**
   * Clears a bar left open on a terminal before another line is written there (a log line, a
   * message); the next report draws it again below that line.
   */
  interrupt(): void;
}

/** 12345 → `12.3k`: rates and counts read at a glance. */
function short(value: number): string {
  if (value >= 1e6) return `${(value / 1e6).toFixed(1)}M`;
  if (value >= 1e4) return `${(value / 1e3).toFixed(0)}k`;
  if (value >= 1e3) return `${(value / 1e3).toFixed(1)}k`;
  return value.toFixed(0);
}

/** Seconds as `42s`, `3m05s` or `1h02m`. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor(s / 60) % 60).padStart(2, '0')}m`;
}

/**
 * A progress bar on stderr: redrawn in place on a terminal, a line every 10% elsewhere (CI logs).
 * Each phase shows its rows per second since it began and, while its total is known and it is not
 * done, the time left at that rate. `now` (milliseconds) is the clock, for tests.
 */
export function progressReporter(
  stream: NodeJS.WritableStream & { isTTY?: boolean },
  now: () => number = Date.now,
): ProgressReporter {
  let lastDraw = 0;
  let lastPhase = '';
  let lastTenth = -1;
  let open = false;
  // A phase begins when the previous one last reported (its first batch is already done).
  let lastReport = now();
  let phaseStart = lastReport;
  const report = (phase: string, done: number, total?: number) => {
    const time = now();
    if (phase !== lastPhase) phaseStart = lastReport;
    lastReport = time;
    const ratio = total ? Math.min(1, done / total) : undefined;
    const seconds = (time - phaseStart) / 1000;
    const rate = seconds > 0 ? done / seconds : undefined;
    const pace =
      rate === undefined
        ? ''
        : ` ${short(rate)}/s` +
          (total && done < total && rate > 0
            ? `, ETA ${duration((total - done) / rate)}`
            : done === total
              ? `, ${duration(seconds)}`
              : '');
    if (stream.isTTY) {
      if (phase === lastPhase && time - lastDraw < 100 && done !== total) return;
      const width = 30;
      const bar =
        ratio === undefined
          ? ''
          : `[${'#'.repeat(Math.round(ratio * width)).padEnd(width, '-')}] ${(ratio * 100).toFixed(0).padStart(3)}% `;
      stream.write(`\r\x1b[2K${bar}${phase} ${done}${total ? `/${total}` : ''}${pace}`);
      open = done !== total;
      if (!open) stream.write('\n');
    } else {
      const tenth = ratio === undefined ? -1 : Math.floor(ratio * 10);
      if (phase === lastPhase && tenth === lastTenth) return;
      lastTenth = tenth;
      stream.write(
        `${phase}: ${done}${total ? `/${total}` : ''}${ratio === undefined ? '' : ` (${(ratio * 100).toFixed(0)}%)`}${pace}\n`,
      );
    }
    lastPhase = phase;
    lastDraw = time;
  };
  return Object.assign(report, {
    end: () => {
      if (open) stream.write('\n');
      open = false;
    },
    interrupt: () => {
      if (!open) return;
      stream.write('\r\x1b[2K');
      open = false;
      // Drawn again at the next report, whatever the time since the last draw.
      lastDraw = -Infinity;
    },
  });
}

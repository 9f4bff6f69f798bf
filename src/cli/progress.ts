/** Reports how far a long command is: `(phase, done, total?)`; `end()` once it stops. */
export interface ProgressReporter {
  (phase: string, done: number, total?: number): void;
  /** Ends a bar left open on a terminal (a command that failed half-way), so the next line starts clean. */
  end(): void;
}

/** A progress bar on stderr: redrawn in place on a terminal, a line every 10% elsewhere (CI logs). */
export function progressReporter(
  stream: NodeJS.WritableStream & { isTTY?: boolean },
): ProgressReporter {
  let lastDraw = 0;
  let lastPhase = '';
  let lastTenth = -1;
  let open = false;
  const report = (phase: string, done: number, total?: number) => {
    const now = Date.now();
    const ratio = total ? Math.min(1, done / total) : undefined;
    if (stream.isTTY) {
      if (phase === lastPhase && now - lastDraw < 100 && done !== total) return;
      const width = 30;
      const bar =
        ratio === undefined
          ? ''
          : `[${'#'.repeat(Math.round(ratio * width)).padEnd(width, '-')}] ${(ratio * 100).toFixed(0).padStart(3)}% `;
      stream.write(`\r\x1b[2K${bar}${phase} ${done}${total ? `/${total}` : ''}`);
      open = done !== total;
      if (!open) stream.write('\n');
    } else {
      const tenth = ratio === undefined ? -1 : Math.floor(ratio * 10);
      if (phase === lastPhase && tenth === lastTenth) return;
      lastTenth = tenth;
      stream.write(
        `${phase}: ${done}${total ? `/${total}` : ''}${ratio === undefined ? '' : ` (${(ratio * 100).toFixed(0)}%)`}\n`,
      );
    }
    lastPhase = phase;
    lastDraw = now;
  };
  return Object.assign(report, {
    end: () => {
      if (open) stream.write('\n');
      open = false;
    },
  });
}

import { duration, progressReporter } from '../../src/cli/progress';

/** A stream that keeps what is written, a terminal or not. */
function capture(isTTY: boolean): {
  stream: NodeJS.WritableStream & { isTTY?: boolean };
  text: () => string;
} {
  const chunks: string[] = [];
  const stream = {
    isTTY,
    write: (chunk: string) => {
      chunks.push(chunk);
      return true;
    },
  } as unknown as NodeJS.WritableStream & { isTTY?: boolean };
  return { stream, text: () => chunks.join('') };
}

describe('progressReporter', () => {
  it('prints, off a terminal, a line per tenth with the rate since the phase began and the time left', () => {
    let clock = 1_000_000;
    const out = capture(false);
    const progress = progressReporter(out.stream, () => clock);
    clock += 2000;
    progress('users', 1000, 1000);
    // The answers phase begins when users last reported: 10,000 rows in 4 s.
    clock += 4000;
    progress('answers', 10_000, 100_000);
    clock += 1000;
    progress('answers', 11_000, 100_000); // same tenth: no line
    clock += 31_000;
    progress('answers', 90_000, 100_000);
    clock += 4000;
    progress('answers', 100_000, 100_000);
    expect(out.text().split('\n')).toEqual([
      'users: 1000/1000 (100%) 500/s, 2s',
      'answers: 10000/100000 (10%) 2.5k/s, ETA 36s',
      'answers: 90000/100000 (90%) 2.5k/s, ETA 4s',
      'answers: 100000/100000 (100%) 2.5k/s, 40s',
      '',
    ]);
  });

  it('redraws one bar on a terminal, at most every 100 ms, and ends it with a new line', () => {
    let clock = 0;
    const out = capture(true);
    const progress = progressReporter(out.stream, () => clock);
    clock += 10_000;
    progress('answers', 250_000, 1_000_000);
    clock += 50;
    progress('answers', 251_000, 1_000_000); // within 100 ms: not drawn
    clock += 30_000;
    progress('answers', 1_000_000, 1_000_000);
    const draws = out.text().split('\r\x1b[2K').slice(1);
    expect(draws).toEqual([
      `[${'#'.repeat(8)}${'-'.repeat(22)}]  25% answers 250000/1000000 25k/s, ETA 30s`,
      `[${'#'.repeat(30)}] 100% answers 1000000/1000000 25k/s, 40s\n`,
    ]);
  });

  it('closes a bar left open by a command that failed half-way', () => {
    const out = capture(true);
    const progress = progressReporter(out.stream, () => 0);
    progress('answers', 10, 100);
    progress.end();
    progress.end();
    expect(out.text().endsWith('\n')).toBe(true);
    expect(out.text().match(/\n/g)).toHaveLength(1);
  });

  it('clears an open bar before another line is written, and draws it again at the next report', () => {
    let clock = 0;
    const out = capture(true);
    const progress = progressReporter(out.stream, () => clock);
    progress('answers', 10, 100);
    progress.interrupt();
    out.stream.write('a log line\n');
    progress.interrupt(); // nothing open: nothing written
    clock += 10; // within 100 ms of the last draw, yet drawn again: the line was cleared
    progress('answers', 20, 100);
    progress.end();
    const text = out.text();
    expect(text.split('a log line\n')[0]?.endsWith('\r\x1b[2K')).toBe(true);
    const after = text.split('a log line\n')[1] ?? '';
    expect(
      after.startsWith(`\r\x1b[2K[${'#'.repeat(6)}${'-'.repeat(24)}]  20% answers 20/100`),
    ).toBe(true);
    expect(after.endsWith('\n')).toBe(true);
  });

  it('leaves lines alone off a terminal', () => {
    const out = capture(false);
    const progress = progressReporter(out.stream, () => 0);
    progress('answers', 10, 100);
    progress.interrupt();
    progress.end();
    expect(out.text()).toBe('answers: 10/100 (10%)\n');
  });

  it('writes durations in seconds, minutes or hours', () => {
    expect([duration(0), duration(59.4), duration(185), duration(3720)]).toEqual([
      '0s',
      '59s',
      '3m05s',
      '1h02m',
    ]);
  });
});

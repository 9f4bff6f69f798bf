import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** CPU time of the service instances (and of this process) over the live phase's measured window. */

/** Clock ticks per second of /proc/<pid>/stat's times (getconf CLK_TCK; 100 on Linux). */
const CLOCK_TICKS = (() => {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return ticks > 0 ? ticks : 100;
  } catch {
    return 100;
  }
})();

/** CPU milliseconds a process has used: utime + stime of /proc/<pid>/stat. */
export function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which may hold spaces: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

export interface CpuUsed {
  /** The window, ms. */
  ms: number;
  /** CPU ms of each instance in the window. */
  instancesMs: number[];
  /** CPU ms of this process in the window. */
  ownMs: number;
}

/** CPU time used by the instances and by this process between start() and stop(). */
export function cpuMeter(pids: readonly number[]) {
  const read = () => {
    const own = process.cpuUsage();
    return { at: performance.now(), pids: pids.map(cpuMs), own: (own.user + own.system) / 1000 };
  };
  let from: ReturnType<typeof read> | undefined;
  let used: CpuUsed | undefined;
  return {
    start: () => void (from = read()),
    stop: () => {
      if (!from || used) return;
      const to = read();
      used = {
        ms: to.at - from.at,
        instancesMs: to.pids.map((ms, i) => ms - (from?.pids[i] ?? 0)),
        ownMs: to.own - from.own,
      };
    },
    /** What stop() measured; undefined before. */
    used: () => used,
  };
}

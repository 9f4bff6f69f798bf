/** The service in a child process (the current sources compiled by tsc), and its memory. */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { BUILD_DIR, log, ROOT, SERVER, timed } from './results-bench.config';

const run = promisify(execFile);

/** Compiles the sources into `outDir` (the results benchmark's own folder by default). */
/** The environment of a benchmarked service process on `databaseUrl`. */
export function benchServiceEnv(databaseUrl: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    // The compiled files live outside the project: their packages come from its node_modules.
    NODE_PATH: path.join(ROOT, 'node_modules'),
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'production',
    // The production default: one line per request, written to a pipe as a container's log is.
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    HOST: '127.0.0.1',
    PORT: '0',
    COOKIE_SECRET: 'b'.repeat(32),
    SEED_DEMO: 'false',
    MIGRATE_ON_START: 'false',
    // Every request is still counted against the key; the budget is only too large to be spent.
    RATE_LIMIT_POINTS: '1000000000',
  };
}

export async function buildService(outDir = BUILD_DIR): Promise<string> {
  const tsc = path.join(ROOT, 'node_modules/.bin/tsc');
  const { ms } = await timed(() =>
    run(
      tsc,
      [
        '-p',
        path.join(ROOT, '.config/tsconfig.build.json'),
        '--outDir',
        outDir,
        '--tsBuildInfoFile',
        path.join(outDir, '.tsbuildinfo'),
      ],
      { cwd: ROOT },
    ),
  );
  log(`service compiled into ${outDir} in ${(ms / 1000).toFixed(1)} s`);
  return path.join(outDir, 'src/main.js');
}

export function procStatusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) : 0;
}

/** Peak RSS of a process: VmHWM (exact), backed by VmRSS samples; windows reset VmHWM. */
export class RssMonitor {
  private overallKb = 0;
  private windowKb = 0;
  private readonly timer: NodeJS.Timeout;
  private clearRefsWorks = true;

  constructor(private readonly pid: number) {
    this.timer = setInterval(() => this.sample(), 20);
    this.timer.unref();
  }

  private sample(): void {
    try {
      const rss = procStatusKb(this.pid, 'VmRSS');
      this.overallKb = Math.max(this.overallKb, rss);
      this.windowKb = Math.max(this.windowKb, rss);
    } catch {
      // The process is gone.
    }
  }

  /** Starts a window: its peak is read by windowPeakMb. */
  startWindow(): void {
    this.overallKb = Math.max(this.overallKb, procStatusKb(this.pid, 'VmHWM'));
    try {
      fs.writeFileSync(`/proc/${this.pid}/clear_refs`, '5');
    } catch {
      this.clearRefsWorks = false;
    }
    this.windowKb = procStatusKb(this.pid, 'VmRSS');
  }

  windowPeakMb(): { mb: number; exact: boolean } {
    const hwm = this.clearRefsWorks ? procStatusKb(this.pid, 'VmHWM') : 0;
    return { mb: Math.max(this.windowKb, hwm) / 1024, exact: this.clearRefsWorks };
  }

  overallPeakMb(): number {
    this.overallKb = Math.max(this.overallKb, procStatusKb(this.pid, 'VmHWM'));
    return this.overallKb / 1024;
  }

  currentMb(): number {
    return procStatusKb(this.pid, 'VmRSS') / 1024;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

export interface Service {
  url: string;
  child: ChildProcess;
  rss: RssMonitor;
  stop: () => Promise<void>;
}

/** `nodeArgs` go to node before the script (`--cpu-prof`, say). */
export async function startService(
  mainJs: string,
  db: string,
  nodeArgs: readonly string[] = [],
): Promise<Service> {
  const child = spawn(process.execPath, [...nodeArgs, mainJs], {
    cwd: ROOT,
    env: benchServiceEnv(`${SERVER}/${db}`),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (!match) return;
      resolve(match[1] as string);
      // From here on the log is read and dropped.
      child.stdout?.off('data', onData);
      child.stdout?.resume();
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`service exited with ${code}: ${text}`)));
  });
  const pid = child.pid as number;
  const rss = new RssMonitor(pid);
  return {
    url,
    child,
    rss,
    stop: async () => {
      rss.stop();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

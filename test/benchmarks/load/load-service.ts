import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { BUILD_DIR, DB, RATE_LIMIT_POINTS, ROOT, SERVER, log } from './load-settings';

/** The service under load and its operator CLI, run as child processes of a fresh build. */

const run = promisify(execFile);

const baseEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  // The compiled files live outside the project: their packages come from its node_modules.
  NODE_PATH: path.join(ROOT, 'node_modules'),
  DATABASE_URL: `${SERVER}/${DB}`,
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  COOKIE_SECRET: 'l'.repeat(32),
});

export async function buildService(): Promise<string> {
  if (process.env.BENCH_SERVICE_JS) return process.env.BENCH_SERVICE_JS;
  const started = Date.now();
  const tsc = path.join(ROOT, 'node_modules/.bin/tsc');
  const config = path.join(ROOT, '.config/tsconfig.build.json');
  const info = path.join(BUILD_DIR, '.tsbuildinfo');
  const args = ['-p', config, '--outDir', BUILD_DIR, '--tsBuildInfoFile', info];
  // tsc reports on stdout, which the error's message leaves out.
  await run(tsc, args, { cwd: ROOT }).catch((error: { stdout?: string }) => {
    throw new Error(`the service does not compile:\n${error.stdout}`);
  });
  log(`service compiled into ${BUILD_DIR} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return path.join(BUILD_DIR, 'src/main.js');
}

/** Runs an operator command of the build; resolves to its stdout (stderr shows progress). */
export function cli(mainJs: string, args: string[]): Promise<string> {
  const cliJs = path.join(path.dirname(mainJs), 'cli/main.js');
  const child = spawn(process.execPath, [cliJs, ...args], {
    cwd: ROOT,
    env: baseEnv(),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve(text) : reject(new Error(`cli ${args[0]} exited with ${code}: ${text}`)),
    ),
  );
}

export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024;
}

/** logTail: the last lines the service logged, shown when something failed. */
export type Service = { url: string; child: ChildProcess; logTail: string[] };

export async function startService(mainJs: string): Promise<Service> {
  const child = spawn(process.execPath, [mainJs], {
    cwd: ROOT,
    env: {
      ...baseEnv(),
      HOST: '127.0.0.1',
      PORT: '0',
      SEED_DEMO: 'false',
      MIGRATE_ON_START: 'false',
      RATE_LIMIT_POINTS,
      RATE_LIMIT_WINDOW_SECONDS: '60',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const logTail: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('service did not start in 60 s')), 60_000);
    // Read stdout to the end of the run: a full pipe would block the service's logging.
    child.stdout?.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        logTail.push(line.slice(0, 500));
        if (logTail.length > 10) logTail.shift();
        const match = /listening on (http:\/\/\S+)/.exec(line);
        if (match) resolve(match[1] as string);
      }
    });
    child.once('exit', (code) => reject(new Error(`service exited with ${code}: ${logTail}`)));
    child.once('exit', () => clearTimeout(timer));
  }).catch((error: unknown) => {
    child.kill('SIGTERM');
    throw error;
  });
  return { url, child, logTail };
}

export async function stopService(service: Service): Promise<void> {
  if (service.child.exitCode !== null) return;
  const exited = new Promise((resolve) => service.child.once('exit', resolve));
  service.child.kill('SIGTERM');
  await exited;
}

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ensureBuilt, ROOT } from './build';

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote so far, stdout and stderr. */
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * The service's own entry point (src/main.ts, as the run's one build compiled it into
 * dist/src/main.js, test/helpers/build.ts) in a process of its own, with the given environment
 * added; resolves once it listens.
 */
export async function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  await ensureBuilt();
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/src/main.js')], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the service did not start:\n${output}`)),
      60_000,
    );
    const poll = setInterval(() => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve(match[1]);
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`the service exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) {
          resolve();
          return;
        }
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureBuilt } from '../helpers/build';

const ROOT = path.resolve(__dirname, '../..');

/** Runs the built service with `env` added and resolves with its exit code and output. */
function runService(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['dist/src/main.js'], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'test', PORT: '0', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

/** Issue 16: a start with several bad variables names every one of them, and nothing starts. */
describe('start-up with bad configuration', () => {
  it('stops before opening anything and names all three bad variables, one line each', async () => {
    await ensureBuilt();
    const { code, stderr } = await runService({
      PORT: 'eighty',
      TRUST_PROXY: 'yes',
      BODY_LIMIT: 'huge',
      // Where a start would put its embedded database, were it to get that far.
      SQLITE_PATH: '/nonexistent/never-created.sqlite',
    });
    expect(code).toBe(1);
    expect(stderr.trimEnd().split('\n')).toEqual([
      'Invalid configuration (3 variables):',
      '  PORT must be a whole number, got "eighty"',
      expect.stringMatching(
        /^ {2}TRUST_PROXY must be true, false, a hop count, .*"yes" is none of these$/,
      ) as unknown,
      '  BODY_LIMIT must be a size such as 1mb or 8kb, got "huge"',
    ]);
  });
});

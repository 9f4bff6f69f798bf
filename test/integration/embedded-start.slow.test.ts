import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteDatabase as Database } from '../../src/db/sqlite-driver';
import { ensureBuilt } from '../helpers/build';

const ROOT = path.resolve(__dirname, '../..');

interface Started {
  child: ChildProcess;
  url: string;
  apiKey: string;
  output: () => string;
}

/**
 * Runs the real `npm start` with no DATABASE_URL and waits for its banner. Its pre-script (the
 * build) runs once for the whole run (test/helpers/build.ts); the start itself is `npm start`
 * without it.
 */
async function npmStart(sqlitePath: string, extra: NodeJS.ProcessEnv = {}): Promise<Started> {
  await ensureBuilt();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...extra,
    SQLITE_PATH: sqlitePath,
    PORT: '0',
    LOG_LEVEL: 'info',
  };
  delete env.DATABASE_URL;
  delete env.NODE_ENV;
  const child = spawn('npm', ['start', '--silent', '--ignore-scripts'], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 110_000;
  while (Date.now() < deadline) {
    const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
    const apiKey = /Demo API key \(bound to localhost, kept in \S+\): (\S+)/.exec(output)?.[1];
    if (url && apiKey && output.includes('"pid":'))
      return { child, url, apiKey, output: () => output };
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`npm start did not come up:\n${output}`);
}

/**
 * SIGTERM to the service process itself (its pid is in the "listening" log line), as a process
 * manager sends it; npm then ends with the service's exit code.
 */
async function stop(started: Started): Promise<number | null> {
  const pid = Number(/"pid":(\d+)/.exec(started.output())?.[1]);
  expect(pid).toBeGreaterThan(0);
  const exited = new Promise<number | null>((resolve) =>
    started.child.once('close', (code) => resolve(code)),
  );
  process.kill(pid, 'SIGTERM');
  return exited;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('embedded default (npm start without DATABASE_URL)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-embedded-'));
  const sqlitePath = path.join(dir, 'quiz.sqlite');

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('migrates and seeds an SQLite file, serves /healthz, prints a demo key and the logins, stops on SIGTERM', async () => {
    const first = await npmStart(sqlitePath);
    let firstKey: string;
    try {
      const health = await fetch(`${first.url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok', database: 'up' });
      expect(first.output()).toMatch(/Demo logins:\n\s+teacher: \S+@\S+ \/ \S+/);
      // The banner lists the front door, one address a line, and each address answers.
      const front: [string, string][] = [
        ['Start page', '/'],
        ['Demo page', `/demo/?apiKey=${encodeURIComponent(first.apiKey)}`],
        ['GraphQL endpoint', '/graphql'],
        ['GraphQL IDE', '/ide/'],
        ['Apollo Sandbox', '/graphql'],
        ['REST reference', '/docs/'],
        ['OpenAPI description', '/openapi.json'],
        ['Key manager', '/keys'],
        ['Liveness', '/livez'],
        ['Readiness', '/readyz'],
        ['Health', '/healthz'],
        ['Metrics', '/metrics'],
      ];
      for (const [label, path] of front) {
        const line = `${label}:`;
        const address = `${first.url}${path}`;
        expect(first.output().split('\n')).toContainEqual(
          expect.stringMatching(
            new RegExp(`^${line} +${address.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`),
          ),
        );
        const res = await fetch(address, { headers: { accept: 'text/html' } });
        expect([path, res.status]).toEqual([path, 200]);
      }
      const landing = await (await fetch(`${first.url}/`)).text();
      expect(landing).toContain(first.apiKey);
      firstKey = first.apiKey;
    } finally {
      expect(await stop(first)).toBe(0);
    }
    // The service itself finished in-flight work and closed the database before exiting.
    expect(first.output()).toContain('shutdown complete');

    const db = new Database(sqlitePath, { readonly: true });
    let usersAfterFirst: number;
    try {
      const count = (table: string) =>
        (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
      usersAfterFirst = count('users');
      expect(usersAfterFirst).toBeGreaterThanOrEqual(6);
      expect(count('user_groups')).toBeGreaterThanOrEqual(2);
      expect(count('sessions')).toBe(2);
      expect(count('answers')).toBeGreaterThan(10);
      const types = db.prepare('SELECT DISTINCT type FROM questions ORDER BY type').all() as {
        type: string;
      }[];
      expect(types.map((t) => t.type)).toEqual([
        'FreeAnswerNumber',
        'FreeAnswerText',
        'MultipleChoicesOneGoodAnswer',
        'MultipleChoicesSeveralGoodAnswers',
        'TrueFalse',
      ]);
      const visibilities = db.prepare('SELECT DISTINCT visibility FROM quizzes').all() as {
        visibility: string;
      }[];
      expect(visibilities.map((v) => v.visibility)).toEqual(
        expect.arrayContaining(['public', 'private']),
      );
      const goods = db
        .prepare('SELECT DISTINCT good FROM answers WHERE good IS NOT NULL')
        .all() as { good: number }[];
      expect(goods.map((g) => g.good).sort()).toEqual([0, 1]);
      // The printed key is stored only as its hash, bound to localhost.
      const key = db
        .prepare('SELECT host, revoked_at FROM api_keys WHERE key_hash = ?')
        .get(sha256(firstKey)) as { host: string; revoked_at: string | null } | undefined;
      expect(key).toEqual({ host: 'localhost', revoked_at: null });
      expect(count(`api_keys WHERE key_hash = '${firstKey}'`)).toBe(0);
    } finally {
      db.close();
    }

    // The open reads of pupils' data are off unless the operator restores them, and then the
    // banner and the log say so.
    const legacyWarning = "pupils' attendance, who played what and per-pupil aggregated results";
    expect(first.output()).not.toContain(legacyWarning);

    // A second start keeps the data (no second seed) and the same demo key, still in force.
    const second = await npmStart(sqlitePath, { LEGACY_OPEN_READS: 'true' });
    expect(await stop(second)).toBe(0);
    expect(second.output()).toContain(`Warning: LEGACY_OPEN_READS=true: ${legacyWarning}`);
    expect(second.output()).toMatch(/"level":"warn"[^\n]*"setting":"LEGACY_OPEN_READS"/);
    expect(second.output()).toContain('shutdown complete');
    expect(second.output()).not.toContain('Demo data loaded');
    expect(second.apiKey).toBe(firstKey);
    const keyFile = path.join(path.dirname(sqlitePath), 'demo-api-key');
    // Readable by its owner only.
    expect(fs.statSync(keyFile).mode & 0o077).toBe(0);
    const again = new Database(sqlitePath);
    try {
      const users = again.prepare('SELECT COUNT(*) AS n FROM users').get() as { n: number };
      expect(users.n).toBe(usersAfterFirst);
      const kept = again
        .prepare('SELECT revoked_at FROM api_keys WHERE key_hash = ?')
        .get(sha256(firstKey)) as { revoked_at: string | null };
      expect(kept.revoked_at).toBeNull();
      // Its owner revokes it (as the key manager does).
      again
        .prepare("UPDATE api_keys SET revoked_at = datetime('now') WHERE key_hash = ?")
        .run(sha256(firstKey));
    } finally {
      again.close();
    }

    // The next start issues a new key and keeps that one; the revoked key stays revoked.
    const third = await npmStart(sqlitePath);
    expect(await stop(third)).toBe(0);
    expect(third.apiKey).not.toBe(firstKey);
    expect(fs.readFileSync(keyFile, 'utf8').trim()).toBe(third.apiKey);
    const last = new Database(sqlitePath, { readonly: true });
    try {
      const state = (secret: string) =>
        (
          last
            .prepare('SELECT revoked_at FROM api_keys WHERE key_hash = ?')
            .get(sha256(secret)) as {
            revoked_at: string | null;
          }
        ).revoked_at;
      expect(state(firstKey)).not.toBeNull();
      expect(state(third.apiKey)).toBeNull();
    } finally {
      last.close();
    }
  });
});

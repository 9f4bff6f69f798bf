import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { promisify } from 'node:util';
import type { DataSource } from 'typeorm';
import { runCli } from '../../src/cli/cli';
import { QuizApiClient } from '@quiz-results/client';
import { loadData } from '../../src/data/import/bulk-loader';
import type { ImportDocument } from '../../src/data/import/import-document';
import { createDataSource } from '../../src/db/data-source';
import { verifyPassword } from '../../src/security/password';
import { startTestApp } from '../helpers/app';
import { ensureBuilt } from '../helpers/build';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { createTestDatabase, type TestDatabase } from '../helpers/database';

const ROOT = path.resolve(__dirname, '../..');
const SAMPLE = path.join(ROOT, 'test/fixtures/sample-import.json');

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

/** The latest date of the answers whose id is above `afterId` (those a command wrote). */
async function latestAnswer(dataSource: DataSource, afterId = 0): Promise<Date> {
  const [row] = (await dataSource.query(
    'SELECT COUNT(*) AS n, MAX(answered_at) AS at FROM answers WHERE id > ?',
    [afterId],
  )) as { n: unknown; at: Date | string }[];
  expect(Number(row.n)).toBeGreaterThan(0);
  return row.at instanceof Date ? row.at : new Date(`${row.at.replace(' ', 'T')}Z`);
}

describe('operator CLI', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  const env = () => ({ DATABASE_URL: db.url, NODE_ENV: 'test' });

  /** Runs one command in-process, as `npm run cli -- …` would. */
  async function cli(args: string[], stdin?: string) {
    const stdout = new Capture();
    const stderr = new Capture();
    const input = new PassThrough();
    input.end(stdin ?? '');
    const code = await runCli(args, { stdout, stderr, stdin: input, env: env() });
    return { code, stdout: stdout.text, stderr: stderr.text };
  }

  const count = async (table: string) =>
    Number(
      ((await dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`)) as { n: unknown }[])[0].n,
    );

  beforeAll(async () => {
    db = await createTestDatabase('cli');
    dataSource = createDataSource(db.config);
  });

  afterAll(async () => {
    if (dataSource.isInitialized) await dataSource.destroy();
    await db.drop();
  });

  it('db:migrate applies the migrations once', async () => {
    const first = await cli(['db:migrate']);
    expect(first).toMatchObject({ code: 0 });
    expect(first.stdout).toMatch(/^Applied InitialSchema\d+/);
    const second = await cli(['db:migrate']);
    expect(second).toEqual({ code: 0, stdout: 'No pending migration.\n', stderr: '' });
    await dataSource.initialize();
  });

  it('--version prints the version of package.json', async () => {
    const { version } = JSON.parse(
      fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8'),
    ) as { version: string };
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    for (const flag of ['--version', '-V']) {
      expect(await cli([flag])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });

  it('--help lists every command', async () => {
    const { code, stdout } = await cli(['--help']);
    expect(code).toBe(0);
    for (const command of [
      'db:migrate',
      'user:create',
      'key:create',
      'key:list',
      'key:revoke',
      'import',
      'generate',
      'simulate',
    ]) {
      expect(stdout).toContain(command);
    }
  });

  it('user:create stores an argon2id hash of the password read from stdin', async () => {
    const result = await cli(
      [
        'user:create',
        '--email',
        'Grace@Example.org',
        '--first-name',
        'Grace',
        '--last-name',
        'Hopper',
        '--password-stdin',
        '--can-create-private-quizzes',
      ],
      'a long enough password\n',
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^Created user \d+ <grace@example\.org>/);
    const [row] = (await dataSource.query(
      "SELECT password_hash, can_create_private_quizzes FROM users WHERE email = 'grace@example.org'",
    )) as { password_hash: string; can_create_private_quizzes: number }[];
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(row.password_hash, 'a long enough password')).toBe(true);
    expect(Number(row.can_create_private_quizzes)).toBe(1);
  });

  it.each([
    [
      [
        'user:create',
        '--email',
        'not-an-email',
        '--first-name',
        'A',
        '--last-name',
        'B',
        '--password',
        'long enough pw',
      ],
      /email: is not an email address/,
    ],
    [
      [
        'user:create',
        '--email',
        'x@example.org',
        '--first-name',
        'A',
        '--last-name',
        'B',
        '--password',
        'short',
      ],
      /password: must be at least 10 characters/,
    ],
    [
      [
        'user:create',
        '--email',
        'grace@example.org',
        '--first-name',
        'A',
        '--last-name',
        'B',
        '--password',
        'long enough pw',
      ],
      /already exists/,
    ],
    [
      ['user:create', '--email', 'y@example.org', '--first-name', 'A', '--last-name', 'B'],
      /a password is needed/,
    ],
    [['key:create', '--host', 'not a host!'], /host: must be a domain name or an IP address/],
    [
      ['key:create', '--host', 'example.org', '--owner', 'nobody@example.org'],
      /no account with email nobody@example.org/,
    ],
    [['key:revoke', 'abc'], /must be a whole number/],
    [['key:revoke', '999999'], /API key 999999 does not exist/],
    [['generate', '--users', 'many'], /must be a whole number/],
    [['generate', '--participation', '150%'], /must be between 0 and 1/],
    [
      ['import', '/nonexistent/file.json'],
      /cannot read \/nonexistent\/file\.json: no such file \(ENOENT\)/,
    ],
    [['import', os.tmpdir()], /cannot read .*: it is a folder \(EISDIR\)/],
    [
      ['simulate', '--url', 'http://127.0.0.1:9', '--api-key', 'k', '--quiz', '1'],
      /an access token is needed: --token or --user/,
    ],
    [
      ['simulate', '--url', 'ftp://x', '--api-key', 'k', '--token', 't', '--quiz', '1'],
      /must be an http or https URL/,
    ],
    [
      ['simulate', '--url', 'http://127.0.0.1:9', '--api-key', 'k', '--token', 't', '--quiz', '1'],
      /getQuiz: the request did not reach the service \(fetch failed: .+\)/,
    ],
    [['no-such-command'], /unknown command/],
  ])('refuses bad input %j with a message naming it and a non-zero exit', async (args, message) => {
    const before = await count('users');
    const result = await cli(args);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(message);
    expect(await count('users')).toBe(before);
  });

  it('key:create prints the key once, stores only its hash; key:list and key:revoke manage it', async () => {
    const created = await cli([
      'key:create',
      '--host',
      'School.Example',
      '--owner',
      'grace@example.org',
      '--label',
      'grading app',
    ]);
    expect(created.code).toBe(0);
    const [, id, secret] =
      /Created API key (\d+) for host school\.example\. It is shown only now:\n(\S+)\n/.exec(
        created.stdout,
      ) ?? [];
    expect(secret).toMatch(/^qk_[A-Za-z0-9_-]{40,}$/);
    const hash = createHash('sha256').update(secret).digest('hex');
    expect(await count(`api_keys WHERE key_hash = '${hash}'`)).toBe(1);
    expect(await count(`api_keys WHERE key_hash = '${secret}' OR key_prefix = '${secret}'`)).toBe(
      0,
    );

    const listed = await cli(['key:list', '--json']);
    const keys = JSON.parse(listed.stdout) as {
      id: number;
      host: string;
      status: string;
      label: string;
      prefix: string;
    }[];
    expect(keys).toContainEqual(
      expect.objectContaining({
        id: Number(id),
        host: 'school.example',
        status: 'active',
        label: 'grading app',
      }),
    );
    expect(listed.stdout).not.toContain(secret);

    expect(await cli(['key:revoke', id])).toMatchObject({
      code: 0,
      stdout: `Revoked API key ${id} (school.example).\n`,
    });
    const after = JSON.parse(
      (await cli(['key:list', '--json', '--owner', 'grace@example.org'])).stdout,
    ) as { id: number; status: string }[];
    expect(after.find((key) => key.id === Number(id))?.status).toBe('revoked');

    // Again: it succeeds (the key is revoked, as asked) and says nothing changed.
    const again = await cli(['key:revoke', id]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      new RegExp(
        `^API key ${id} \\(school\\.example\\) was already revoked on \\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z\\.\\n$`,
      ),
    );
  });

  it('import refuses a misspelled top-level key, naming it and the near section, and imports nothing', async () => {
    const file = JSON.parse(fs.readFileSync(SAMPLE, 'utf8')) as Record<string, unknown>;
    const { quizzes, ...rest } = file;
    const misspelled = { ...rest, quizes: quizzes, extra: 1 };
    const bad = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-cli-')), 'keys.json');
    fs.writeFileSync(bad, JSON.stringify(misspelled));
    const before = { quizzes: await count('quizzes'), sessions: await count('sessions') };
    const result = await cli(['import', bad]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      [
        'error: 2 errors in the file, nothing was imported:',
        '  $.quizes: unknown top-level key "quizes"; did you mean "quizzes"?',
        '  $.extra: unknown top-level key "extra"; the sections are users, quizzes, groups, sessions, answers, flags',
      ].join('\n'),
    );
    expect(await count('quizzes')).toBe(before.quizzes);
    expect(await count('sessions')).toBe(before.sessions);
  });

  it('import --print-ids maps every ref of the file to a stored id', async () => {
    const result = await cli(['import', SAMPLE, '--print-ids']);
    expect(result.code).toBe(0);
    const ids = JSON.parse(result.stdout) as Record<string, Record<string, string>>;
    const file = JSON.parse(fs.readFileSync(SAMPLE, 'utf8')) as Record<string, { ref: string }[]>;
    const tables: Record<string, string> = {
      users: 'users',
      groups: 'user_groups',
      quizzes: 'quizzes',
      sessions: 'sessions',
    };
    for (const [kind, table] of Object.entries(tables)) {
      expect(Object.keys(ids[kind]).sort()).toEqual(file[kind].map((item) => item.ref).sort());
      for (const id of Object.values(ids[kind])) {
        expect(id).toMatch(/^\d+$/);
        expect(await count(`${table} WHERE id = ${id}`)).toBe(1);
      }
    }
  });

  it('import of a file with one bad value changes nothing and names the path', async () => {
    const file = JSON.parse(fs.readFileSync(SAMPLE, 'utf8')) as {
      users: { email: string }[];
      quizzes: { questions: { goodAnswer?: unknown }[] }[];
    };
    // New accounts (the sample is already loaded), and one bad value deep inside.
    for (const user of file.users) user.email = `again.${user.email}`;
    file.quizzes[1].questions[0].goodAnswer = { not: 'an answer' };
    const bad = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-cli-')), 'bad.json');
    fs.writeFileSync(bad, JSON.stringify(file));
    const before = await count('quizzes');
    const result = await cli(['import', bad]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error: 1 error in the file, nothing was imported:\n {2}\$\.quizzes\[1\]\.questions\[0\]\.goodAnswer: /m,
    );
    expect(await count('quizzes')).toBe(before);

    fs.writeFileSync(bad, '{"users": [');
    const broken = await cli(['import', bad]);
    expect(broken.code).toBe(1);
    // The parser's own reason follows.
    expect(broken.stderr).toMatch(/is not valid JSON: \S.*\n$/);
  });

  /** The sample with new accounts and `errors` bad answers (impossible dates), written to a file. */
  function badSampleFile(errors: number): string {
    const file = JSON.parse(fs.readFileSync(SAMPLE, 'utf8')) as ImportDocument;
    for (const user of file.users ?? []) user.email = `report.${user.email}`;
    (file.quizzes?.[1]?.questions?.[0] as { goodAnswer?: unknown }).goodAnswer = { not: 'this' };
    const answer = file.answers?.[0] as NonNullable<ImportDocument['answers']>[number];
    for (let index = 0; index < errors; index += 1)
      file.answers?.push({ ...answer, answeredAt: '2026-02-30 10:00:00' });
    const bad = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-cli-')), 'bad.json');
    fs.writeFileSync(bad, JSON.stringify(file));
    return bad;
  }

  it('import run as a process reports every error of a file with its JSON path, capped, and piped output holds no carriage return', async () => {
    await ensureBuilt();
    const bad = badSampleFile(120);
    const before = { users: await count('users'), answers: await count('answers') };
    const failed = await promisify(execFile)(
      'npm',
      ['run', '--silent', '--ignore-scripts', 'cli', '--', 'import', bad],
      { cwd: ROOT, env: { ...process.env, ...env() } },
    ).then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    const lines = (failed?.stderr ?? '').split('\n');
    const first = lines.findIndex((line) => line.startsWith('error: '));
    // Progress first, each phase on a line of its own, then the report.
    expect(lines.slice(0, first).every((line) => /^\w+: \d+/.test(line))).toBe(true);
    expect(lines.slice(first, first + 4)).toEqual([
      'error: 121 errors in the file, nothing was imported:',
      '  $.quizzes[1].questions[0].goodAnswer: expected a text',
      '  $.answers[21].answeredAt: 2026-02-30 10:00:00 is not a real date and time',
      '  $.answers[22].answeredAt: 2026-02-30 10:00:00 is not a real date and time',
    ]);
    expect(lines.slice(first + 1, first + 101).every((line) => line.startsWith('  $.'))).toBe(true);
    expect(lines.slice(first + 101)).toEqual(['  and 21 more', '']);
    expect(`${failed?.stdout}${failed?.stderr}`).not.toContain('\r');
    expect({ users: await count('users'), answers: await count('answers') }).toEqual(before);
  });

  it('on a terminal, the progress bar is ended before the report and the summary', async () => {
    // stdout and stderr on one terminal, as an operator sees them.
    const terminal = Object.assign(new Capture(), { isTTY: true });
    const run = async (args: string[]) => {
      terminal.text = '';
      const code = await runCli(args, { stdout: terminal, stderr: terminal, env: env() });
      return { code, text: terminal.text };
    };
    const startsClean = (text: string, message: RegExp) => {
      const at = text.search(message);
      expect(at).toBeGreaterThan(0);
      // The bar's last draw ends with a new line; nothing is drawn after the message.
      expect(text[at - 1]).toBe('\n');
      expect(text.slice(at)).not.toContain('\r');
    };
    const refused = await run(['import', badSampleFile(3)]);
    expect(refused.code).toBe(1);
    expect(refused.text).toContain('\r\x1b[2K');
    startsClean(refused.text, /error: 4 errors in the file/);

    const file = JSON.parse(fs.readFileSync(SAMPLE, 'utf8')) as ImportDocument;
    for (const user of file.users ?? []) user.email = `tty.${user.email}`;
    const good = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-cli-')), 'good.json');
    fs.writeFileSync(good, JSON.stringify(file));
    const imported = await run(['import', good]);
    expect(imported.code).toBe(0);
    startsClean(imported.text, /Imported 7 users/);
  });

  it('generate loads the asked counts and reports them', async () => {
    const before = {
      users: await count('users'),
      quizzes: await count('quizzes'),
      sessions: await count('sessions'),
    };
    const [{ lastId }] = (await dataSource.query(
      'SELECT COALESCE(MAX(id), 0) AS lastId FROM answers',
    )) as { lastId: unknown }[];
    const started = new Date();
    const result = await cli([
      'generate',
      '--users',
      '60',
      '--quizzes',
      '4',
      '--questions',
      '5',
      '--sessions',
      '3',
      '--participation',
      '50%',
      '--seed',
      '7',
    ]);
    expect(result.code).toBe(0);
    const match = /Generated 60 users, 4 quizzes, 20 questions, 3 sessions, (\d+) answers/.exec(
      result.stdout,
    );
    expect(match).not.toBeNull();
    expect(await count('users')).toBe(before.users + 60);
    expect(await count('quizzes')).toBe(before.quizzes + 4);
    expect(await count('sessions')).toBe(before.sessions + 3);
    // Dated before the command ran, so answers sent from now on (corrections) are newer.
    const latest = await latestAnswer(dataSource, Number(lastId));
    expect(latest.getTime()).toBeLessThan(started.getTime());
    // The progress (stderr is not a terminal here) ends the answers with their count, then rate and time.
    expect(result.stderr).toMatch(/^answers: (\d+)\/\1 \(100%\)(?: [\d.]+k?\/s, \d+s)?$/m);
  });

  it('generate --now dates the history before the given clock', async () => {
    // A database of its own: generated emails depend on the index only, not on the seed.
    const own = await createTestDatabase('cli-now');
    const ownSource = createDataSource(own.config);
    try {
      const io = (args: string[]) => {
        const input = new PassThrough();
        input.end('');
        const stderr = new Capture();
        const env = { DATABASE_URL: own.url, NODE_ENV: 'test' };
        return runCli(args, { stdout: new Capture(), stderr, stdin: input, env }).then((code) => ({
          code,
          stderr: stderr.text,
        }));
      };
      expect((await io(['db:migrate'])).code).toBe(0);
      const clock = '2025-03-10T12:00:00Z';
      const small = ['--users', '30', '--quizzes', '2', '--questions', '3', '--sessions', '2'];
      const generated = await io(['generate', ...small, '--now', clock]);
      expect(generated.code === 0 ? '' : generated.stderr).toBe('');
      await ownSource.initialize();
      expect((await latestAnswer(ownSource)).getTime()).toBeLessThan(Date.parse(clock));
      expect((await io(['generate', '--now', 'yesterday'])).stderr).toMatch(
        /must be an ISO 8601 date/,
      );
    } finally {
      if (ownSource.isInitialized) await ownSource.destroy();
      await own.drop();
    }
  });

  it('generate --empty-database refuses a database that holds rows, and adds nothing', async () => {
    const before = { users: await count('users'), answers: await count('answers') };
    expect(before.users).toBeGreaterThan(0);
    const result = await cli(['generate', '--users', '60', '--quizzes', '4', '--empty-database']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: \$: a load into an empty database found rows in users/m);
    expect({ users: await count('users'), answers: await count('answers') }).toEqual(before);
  });

  it('simulate plays a class through the API: the session, its answers and its results are stored', async () => {
    const klass: ImportDocument = {
      users: [
        { ref: 't', email: 'teach@sim.example', firstName: 'Tina', lastName: 'Teacher' },
        ...[1, 2, 3, 4, 5].map((n) => ({
          ref: `p${n}`,
          email: `pupil${n}@sim.example`,
          firstName: `Pupil${n}`,
          lastName: 'Sim',
        })),
      ],
      groups: [
        { ref: 'g', name: 'Sim class', owner: 't', members: ['p1', 'p2', 'p3', 'p4', 'p5'] },
      ],
      quizzes: [
        {
          ref: 'q',
          author: 't',
          title: 'Simulated quiz',
          visibility: 'private',
          survey: false,
          tags: ['sim', 'cli'],
          questions: [
            {
              title: 'Pick',
              type: 'MultipleChoicesOneGoodAnswer',
              propositions: ['a', 'b', 'c'],
              goodAnswer: 2,
            },
            { title: 'True?', type: 'TrueFalse', goodAnswer: true },
            { title: '6 x 7', type: 'FreeAnswerNumber', tolerance: 0, goodAnswer: 42 },
          ],
        },
      ],
    };
    const ids = await loadData(dataSource, klass);
    const quizId = ids.quizzes.q as string;
    const teacherId = Number(ids.users.t);
    const pupilIds = [1, 2, 3, 4, 5].map((n) => Number(ids.users[`p${n}`])).sort((a, b) => a - b);
    const key = await createTestApiKey(dataSource, 'localhost');
    const app = await startTestApp(dataSource);
    try {
      const args = ['simulate', '--url', app.url, '--api-key', key.secret];
      const play = [...args, '--user', 'teach@sim.example', '--quiz', quizId, '--pupils', '5'];
      const first = await cli([...play, '--seconds', '3', '--seed', '4']);
      expect(first.stderr).not.toMatch(/error/);
      expect(first.code).toBe(0);
      const clientRef = `simulate:quiz-${quizId}:5x3s:seed-4`;
      const started = new RegExp(
        `^Session (\\d+) \\(new, clientRef ${clientRef}\\): 5 pupils, quiz ${quizId} of 3 questions, (\\d+) answers over 3 s\\.$`,
        'm',
      ).exec(first.stdout);
      expect(started).not.toBeNull();
      const [, sessionId, planned] = started as RegExpExecArray;
      const sent =
        /^Sent (\d+) answers in (\d+) batch(?:es)? over [\d.]+ s \((\d+) corrections?, (\d+) known wrong\): (\d+) inserted, (\d+) updated, (\d+) unchanged; 0 batches sent again\.$/m.exec(
          first.stdout,
        );
      expect(sent).not.toBeNull();
      const [answers, batches, corrections, , inserted, updated, unchanged] = (
        sent as RegExpExecArray
      )
        .slice(1)
        .map(Number);
      // Every pupil answers every question once; each correction replaces its earlier answer.
      expect(answers).toBe(Number(planned));
      expect(answers).toBe(15 + corrections);
      expect({ inserted, updated, unchanged }).toEqual({
        inserted: 15,
        updated: corrections,
        unchanged: 0,
      });
      expect(batches).toBeGreaterThan(1);
      expect(first.stdout).toMatch(
        /^Acknowledgement latency \(tick batching\): p50 [\d.]+ ms, p95 [\d.]+ ms, p99 [\d.]+ ms, max [\d.]+ ms\.$/m,
      );
      // The progress (stderr is not a terminal here: a line per tenth) ends with the whole class.
      expect(first.stderr).toMatch(
        new RegExp(`answers: ${answers}/${answers} \\(100%\\)[^\\n]*\\n$`),
      );

      const [session] = (await dataSource.query(
        'SELECT owner_id, client_ref FROM sessions WHERE id = ?',
        [Number(sessionId)],
      )) as { owner_id: unknown; client_ref: unknown }[];
      expect({ owner: Number(session?.owner_id), ref: session?.client_ref }).toEqual({
        owner: teacherId,
        ref: clientRef,
      });
      const attendees = (await dataSource.query(
        'SELECT user_id FROM session_attendees WHERE session_id = ? ORDER BY user_id',
        [Number(sessionId)],
      )) as { user_id: unknown }[];
      expect(attendees.map((row) => Number(row.user_id))).toEqual(pupilIds);
      const stored = async () =>
        (await dataSource.query(
          'SELECT user_id, question_id, value, good, answered_at FROM answers WHERE session_id = ? ORDER BY user_id, question_id',
          [Number(sessionId)],
        )) as { user_id: unknown; good: unknown }[];
      const rows = await stored();
      expect(rows).toHaveLength(15);
      expect([...new Set(rows.map((row) => Number(row.user_id)))]).toEqual(pupilIds);
      const good = rows.filter((row) => Number(row.good) === 1).length;

      // The results of the session, read as a statistics client reads them.
      const token = await createTestToken(dataSource, teacherId, key.id);
      const api = new QuizApiClient({ baseUrl: app.url, apiKey: key.secret, accessToken: token });
      const results = await api.getResults({
        userSetId: await api.getUserSet({ sessionId }),
        quizSetId: await api.getQuizSet({ sessionId }),
        sessionId,
        resultTypes: ['nbGoodAnswers', 'nbAnswers'],
      });
      expect(results.totalNumberOfItems).toBe(5);
      const items = results.items as {
        userId: string;
        nbGoodAnswers?: number;
        nbAnswers?: number;
      }[];
      expect(items.map((item) => Number(item.userId)).sort((a, b) => a - b)).toEqual(pupilIds);
      expect(items.every((item) => item.nbAnswers === 3)).toBe(true);
      expect(items.reduce((sum, item) => sum + (item.nbGoodAnswers ?? 0), 0)).toBe(good);

      // The same command again resumes the session: nothing new, every answer unchanged.
      const sessionsBefore = await count('sessions');
      const again = await cli([...play, '--seconds', '3', '--seed', '4']);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain(`Session ${sessionId} (resumed, clientRef ${clientRef})`);
      expect(again.stdout).toContain(`0 inserted, 0 updated, ${answers} unchanged`);
      expect(await count('sessions')).toBe(sessionsBefore);
      expect(await stored()).toEqual(rows);
    } finally {
      await app.close();
    }
  });

  it('simulate --join: pupils the teacher does not know join with the code and send their own answers', async () => {
    const klass: ImportDocument = {
      users: [
        { ref: 't', email: 'joiner-teacher@sim.example', firstName: 'Jo', lastName: 'Teacher' },
        ...[1, 2, 3, 4].map((n) => ({
          ref: `j${n}`,
          email: `joiner${n}@sim.example`,
          firstName: `Joiner${n}`,
          lastName: 'Sim',
        })),
      ],
      // In no group of the teacher's, in none of her sessions: strangers to her.
      quizzes: [
        {
          ref: 'q',
          author: 't',
          title: 'Joined quiz',
          visibility: 'public',
          survey: false,
          tags: ['sim', 'join'],
          questions: [
            { title: 'True?', type: 'TrueFalse', goodAnswer: true },
            { title: '6 x 7', type: 'FreeAnswerNumber', tolerance: 0, goodAnswer: 42 },
          ],
        },
      ],
    };
    // The app of the test before closed the data source with itself.
    if (!dataSource.isInitialized) await dataSource.initialize();
    const ids = await loadData(dataSource, klass);
    const quizId = ids.quizzes.q as string;
    const pupilIds = [1, 2, 3, 4].map((n) => Number(ids.users[`j${n}`])).sort((a, b) => a - b);
    const key = await createTestApiKey(dataSource, 'localhost');
    const app = await startTestApp(dataSource);
    try {
      const play = [
        ...['simulate', '--url', app.url, '--api-key', key.secret],
        ...['--user', 'joiner-teacher@sim.example', '--quiz', quizId],
        ...['--pupil-ids', pupilIds.join(','), '--seconds', '2', '--seed', '9'],
      ];
      // Named by the teacher, they are refused: she does not know them.
      const named = await cli(play);
      expect(named.code).toBe(1);
      expect(named.stderr).toContain(
        `pupil ${pupilIds[0]} is not known to the teacher (in none of their groups or sessions): such pupils join with the session's join code (simulate --join)`,
      );
      // Their tokens are issued as the operator: --join needs --user.
      const withToken = play.map((arg) => (arg === '--user' ? '--token' : arg));
      expect(await cli([...withToken, '--join'])).toMatchObject({
        code: 1,
        stderr: expect.stringContaining(
          "--join issues the pupils' tokens as the operator",
        ) as unknown,
      });

      const joined = await cli([...play, '--join', '--batching', 'pupil']);
      expect(joined.stderr).not.toMatch(/error/);
      expect(joined.code).toBe(0);
      const started = new RegExp(
        `^Session (\\d+) \\(new, clientRef [^)]+\\): 4 pupils \\(4 joined with the join code\\), quiz ${quizId} of 2 questions, (\\d+) answers over 2 s\\.$`,
        'm',
      ).exec(joined.stdout);
      expect(started).not.toBeNull();
      const sessionId = Number((started as RegExpExecArray)[1]);
      expect(joined.stdout).toMatch(/^Acknowledgement latency \(pupil batching\)/m);
      const attendees = (await dataSource.query(
        'SELECT user_id FROM session_attendees WHERE session_id = ? ORDER BY user_id',
        [sessionId],
      )) as { user_id: unknown }[];
      expect(attendees.map((row) => Number(row.user_id))).toEqual(pupilIds);
      const answered = (await dataSource.query(
        'SELECT DISTINCT user_id FROM answers WHERE session_id = ? ORDER BY user_id',
        [sessionId],
      )) as { user_id: unknown }[];
      expect(answered.map((row) => Number(row.user_id))).toEqual(pupilIds);
      expect(
        Number(
          (
            (await dataSource.query('SELECT COUNT(*) AS n FROM answers WHERE session_id = ?', [
              sessionId,
            ])) as { n: unknown }[]
          )[0]?.n,
        ),
      ).toBe(8);
      // Each pupil had a token of their own, issued as the operator, to join and to answer.
      const tokens = (await dataSource.query(
        `SELECT DISTINCT user_id FROM access_tokens WHERE user_id IN (${pupilIds.join(',')}) ORDER BY user_id`,
      )) as { user_id: unknown }[];
      expect(tokens.map((row) => Number(row.user_id))).toEqual(pupilIds);

      // Played again, the class resumes: the pupils join again (nothing changes), every answer
      // unchanged.
      const again = await cli([...play, '--join', '--batching', 'pupil']);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain(`Session ${sessionId} (resumed,`);
      expect(again.stdout).toMatch(/ 0 inserted, 0 updated, \d+ unchanged/);
    } finally {
      await app.close();
    }
  });

  it('runs as `npm run cli` in a real process and exits non-zero on bad input', async () => {
    // The run's one build (its pre-script, test/helpers/build.ts); `npm run cli` without
    // building again.
    await ensureBuilt();
    const run = promisify(execFile);
    const ok = await run('npm', ['run', '--silent', '--ignore-scripts', 'cli', '--', 'key:list'], {
      cwd: ROOT,
      env: { ...process.env, ...env() },
    });
    expect(ok.stdout).toMatch(/^id\tprefix\thost/);
    await expect(
      run(
        'npm',
        ['run', '--silent', '--ignore-scripts', 'cli', '--', 'key:create', '--host', '???'],
        {
          cwd: ROOT,
          env: { ...process.env, ...env() },
        },
      ),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('host: must be a domain name or an IP address'),
    });
  });
});

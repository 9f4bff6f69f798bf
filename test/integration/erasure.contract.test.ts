import { Writable } from 'node:stream';
import type { Client } from 'graphql-ws';
import type { DataSource } from 'typeorm';
import { runCli } from '../../src/cli/cli';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap } from '../../src/data/import/import-document';
import { PERSONAL_DATA_REGISTRY } from '../../src/domain/privacy/personal-data.registry';
import { accountHashOf } from '../../src/services/auth/login.service';
import { erasureSubjectHash } from '../../src/services/access-log/access-log.service';
import { eraseUser } from '../../src/services/privacy/erasure.service';
import { startTestApp, type TestApp } from '../helpers/app';
import { loginThroughPage } from '../helpers/browser';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend, TEST_SERVER_URL } from '../helpers/database';
import { PUPIL_NAMES, WITH_P, WITHOUT_P } from '../helpers/erasure-class';
import { graphql } from '../helpers/graphql';
import { liveClient, LiveSubscription, SESSION_RESULTS, itemsOf } from '../helpers/live';

/**
 * Erasure of a person (contract.md §14.4) on each database: after `user:erase` of a pupil, no
 * column the registry declares as naming a person holds them, every set that held them is a 404
 * on both wires, results and item analysis equal those of a database where they never existed,
 * a live subscriber's next message omits them, their token is refused and the erasure is
 * recorded by a hash of the id. Erasing a teacher keeps every pupil's answers and results.
 */

interface World {
  dataSource: DataSource;
  close: () => Promise<void>;
  app: TestApp;
  ids: IdMap;
  apiKey: string;
  keyId: number;
}

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, callback: () => void): void {
    this.text += chunk.toString('utf8');
    callback();
  }
}

const LABEL = { MariaDB: 'erasure', SQLite: 'erasure' };

async function openWorld(backend: (typeof BACKENDS)[number], label: string, withP: boolean) {
  const { dataSource, close } = await openBackend(backend, label);
  const ids = await loadData(dataSource, withP ? WITH_P : WITHOUT_P);
  const key = await createTestApiKey(dataSource, 'localhost');
  const app = await startTestApp(dataSource);
  return { dataSource, close, app, ids, apiKey: key.secret, keyId: key.id } satisfies World;
}

async function count(dataSource: DataSource, sql: string, params: unknown[]): Promise<number> {
  const [row] = (await dataSource.query(sql, params)) as { n: unknown }[];
  return Number(row?.n ?? 0);
}

describe.each(BACKENDS)('erasure of a person on %s', (backend) => {
  let a: World;
  let b: World;
  let pId: number;
  let tokens: { t1: string; p: string };
  const clients: Client[] = [];

  beforeAll(async () => {
    a = await openWorld(backend, `${LABEL[backend]}_with`, true);
    b = await openWorld(backend, `${LABEL[backend]}_without`, false);
    pId = Number(a.ids.users.p);
    tokens = {
      t1: await createTestToken(a.dataSource, Number(a.ids.users.t1), a.keyId),
      p: await createTestToken(a.dataSource, pId, a.keyId),
    };
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.dispose()));
    for (const world of [a, b]) {
      await world?.app.close();
      await world?.close();
    }
  });

  const creds = (world: World, token: string) =>
    `apiKey=${encodeURIComponent(world.apiKey)}&accessToken=${encodeURIComponent(token)}`;

  async function rest(world: World, token: string, path: string) {
    const sep = path.includes('?') ? '&' : '?';
    const res = await fetch(`${world.app.url}/${path}${sep}${creds(world, token)}`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  async function ok(world: World, token: string, path: string) {
    const res = await rest(world, token, path);
    expect([path, res.status]).toEqual([path, 200]);
    return res.body;
  }

  /** What teacher t1 reads of session S1 and of both quizzes: sets, results, item analysis. */
  async function readings(world: World, token: string) {
    const users = await ok(world, token, `getUserSet?sessionId=${world.ids.sessions.S1}`);
    const quizzes = await ok(world, token, `getQuizSet?sessionId=${world.ids.sessions.S1}`);
    const sets = `userSetId=${String(users.dataSetId)}&quizSetId=${String(quizzes.dataSetId)}`;
    const every = 'resultTypes=nbGoodAnswers,goodAnswersPercent,percentile,nbAnswers,duration';
    const detailed = await ok(world, token, `getResults?${sets}&${every}`);
    const aggregated = await ok(
      world,
      token,
      `getResults?${sets}&${every}&aggregationFunctions=min,max,average,median,stddev,count&groupBy=quiz`,
    );
    const questions = await ok(world, token, `getQuestionStatistics?${sets}`);
    const quizStats = await ok(world, token, `getQuizStatistics?${sets}`);
    return { users, quizzes, detailed, aggregated, questions, quizStats };
  }

  const comparable = (page: Record<string, unknown>) => ({
    total: page.totalNumberOfItems,
    items: page.items,
  });

  it('erases a pupil: nothing names them, their sets are gone, results are those of a world without them', async () => {
    // Before: sets that hold p, a live subscriber of S1, a failed login of p, p's own read.
    const before = await readings(a, tokens.t1);
    // The quizzes p played, as their teacher may list them: a set computed from p's answers.
    const played = await ok(a, tokens.t1, `getQuizSet?player=${pId}`);
    expect(played.totalNumberOfItems).toBe(1);
    expect(before.users.items).toContainEqual(expect.objectContaining({ id: String(pId) }));
    await ok(a, tokens.p, `getUser?userId=${pId}`);
    await loginThroughPage(a.app.url, a.apiKey, 'http://localhost/app', PUPIL_NAMES.p[2], 'wrong');
    const failures = 'SELECT COUNT(*) AS n FROM login_failures WHERE account_hash = ?';
    expect(await count(a.dataSource, failures, [accountHashOf(PUPIL_NAMES.p[2])])).toBe(1);

    const client = liveClient(a.app.url, {
      connectionParams: { apiKey: a.apiKey, accessToken: tokens.t1 },
    });
    clients.push(client);
    const live = new LiveSubscription(client, SESSION_RESULTS, { sessionId: a.ids.sessions.S1 });
    await live.messages(1);
    const liveUsers = () =>
      ((itemsOf(live.received.at(-1)) as { userId: string }[] | undefined) ?? []).map(
        (item) => item.userId,
      );
    expect(liveUsers()).toContain(String(pId));
    const logsBefore = a.app.logs.lines.length;

    // The erasure: the command line on MariaDB (another process's caches), the service on
    // SQLite (an in-memory database only this process opens).
    if (backend === 'MariaDB') {
      const dry = new Sink();
      const err = new Sink();
      const failed = (code: number) => (code === 0 ? '' : err.text);
      const [{ name }] = (await a.dataSource.query('SELECT DATABASE() AS name')) as {
        name: string;
      }[];
      const env = {
        DATABASE_URL: `${TEST_SERVER_URL}/${name}`,
        NODE_ENV: 'test',
      };
      const dryCode = await runCli(
        ['user:erase', '--user', PUPIL_NAMES.p[2].toUpperCase(), '--dry-run', '--json'],
        { stdout: dry, stderr: err, env },
      );
      expect(failed(dryCode)).toBe('');
      const plan = JSON.parse(dry.text) as {
        dryRun: boolean;
        tables: { table: string; rows: number }[];
      };
      expect(plan.dryRun).toBe(true);
      expect(plan.tables).toContainEqual({ table: 'answers', rows: 6, action: 'delete' });
      expect(
        await count(a.dataSource, 'SELECT COUNT(*) AS n FROM answers WHERE user_id = ?', [pId]),
      ).toBe(6);
      const out = new Sink();
      const code = await runCli(['user:erase', '--user', String(pId), '--by', 'dpo-test'], {
        stdout: out,
        stderr: err,
        env,
      });
      expect(failed(code)).toBe('');
      expect(out.text).toContain(`Erased user ${pId}`);
      expect(err.text).toBe('');
    } else {
      const report = await eraseUser(a.app.deps, pId, { erasedBy: 'dpo-test' });
      expect(report.tables).toContainEqual({ table: 'answers', rows: 6, action: 'delete' });
    }
    const erasedAt = Date.now();

    // No column the registry declares as naming a person holds p (but the ids the tombstone
    // keeps on purpose); data_set_items names users only in sets of users.
    for (const entry of PERSONAL_DATA_REGISTRY) {
      for (const [column, declared] of Object.entries(entry.columns)) {
        if (declared.category !== 'person' || declared.keepsTombstoneId) continue;
        const sql =
          entry.table === 'data_set_items'
            ? `SELECT COUNT(*) AS n FROM data_set_items i JOIN data_sets d ON d.id = i.data_set_id
               WHERE d.item_type = 'user' AND i.item_id = ?`
            : `SELECT COUNT(*) AS n FROM ${entry.table} WHERE ${column} = ?`;
        expect([`${entry.table}.${column}`, await count(a.dataSource, sql, [pId])]).toEqual([
          `${entry.table}.${column}`,
          0,
        ]);
      }
    }
    const [tombstone] = (await a.dataSource.query(
      'SELECT email, password_hash, first_name, last_name, picture_url, erased_at FROM users WHERE id = ?',
      [pId],
    )) as Record<string, unknown>[];
    expect({ ...tombstone, erased_at: tombstone?.erased_at !== null }).toEqual({
      email: null,
      password_hash: null,
      first_name: null,
      last_name: null,
      picture_url: null,
      erased_at: true,
    });
    expect(await count(a.dataSource, failures, [accountHashOf(PUPIL_NAMES.p[2])])).toBe(0);
    expect(
      await count(
        a.dataSource,
        'SELECT COUNT(*) AS n FROM erasures WHERE subject_hash = ? AND erased_by = ?',
        [erasureSubjectHash(pId), 'dpo-test'],
      ),
    ).toBe(1);

    // Their token is refused within a second, here as on every instance (the command line
    // erases through deps of its own).
    while ((await rest(a, tokens.p, `getUser?userId=${pId}`)).status !== 401) {
      expect(Date.now() - erasedAt).toBeLessThan(1000);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    // Every earlier set: 404 on both wires, and on export.
    // The quiz set names no one and stays.
    const { quizzes: _quizzes, ...holdingP } = { ...before, played };
    for (const page of Object.values(holdingP)) {
      const id = String(page.dataSetId);
      const restPage = await rest(a, tokens.t1, `getDataSetPage?dataSetId=${id}`);
      expect([id, restPage.status, restPage.body.type]).toEqual([id, 404, 'BadParameterException']);
      const exported = await fetch(
        `${a.app.url}/exportDataSet?dataSetId=${id}&format=ndjson&${creds(a, tokens.t1)}`,
      );
      expect([id, exported.status]).toEqual([id, 404]);
      const { body } = await graphql(
        a.app.url,
        `{ getDataSetPage(dataSetId: "${id}") { totalNumberOfItems } }`,
        {
          search: `?${creds(a, tokens.t1)}`,
        },
      );
      expect([id, body.errors?.[0]?.extensions?.code]).toEqual([id, 'NOT_FOUND']);
    }

    // Results and item analysis equal those of the world where p never existed.
    const after = await readings(a, tokens.t1);
    const never = await readings(
      b,
      await createTestToken(b.dataSource, Number(b.ids.users.t1), b.keyId),
    );
    for (const what of Object.keys(after) as (keyof typeof after)[]) {
      expect([what, comparable(after[what])]).toEqual([what, comparable(never[what])]);
    }
    expect(after.users.items).not.toContainEqual(expect.objectContaining({ id: String(pId) }));
    // The erased id names no one any more: no set lists it, no read logs it.
    const named = await ok(a, tokens.t1, `getUserSet?userId=${pId}`);
    expect(named.totalNumberOfItems).toBe(0);
    const logged = 'SELECT COUNT(*) AS n FROM access_log WHERE subject_user_id = ?';
    expect(await count(a.dataSource, logged, [pId])).toBe(0);

    // Erasing again, or someone who does not exist, is refused and changes nothing.
    await expect(eraseUser(a.app.deps, pId, { erasedBy: 'dpo-test' })).rejects.toThrow(
      'was erased already',
    );
    await expect(eraseUser(a.app.deps, 999_999, { erasedBy: 'dpo-test' })).rejects.toThrow(
      'user 999999 does not exist',
    );

    // The live subscriber's next message omits them.
    await live.until(
      () => !liveUsers().includes(String(pId)),
      'a message without the erased pupil',
    );
    expect(liveUsers().length).toBeGreaterThan(0);

    // No line logged since names them.
    const since = a.app.logs.lines.slice(logsBefore).join('\n');
    for (const value of PUPIL_NAMES.p) expect(since).not.toContain(value);
  });

  it("erases a teacher: every pupil's answers, sessions and results stay, owned by a tombstone", async () => {
    const t2 = Number(a.ids.users.t2);
    const tables = [
      'answers',
      'sessions',
      'session_attendees',
      'quizzes',
      'questions',
      'user_groups',
    ];
    const counts = async () =>
      Object.fromEntries(
        await Promise.all(
          tables.map(async (table) => [
            table,
            await count(a.dataSource, `SELECT COUNT(*) AS n FROM ${table}`, []),
          ]),
        ),
      );
    const pupil = await createTestToken(a.dataSource, Number(a.ids.users.a), a.keyId);
    const ownResults = async () => {
      const users = await ok(a, pupil, `getUserSet?userId=${a.ids.users.a}`);
      const quizzes = await ok(a, pupil, `getQuizSet?quizId=${a.ids.quizzes.q2}`);
      return comparable(
        await ok(
          a,
          pupil,
          `getResults?userSetId=${String(users.dataSetId)}&quizSetId=${String(quizzes.dataSetId)}&resultTypes=nbGoodAnswers,percentile`,
        ),
      );
    };
    const [countsBefore, resultsBefore] = [await counts(), await ownResults()];
    expect(resultsBefore.total).toBe(1);
    // The teacher watches their session: the subscription ends once they are erased.
    const teacherToken = await createTestToken(a.dataSource, t2, a.keyId);
    // The teacher owns an API key, through which a pupil signed in: the key goes with the
    // teacher, and so does that sign-in, which the dry run counts apart.
    const ownKey = await createTestApiKey(a.dataSource, 'localhost', t2);
    const throughKey = await createTestToken(a.dataSource, Number(a.ids.users.b), ownKey.id);
    const viaKey = `apiKey=${encodeURIComponent(ownKey.secret)}&accessToken=${encodeURIComponent(throughKey)}`;
    expect((await fetch(`${a.app.url}/getUser?userId=${a.ids.users.b}&${viaKey}`)).status).toBe(
      200,
    );
    const plan = await eraseUser(a.app.deps, t2, { erasedBy: 'dpo-test', dryRun: true });
    expect(plan.tables).toContainEqual({
      table: 'access_tokens',
      rows: 1,
      action: 'delete',
      note: "other people's, through the person's API keys",
    });
    expect(plan.tables).toContainEqual({ table: 'api_keys', rows: 1, action: 'delete' });
    const client = liveClient(a.app.url, {
      connectionParams: { apiKey: a.apiKey, accessToken: teacherToken },
    });
    clients.push(client);
    const live = new LiveSubscription(client, SESSION_RESULTS, { sessionId: a.ids.sessions.S2 });
    await live.messages(1);
    // The owner reads the session: it gets a join code (contract §9).
    const session = await ok(a, teacherToken, `getSession?sessionId=${a.ids.sessions.S2}`);
    expect(session.joinCode).toEqual(expect.any(String));

    await eraseUser(a.app.deps, t2, { erasedBy: 'dpo-test' });
    expect((await fetch(`${a.app.url}/getUser?userId=${a.ids.users.b}&${viaKey}`)).status).toBe(
      401,
    );

    await live.ended;
    const last = live.received.at(-1)?.result;
    expect(last?.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect((await rest(a, teacherToken, `getUser?userId=${t2}`)).status).toBe(401);

    expect(await counts()).toEqual(countsBefore);
    expect(await ownResults()).toEqual(resultsBefore);
    expect(
      await count(a.dataSource, 'SELECT COUNT(*) AS n FROM sessions WHERE owner_id = ?', [t2]),
    ).toBe(1);
    // Kept for its pupils, but no one joins it any more.
    expect(
      await count(
        a.dataSource,
        'SELECT COUNT(*) AS n FROM sessions WHERE owner_id = ? AND join_code IS NOT NULL',
        [t2],
      ),
    ).toBe(0);
    // The quiz still reads, its author an id that shows no one.
    const quiz = await ok(a, pupil, `getQuiz?quizId=${a.ids.quizzes.q2}`);
    expect(JSON.stringify(quiz)).not.toContain(PUPIL_NAMES.t2[1]);
    const author = await ok(a, pupil, `getUser?userId=${t2}`);
    expect(author).toEqual({ id: String(t2) });
  });
});

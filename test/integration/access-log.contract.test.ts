import type { Client } from 'graphql-ws';
import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap } from '../../src/data/import/import-document';
import { dialectOf } from '../../src/db/sql/dialect';
import { erasureSubjectHash } from '../../src/services/access-log/access-log.service';
import { purgeExpiredAccessLog } from '../../src/services/privacy/retention.service';
import {
  cli,
  entriesOf as entriesIn,
  graphqlOk,
  highestAccessLogId,
  openSharedBackend,
  restOk,
  resultUsers as usersOfResults,
  rowsOf,
  sorted,
  unique,
  type Entry,
} from '../helpers/access-log';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS } from '../helpers/database';
import { LIVE_CLASS } from '../helpers/fixtures';
import { liveClient, LiveSubscription, SESSION_RESULTS } from '../helpers/live';

/**
 * The access log (contract.md §14.6) and its retention (§14.5), against a running service on
 * each database: every read of detailed or per-pupil data writes exactly one entry (one request
 * id, one operation, the requester) naming exactly the pupils concerned, on REST and GraphQL
 * where the operation has both; aggregated results and a user whose name stays hidden write
 * none; the purge removes old entries only; `cli access-log` prints them.
 */

const DAY_MS = 86_400_000;

/** The class: 30 pupils attend S; p1, p2 (q1) and p3 (q2) answered there, p1 also in S2 and S3. */
const ANSWERED_IN_S = ['p1', 'p2', 'p3'];
const ATTENDEES_OF_S = Array.from({ length: 30 }, (_unused, index) => `p${index + 1}`);

describe.each(BACKENDS)('the access log on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let databaseUrl: string;
  let app: TestApp;
  let ids: IdMap;
  let apiKeyId: number;
  const who: Record<'anonymous' | 'teacher' | 'pupil' | 'other', string> = {
    anonymous: '',
    teacher: '',
    pupil: '',
    other: '',
  };
  const tokens: Record<string, string> = {};
  const clients: Client[] = [];

  const userId = (ref: string) => Number(ids.users[ref]);
  const usersOf = (refs: string[]) => sorted(refs.map(userId));
  const sessionS = () => ids.sessions.S as string;

  const rows = (sql: string, params: unknown[] = []) => rowsOf(dataSource, sql, params);
  const highestId = () => highestAccessLogId(dataSource);
  const entriesOf = (read: () => Promise<unknown>) => entriesIn(dataSource, read);
  const resultUsers = (dataSetId: unknown) => usersOfResults(dataSource, dataSetId);
  const rest = (operation: string, credentials: string, params: Record<string, string>) =>
    restOk(app, operation, credentials, params);
  const gql = (credentials: string, query: string, variables: Record<string, unknown>) =>
    graphqlOk(app, credentials, query, variables);

  /** Asserts that `entries` is one entry of `operation` by `requester` naming `subjects`. */
  function expectOneEntry(
    entries: Entry[],
    operation: string,
    requester: number,
    subjects: number[],
  ): void {
    expect(entries).toEqual([
      {
        operations: [operation],
        requestIds: [expect.any(String)],
        requesterUserIds: [requester],
        // Every request of this suite carries the one API key.
        requesterApiKeyIds: [apiKeyId],
        subjects: sorted(subjects),
      },
    ]);
  }

  /** A user set and a quiz set of session S, made by the teacher (neither is logged). */
  async function setsOfS(): Promise<{ userSetId: string; quizSetId: string }> {
    const users = await rest('getUserSet', who.teacher, { sessionId: sessionS() });
    const quizzes = await rest('getQuizSet', who.teacher, { sessionId: sessionS() });
    return { userSetId: String(users.dataSetId), quizSetId: String(quizzes.dataSetId) };
  }

  beforeAll(async () => {
    ({ dataSource, close, databaseUrl } = await openSharedBackend(backend, 'access_log'));
    ids = await loadData(dataSource, LIVE_CLASS);
    const key = await createTestApiKey(dataSource, 'localhost');
    apiKeyId = key.id;
    who.anonymous = `apiKey=${key.secret}`;
    for (const [role, ref] of [
      ['teacher', 't'],
      ['pupil', 'p1'],
      ['other', 'o'],
    ] as const) {
      tokens[role] = await createTestToken(dataSource, userId(ref), key.id);
      who[role] = `apiKey=${key.secret}&accessToken=${tokens[role]}`;
    }
    app = await startTestApp(dataSource);
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.dispose()));
  });

  afterAll(async () => {
    await app?.close();
    await close?.();
  });

  it('getSessionResults (GraphQL only), detailed: one entry naming its results’ pupils', async () => {
    for (const [includeQuizzes, pupils] of [
      ['answered', ANSWERED_IN_S],
      // With every quiz, each attendee has a zero where they did not play: all are named.
      ['all', ATTENDEES_OF_S],
    ] as const) {
      let dataSetId: unknown;
      const entries = await entriesOf(async () => {
        const data = await gql(
          who.teacher,
          'query($s: ID!, $i: IncludeQuizzes) { getSessionResults(sessionId: $s, includeQuizzes: $i) { results { dataSetId } } }',
          { s: sessionS(), i: includeQuizzes },
        );
        dataSetId = (data.getSessionResults as { results: { dataSetId: string } }).results
          .dataSetId;
      });
      expect(await resultUsers(dataSetId)).toEqual(usersOf([...pupils]));
      expectOneEntry(entries, 'getSessionResults', userId('t'), usersOf([...pupils]));
    }
    const aggregated = await entriesOf(() =>
      gql(
        who.teacher,
        'query($s: ID!) { getSessionResults(sessionId: $s, aggregationFunctions: [average], groupBy: quiz) { results { dataSetId } } }',
        { s: sessionS() },
      ),
    );
    expect(aggregated).toEqual([]);
  });

  it('getResults: detailed and by-user results write one entry of their rows’ pupils; by quiz none', async () => {
    const sets = await setsOfS();
    let dataSetId: unknown;
    const detailed = await entriesOf(async () => {
      dataSetId = (await rest('getResults', who.teacher, sets)).dataSetId;
    });
    expectOneEntry(detailed, 'getResults', userId('t'), await resultUsers(dataSetId));
    expect(await resultUsers(dataSetId)).toEqual(usersOf(ANSWERED_IN_S));

    // The pupil's own results: the person themselves is logged too.
    const pupilSets = {
      userSetId: String((await rest('getUserSet', who.pupil, { userId: ids.users.p1 })).dataSetId),
      quizSetId: String(
        (await rest('getQuizSet', who.pupil, { quizId: ids.quizzes.q1 as string })).dataSetId,
      ),
    };
    const byGraphQL = await entriesOf(async () => {
      const data = await gql(
        who.pupil,
        'query($u: ID!, $q: ID!) { getResults(userSetId: $u, quizSetId: $q) { dataSetId } }',
        { u: pupilSets.userSetId, q: pupilSets.quizSetId },
      );
      dataSetId = (data.getResults as { dataSetId: string }).dataSetId;
    });
    expectOneEntry(byGraphQL, 'getResults', userId('p1'), [userId('p1')]);
    expect(await resultUsers(dataSetId)).toEqual([userId('p1')]);

    // Aggregates by quiz name no one: no entry. Aggregates by user are one row per pupil, per-pupil
    // data: one entry naming the pupils of the set's rows.
    const byQuiz = await entriesOf(() =>
      rest('getResults', who.teacher, {
        ...sets,
        aggregationFunctions: 'average,count',
        groupBy: 'quiz',
      }),
    );
    expect(byQuiz).toEqual([]);
    const byUser = await entriesOf(async () => {
      dataSetId = (
        await rest('getResults', who.teacher, {
          ...sets,
          aggregationFunctions: 'average,count',
          groupBy: 'user',
        })
      ).dataSetId;
    });
    // One row per user of the set, played or not: each row names its pupil.
    const rowsByUser = await resultUsers(dataSetId);
    expect(rowsByUser.length).toBeGreaterThan(ANSWERED_IN_S.length);
    expectOneEntry(byUser, 'getResults', userId('t'), rowsByUser);
    const byUserOnGraphQL = await entriesOf(async () => {
      const data = await gql(
        who.teacher,
        'query($u: ID!, $q: ID!) { getResults(userSetId: $u, quizSetId: $q, aggregationFunctions: [average], groupBy: user) { dataSetId } }',
        { u: sets.userSetId, q: sets.quizSetId },
      );
      dataSetId = (data.getResults as { dataSetId: string }).dataSetId;
    });
    expectOneEntry(byUserOnGraphQL, 'getResults', userId('t'), await resultUsers(dataSetId));
    expect(await resultUsers(dataSetId)).toEqual(rowsByUser);
  });

  it('item analysis: one entry naming the pupils whose attempts it counted (REST, GraphQL)', async () => {
    const sets = await setsOfS();
    // The teacher's sessions S and S2 count (p1's attempt in S3, another teacher's, does not).
    for (const operation of ['getQuestionStatistics', 'getQuizStatistics']) {
      const byRest = await entriesOf(() => rest(operation, who.teacher, sets));
      expectOneEntry(byRest, operation, userId('t'), usersOf(ANSWERED_IN_S));
      const byGraphQL = await entriesOf(() =>
        gql(
          who.teacher,
          `query($u: ID!, $q: ID!) { ${operation}(userSetId: $u, quizSetId: $q) { dataSetId } }`,
          { u: sets.userSetId, q: sets.quizSetId },
        ),
      );
      expectOneEntry(byGraphQL, operation, userId('t'), usersOf(ANSWERED_IN_S));
    }
    // Restricted to S2: only p1's attempts there count.
    const onlyS2 = await entriesOf(() =>
      rest('getQuizStatistics', who.teacher, { ...sets, sessionId: ids.sessions.S2 as string }),
    );
    expectOneEntry(onlyS2, 'getQuizStatistics', userId('t'), [userId('p1')]);
  });

  it('the start of a sessionResults subscription: one entry naming the pupils it shows', async () => {
    const before = await highestId();
    const entries = await entriesOf(async () => {
      const client = liveClient(app.url, {
        connectionParams: {
          apiKey: who.anonymous.slice('apiKey='.length),
          accessToken: tokens.teacher,
        },
      });
      clients.push(client);
      const subscription = new LiveSubscription(client, SESSION_RESULTS, { sessionId: sessionS() });
      await subscription.messages(1);
      const shown = (
        subscription.received[0]?.result.data as { sessionResults: { userId: string }[] }
      ).sessionResults.map((item) => Number(item.userId));
      expect(sorted(unique(shown))).toEqual(usersOf(ANSWERED_IN_S));
      // The entry is written as the first message goes out: wait for it.
      const deadline = Date.now() + 5000;
      while ((await highestId()) === before && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      subscription.unsubscribe();
    });
    expectOneEntry(entries, 'sessionResults', userId('t'), usersOf(ANSWERED_IN_S));
  });

  it('exportDataSet: one entry for a user or results set, naming its members; none for quizzes', async () => {
    const sets = await setsOfS();
    const exportOf = (dataSetId: string) => async () => {
      const res = await app.get(
        `/exportDataSet?dataSetId=${dataSetId}&format=ndjson&${who.teacher}`,
      );
      expect(res.status).toBe(200);
      await res.text();
    };
    expectOneEntry(
      await entriesOf(exportOf(sets.userSetId)),
      'exportDataSet',
      userId('t'),
      usersOf(ATTENDEES_OF_S),
    );
    const results = String(
      (await rest('getResults', who.teacher, { ...sets, includeQuizzes: 'all' })).dataSetId,
    );
    expectOneEntry(
      await entriesOf(exportOf(results)),
      'exportDataSet',
      userId('t'),
      await resultUsers(results),
    );
    expect(await entriesOf(exportOf(sets.quizSetId))).toEqual([]);
  });

  it('getUser and getUserAttribute: an entry when a name was revealed, none otherwise', async () => {
    const p2 = ids.users.p2 as string;
    // The teacher knows the pupils of their sessions.
    const revealed = await entriesOf(async () => {
      expect(await rest('getUser', who.teacher, { userId: p2 })).toMatchObject({
        firstName: 'Pupil',
      });
    });
    expectOneEntry(revealed, 'getUser', userId('t'), [userId('p2')]);
    const byGraphQL = await entriesOf(async () => {
      const data = await gql(who.teacher, 'query($u: ID!) { getUser(userId: $u) { firstName } }', {
        u: p2,
      });
      expect(data.getUser).toEqual({ firstName: 'Pupil' });
    });
    expectOneEntry(byGraphQL, 'getUser', userId('t'), [userId('p2')]);
    const self = await entriesOf(() =>
      rest('getUser', who.pupil, { userId: ids.users.p1 as string }),
    );
    expectOneEntry(self, 'getUser', userId('p1'), [userId('p1')]);

    // Names hidden: an API key alone, or a teacher who never met the pupil.
    for (const credentials of [who.anonymous, who.other]) {
      const hidden = await entriesOf(async () => {
        const body = await rest('getUser', credentials, { userId: p2 });
        expect(body.firstName).toBeUndefined();
      });
      expect(hidden).toEqual([]);
    }

    const attribute = await entriesOf(async () => {
      const body = await rest('getUserAttribute', who.teacher, {
        userId: p2,
        attributeName: 'lastName',
      });
      expect(body.itemValue).toBe('P2');
    });
    expectOneEntry(attribute, 'getUserAttribute', userId('t'), [userId('p2')]);
    const attributeByGraphQL = await entriesOf(() =>
      gql(
        who.teacher,
        'query($u: ID!) { getUserAttribute(userId: $u, attributeName: "firstName") { itemValue } }',
        { u: p2 },
      ),
    );
    expectOneEntry(attributeByGraphQL, 'getUserAttribute', userId('t'), [userId('p2')]);
    // A count names no one; a refused detail reveals nothing.
    expect(
      await entriesOf(() =>
        rest('getUserAttribute', who.teacher, { userId: p2, attributeName: 'popularity' }),
      ),
    ).toEqual([]);
    expect(
      await entriesOf(async () => {
        const res = await app.get(
          `/getUserAttribute?userId=${p2}&attributeName=firstName&${who.other}`,
        );
        expect(res.status).toBe(403);
      }),
    ).toEqual([]);
  });

  it('the retention purge removes entries older than ACCESS_LOG_RETENTION_DAYS only', async () => {
    const dialect = dialectOf(dataSource);
    const now = new Date();
    const insert = (daysAgo: number, requestId: string) =>
      dataSource.query(
        `INSERT INTO access_log (accessed_at, requester_user_id, requester_api_key_id, operation, request_id, subject_user_id)
         VALUES (?, ?, ?, 'getResults', ?, ?)`,
        [
          dialect.date(new Date(now.getTime() - daysAgo * DAY_MS)),
          userId('t'),
          apiKeyId,
          requestId,
          userId('p30'),
        ],
      );
    for (let index = 0; index < 5; index += 1) await insert(400 + index, `old-${index}`);
    await insert(366, 'just-old');
    await insert(364, 'just-kept');
    await insert(1, 'recent');
    const kept = async () =>
      (
        await rows(
          `SELECT request_id FROM access_log
            WHERE request_id IN ('old-0', 'old-1', 'old-2', 'old-3', 'old-4', 'just-old', 'just-kept', 'recent')
            ORDER BY id`,
        )
      ).map((row) => row.request_id);
    const purged = await purgeExpiredAccessLog(app.deps, { now, entriesPerStatement: 2 });
    expect(purged).toBe(6);
    expect(await kept()).toEqual(['just-kept', 'recent']);
    // Every other entry of this suite is recent: the purge left them.
    expect(await highestId()).toBeGreaterThan(8);
    const metrics = await (await app.get('/metrics')).text();
    expect(metrics).toMatch(/quiz_retention_purged_rows_total\{what="access_log"\} 6\b/);
    // 0 keeps them for ever.
    const forEver = {
      ...app.deps,
      config: {
        ...app.deps.config,
        privacy: { ...app.deps.config.privacy, accessLogRetentionDays: 0 },
      },
    };
    expect(
      await purgeExpiredAccessLog(forEver, { now: new Date(now.getTime() + 1000 * DAY_MS) }),
    ).toBe(0);
    expect(await kept()).toEqual(['just-kept', 'recent']);
  });

  it('cli access-log prints the entries about a person, and an erasure record by its hash', async () => {
    const run = (argv: string[]) => cli(databaseUrl, argv);
    const p2 = userId('p2');
    const written = await rows(
      'SELECT operation, request_id FROM access_log WHERE subject_user_id = ? ORDER BY id',
      [p2],
    );
    expect(written.length).toBeGreaterThan(3);
    const json = await run(['access-log', '--user', String(p2), '--json']);
    expect([json.code, json.stderr]).toEqual([0, '']);
    const document = JSON.parse(json.stdout) as {
      userId: number;
      entries: { operation: string; requestId: string; requesterUserId: number | null }[];
      erasures: unknown[];
    };
    expect(document.userId).toBe(p2);
    expect(document.entries.map((entry) => [entry.operation, entry.requestId])).toEqual(
      written.map((row) => [row.operation, row.request_id]),
    );
    expect(document.erasures).toEqual([]);

    const table = await run(['access-log', '--user', String(p2)]);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(`Access log of user ${p2}: ${written.length} entries`);
    for (const row of written) expect(table.stdout).toContain(String(row.request_id));
    // No name in the output: ids only.
    expect(table.stdout).not.toContain('Pupil');

    // After an erasure (its own command removes the entries), only its record is left.
    const erased = userId('p29');
    await dataSource.query('DELETE FROM access_log WHERE subject_user_id = ?', [erased]);
    await dataSource.query(
      'INSERT INTO erasures (subject_hash, erased_at, erased_by) VALUES (?, ?, ?)',
      [
        erasureSubjectHash(erased),
        dialectOf(dataSource).date(new Date('2026-11-02T10:00:00Z')),
        'dpo',
      ],
    );
    const after = JSON.parse(
      (await run(['access-log', '--user', String(erased), '--json'])).stdout,
    ) as { entries: unknown[]; erasures: { erasedAt: string; erasedBy: string }[] };
    expect(after).toEqual({
      userId: erased,
      entries: [],
      erasures: [{ erasedAt: '2026-11-02T10:00:00.000Z', erasedBy: 'dpo' }],
    });
    const readable = await run(['access-log', '--user', String(erased)]);
    expect(readable.stdout).toBe(
      `No access-log entry about user ${erased}.\nUser ${erased} was erased at 2026-11-02 10:00:00Z by dpo.\n`,
    );
    expect((await run(['access-log', '--user', 'x'])).code).not.toBe(0);
  });
});

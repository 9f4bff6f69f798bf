import { In, type DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap, ImportDocument } from '../../src/data/import/import-document';
import { DataSet } from '../../src/db/entities';
import { purgeExpiredDataSets } from '../../src/services/sets/data-set.service';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend } from '../helpers/database';
import { databaseOf } from '../../src/db/database';
import { graphql } from '../helpers/graphql';
import { expectSetParity, SET_QUERIES, type SetOperation } from '../helpers/parity';

/** 120 pupils in one session; small sessions S1 (p001..p005) and S2 (p004..p008) for set algebra. */
const PUPILS = Array.from({ length: 120 }, (_, i) => `p${String(i + 1).padStart(3, '0')}`);

const DOCUMENT: ImportDocument = {
  users: [
    { ref: 'A', email: 'a@school.example', firstName: 'Ada', lastName: 'Alpha' },
    { ref: 'B', email: 'b@school.example', firstName: 'Bob', lastName: 'Beta' },
    ...PUPILS.map((ref) => ({
      ref,
      email: `${ref}@school.example`,
      firstName: 'Pupil',
      lastName: ref,
    })),
  ],
  quizzes: [
    {
      ref: 'q',
      author: 'A',
      title: 'A public quiz',
      visibility: 'public',
      survey: false,
      tags: ['sets', 'paging'],
      questions: [{ title: 'True?', type: 'TrueFalse', goodAnswer: true }],
    },
  ],
  sessions: [
    {
      ref: 'BIG',
      owner: 'A',
      title: 'Whole school',
      startDate: '2026-09-01 09:00:00',
      quizzes: ['q'],
      attendees: PUPILS.map((user) => ({ user })),
    },
    {
      ref: 'S1',
      owner: 'A',
      title: 'First',
      startDate: '2026-09-02 09:00:00',
      attendees: PUPILS.slice(0, 5).map((user) => ({ user })),
    },
    {
      ref: 'S2',
      owner: 'A',
      title: 'Second',
      startDate: '2026-09-03 09:00:00',
      attendees: PUPILS.slice(3, 8).map((user) => ({ user })),
    },
  ],
};

interface Page {
  dataSetId: string;
  itemType: string;
  numberOfPages: number;
  numberOfItemsPerPage: number;
  totalNumberOfItems: number;
  items: { id: string }[];
  currentPageIndex: number;
}

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

describe.each(BACKENDS)('data sets on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  /** A second instance over the same database whose sets live one second. */
  let shortLived: TestApp;
  let ids: IdMap;
  let keyId: number;
  /** Query-string credentials of each requester. */
  const who = {} as Record<'anonymous' | 'otherKey' | 'A' | 'B', string>;

  const userId = (ref: string) => ids.users[ref];
  const sessionId = (ref: string) => ids.sessions[ref];

  /**
   * The operation on REST, then on GraphQL with the same parameters and credentials, on the
   * same instance: both must give the same outcome (expectSetParity), so every case below is
   * asserted on both transports. GraphQL makes a set of its own where REST makes one; a page of
   * a set made on REST is read by GraphQL as the same page. Inputs GraphQL's types cannot hold
   * (pageIndex or numberOfItemsPerPage "x" or "1.5", operator "xor" or "", no dataSetId) are
   * refused by Apollo itself (HTTP 400 BAD_USER_INPUT, no resolver run): expectSetParity
   * asserts that refusal for them.
   */
  async function call(
    operation: SetOperation,
    requester: keyof typeof who,
    params: Record<string, string | number> = {},
    target: TestApp = app,
  ): Promise<Reply> {
    const texts = Object.fromEntries(
      Object.entries(params).map(([name, value]) => [name, String(value)]),
    );
    const query = new URLSearchParams(texts);
    const res = await target.get(`/${operation}?${who[requester]}&${query.toString()}`);
    const reply = { status: res.status, body: (await res.json()) as Record<string, unknown> };
    await expectSetParity(target.url, operation, texts, who[requester], reply);
    return reply;
  }

  async function page(
    operation: SetOperation,
    requester: keyof typeof who,
    params: Record<string, string | number> = {},
  ): Promise<Page> {
    const reply = await call(operation, requester, params);
    expect(reply).toMatchObject({ status: 200 });
    return reply.body as unknown as Page;
  }

  const memberIds = (p: Page) => p.items.map((item) => item.id);
  const byId = (a: string, b: string) => Number(a) - Number(b);

  /** Every item of a set, page by page. */
  async function allMembers(first: Page, requester: keyof typeof who): Promise<string[]> {
    const members = memberIds(first);
    for (let index = 2; index <= first.numberOfPages; index += 1) {
      const next = await page('getDataSetPage', requester, {
        dataSetId: first.dataSetId,
        pageIndex: index,
      });
      members.push(...memberIds(next));
    }
    return members;
  }

  function expectError(reply: Reply, status: number, type: string, parameterName?: string) {
    expect(reply.status).toBe(status);
    expect(reply.body.type).toBe(type);
    if (parameterName !== undefined) expect(reply.body.parameterName).toBe(parameterName);
  }

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'data_sets'));
    ids = await loadData(dataSource, DOCUMENT);
    const key = await createTestApiKey(dataSource, 'localhost');
    keyId = key.id;
    const otherKey = await createTestApiKey(dataSource, 'localhost');
    who.anonymous = `apiKey=${key.secret}`;
    who.otherKey = `apiKey=${otherKey.secret}`;
    for (const ref of ['A', 'B'] as const) {
      who[ref] =
        `apiKey=${key.secret}&accessToken=${await createTestToken(dataSource, Number(userId(ref)), key.id)}`;
    }
    // The parity documents select every field of every item type: at a page of 1,000 items they
    // cost 178,141, over the default GRAPHQL_MAX_COST (that limit has a suite of its own).
    // Sets made by an API key alone (their owner is the key) are what this suite pages: the
    // legacy open reads let a key read a session's attendance (contract §6), so both instances
    // run with them, as an operator whose legacy clients page such sets would.
    app = await startTestApp(dataSource, {
      GRAPHQL_MAX_COST: '500000',
      LEGACY_OPEN_READS: 'true',
    });
    shortLived = await startTestApp(dataSource, {
      DATASET_TTL_SECONDS: '5',
      GRAPHQL_MAX_COST: '500000',
      LEGACY_OPEN_READS: 'true',
    });
  });

  afterAll(async () => {
    // Either close ends the shared data source; the other then finds it closed.
    await shortLived?.close();
    await app?.close();
    await close?.();
  });

  it('pages a set of 120 users 50 at a time: 50, 50, 20, each member once, in id order', async () => {
    const first = await page('getUserSet', 'anonymous', {
      sessionId: sessionId('BIG'),
      numberOfItemsPerPage: 50,
    });
    expect(first).toMatchObject({
      itemType: 'user',
      numberOfPages: 3,
      numberOfItemsPerPage: 50,
      totalNumberOfItems: 120,
      currentPageIndex: 1,
    });
    expect(typeof first.dataSetId).toBe('string');
    expect(Object.keys(first)).toEqual([
      'dataSetId',
      'itemType',
      'numberOfPages',
      'numberOfItemsPerPage',
      'totalNumberOfItems',
      'items',
      'currentPageIndex',
    ]);
    const sizes = [first.items.length];
    const members = memberIds(first);
    for (const index of [2, 3]) {
      const next = await page('getDataSetPage', 'anonymous', {
        dataSetId: first.dataSetId,
        pageIndex: index,
      });
      expect(next).toMatchObject({
        dataSetId: first.dataSetId,
        itemType: 'user',
        numberOfPages: 3,
        totalNumberOfItems: 120,
        currentPageIndex: index,
      });
      sizes.push(next.items.length);
      members.push(...memberIds(next));
    }
    expect(sizes).toEqual([50, 50, 20]);
    const expected = PUPILS.map(userId).sort(byId);
    expect(members).toEqual(expected);
    // Pupils' details are private to an anonymous requester: ids only.
    expect(first.items[0]).toEqual({ id: expected[0] });
  });

  it('pageIndex defaults to 1 and the default page size is 50', async () => {
    const first = await page('getUserSet', 'A', { sessionId: sessionId('BIG') });
    expect(first).toMatchObject({ numberOfItemsPerPage: 50, numberOfPages: 3 });
    const again = await page('getDataSetPage', 'A', { dataSetId: first.dataSetId });
    expect(again.currentPageIndex).toBe(1);
    expect(memberIds(again)).toEqual(memberIds(first));
    // The session's owner knows its attendees: details are shown to A.
    expect(again.items[0]).toMatchObject({ firstName: 'Pupil', lastName: 'p001' });
  });

  it('keeps its members: users who join later change neither pages nor totals', async () => {
    const first = await page('getUserSet', 'anonymous', {
      sessionId: sessionId('BIG'),
      numberOfItemsPerPage: 50,
    });
    const before = await allMembers(first, 'anonymous');
    const late = await loadData(dataSource, {
      users: [{ ref: 'late', email: 'late@school.example', firstName: 'Late', lastName: 'Comer' }],
    });
    await dataSource.query('INSERT INTO session_attendees (session_id, user_id) VALUES (?, ?)', [
      Number(sessionId('BIG')),
      Number(late.users.late),
    ]);
    try {
      const last = await page('getDataSetPage', 'anonymous', {
        dataSetId: first.dataSetId,
        pageIndex: 3,
      });
      expect(last).toMatchObject({ totalNumberOfItems: 120, numberOfPages: 3 });
      expect(last.items).toHaveLength(20);
      expect(await allMembers(first, 'anonymous')).toEqual(before);
      // A new set sees the newcomer.
      const fresh = await page('getUserSet', 'anonymous', {
        sessionId: sessionId('BIG'),
        numberOfItemsPerPage: 50,
      });
      expect(fresh.totalNumberOfItems).toBe(121);
      expect((await allMembers(fresh, 'anonymous')).at(-1)).toBe(late.users.late);
    } finally {
      await dataSource.query('DELETE FROM session_attendees WHERE user_id = ?', [
        Number(late.users.late),
      ]);
    }
  });

  it("refuses another requester's set: 403, or 401 for an anonymous requester reading a user's", async () => {
    const anonymousSet = await page('getUserSet', 'anonymous', { sessionId: sessionId('S1') });
    const setOfA = await page('getUserSet', 'A', { sessionId: sessionId('S1') });
    const cases: [keyof typeof who, string, number][] = [
      ['otherKey', anonymousSet.dataSetId, 403],
      ['A', anonymousSet.dataSetId, 403],
      ['B', setOfA.dataSetId, 403],
      ['anonymous', setOfA.dataSetId, 401],
      ['otherKey', setOfA.dataSetId, 401],
    ];
    for (const [requester, dataSetId, status] of cases) {
      const reply = await call('getDataSetPage', requester, { dataSetId });
      expectError(reply, status, 'UnauthorizedOperationException');
      expect(reply.body.operation).toBe('getDataSetPage');
    }
    // The owner is the user, or the API key for an anonymous request; sets live 24 hours.
    const stored = await dataSource.getRepository(DataSet).findBy({
      id: In([Number(anonymousSet.dataSetId), Number(setOfA.dataSetId)]),
    });
    const byOwner = Object.fromEntries(stored.map((set) => [String(set.id), set]));
    expect(byOwner[anonymousSet.dataSetId]).toMatchObject({
      ownerUserId: null,
      ownerApiKeyId: keyId,
    });
    expect(byOwner[setOfA.dataSetId]).toMatchObject({
      ownerUserId: Number(userId('A')),
      ownerApiKeyId: null,
    });
    for (const set of stored) {
      expect(set.expiresAt.getTime() - Date.now()).toBeGreaterThan(86_400_000 - 60_000);
      expect(set.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(86_400_000);
    }
    // Their makers still read them.
    expect(
      (await call('getDataSetPage', 'anonymous', { dataSetId: anonymousSet.dataSetId })).status,
    ).toBe(200);
    expect((await call('getDataSetPage', 'A', { dataSetId: setOfA.dataSetId })).status).toBe(200);
  });

  it('answers BadParameterException 404 on dataSetId for an unknown or expired set', async () => {
    const set = await page('getUserSet', 'anonymous', { sessionId: sessionId('S1') });
    const [stored] = await dataSource.getRepository(DataSet).findBy({ id: Number(set.dataSetId) });
    // The service's clock one second past the set's expiry (the real wait is the TTL test's).
    const now = jest
      .spyOn(Date, 'now')
      .mockReturnValue((stored as DataSet).expiresAt.getTime() + 1000);
    try {
      expectError(
        await call('getDataSetPage', 'anonymous', { dataSetId: set.dataSetId }),
        404,
        'BadParameterException',
        'dataSetId',
      );
    } finally {
      now.mockRestore();
    }
    expectError(
      await call('getDataSetPage', 'anonymous', { dataSetId: 2_000_000_000 }),
      404,
      'BadParameterException',
      'dataSetId',
    );
    expectError(
      await call('getDataSetPage', 'anonymous', { dataSetId: 'abc' }),
      400,
      'BadParameterException',
      'dataSetId',
    );
    // No dataSetId cannot reach the GraphQL resolver: the argument is required (ID!), so Apollo
    // refuses the request itself (400 BAD_USER_INPUT, "was not provided"), asserted by call.
    expectError(
      await call('getDataSetPage', 'anonymous'),
      400,
      'MissingParameterException',
      'dataSetId',
    );
  });

  it('expires sets after DATASET_TTL_SECONDS, and any instance pages a set another made', async () => {
    const made = await call('getUserSet', 'anonymous', { sessionId: sessionId('S1') }, shortLived);
    expect(made.status).toBe(200);
    const dataSetId = String(made.body.dataSetId);
    // Made by one instance, paged by the other: sets live in the database.
    expect((await call('getDataSetPage', 'anonymous', { dataSetId })).status).toBe(200);
    // The instance set a 5-second lifetime; let the clock pass it.
    const [row] = (await dataSource.query('SELECT expires_at FROM data_sets WHERE id = ?', [
      Number(dataSetId),
    ])) as {
      expires_at: Date | string;
    }[];
    const expiresAt = new Date(
      typeof row.expires_at === 'string' ? `${row.expires_at.replace(' ', 'T')}Z` : row.expires_at,
    );
    expect(expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(5000);
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, expiresAt.getTime() - Date.now()) + 1100),
    );
    for (const instance of [shortLived, app]) {
      expectError(
        await call('getDataSetPage', 'anonymous', { dataSetId }, instance),
        404,
        'BadParameterException',
        'dataSetId',
      );
    }
  });

  // On GraphQL, 0, 4 and -1 reach the resolver and fail alike; "x" and "1.5" are no Int, so
  // Apollo refuses them itself (400 BAD_USER_INPUT, no resolver run), asserted by call.
  it.each(['0', '4', 'x', '1.5', '-1'])(
    'refuses pageIndex %s of a 3-page set',
    async (pageIndex) => {
      const set = await page('getUserSet', 'anonymous', {
        sessionId: sessionId('BIG'),
        numberOfItemsPerPage: 50,
      });
      expectError(
        await call('getDataSetPage', 'anonymous', { dataSetId: set.dataSetId, pageIndex }),
        400,
        'BadParameterException',
        'pageIndex',
      );
    },
  );

  it('gives an empty set 0 pages, no items and page index 1', async () => {
    const empty = await page('getUserSet', 'anonymous', { userId: 2_000_000_000 });
    const shape = {
      itemType: 'user',
      numberOfPages: 0,
      totalNumberOfItems: 0,
      items: [],
      currentPageIndex: 1,
    };
    expect(empty).toMatchObject(shape);
    expect(await page('getDataSetPage', 'anonymous', { dataSetId: empty.dataSetId })).toMatchObject(
      shape,
    );
    expectError(
      await call('getDataSetPage', 'anonymous', { dataSetId: empty.dataSetId, pageIndex: 2 }),
      400,
      'BadParameterException',
      'pageIndex',
    );
  });

  // On GraphQL, 0 and 1001 reach the resolver and fail alike; "x" and "2.5" are no Int, so
  // Apollo refuses them itself (400 BAD_USER_INPUT, no resolver run), asserted by call. Neither
  // transport makes a set for a refused request.
  it.each(['0', '1001', 'x', '2.5'])('refuses numberOfItemsPerPage %s', async (size) => {
    const before = await dataSource.getRepository(DataSet).count();
    expectError(
      await call('getUserSet', 'anonymous', {
        sessionId: sessionId('S1'),
        numberOfItemsPerPage: size,
      }),
      400,
      'BadParameterException',
      'numberOfItemsPerPage',
    );
    // A refused request makes no set.
    expect(await dataSource.getRepository(DataSet).count()).toBe(before);
  });

  it('refuses a parameter given twice, which GraphQL cannot express', async () => {
    const before = await dataSource.getRepository(DataSet).count();
    const [s1, s2] = [sessionId('S1'), sessionId('S2')];
    const res = await app.get(`/getUserSet?${who.anonymous}&sessionId=${s1}&sessionId=${s2}`);
    const reply = { status: res.status, body: (await res.json()) as Record<string, unknown> };
    expectError(reply, 400, 'BadParameterException', 'sessionId');
    expect(reply.body).toMatchObject({ operation: 'getUserSet', providedValue: `${s1},${s2}` });
    // GraphQL has no form for it, so Apollo refuses the request itself (HTTP 400, no `data`, no
    // resolver run): an argument named twice makes the document invalid, and a list is no ID.
    const search = `?${who.anonymous}`;
    const named = await graphql(
      app.url,
      `{ getUserSet(sessionId: "${s1}", sessionId: "${s2}") { dataSetId } }`,
      { search },
    );
    expect(named.status).toBe(400);
    expect(named.body).not.toHaveProperty('data');
    expect(named.body.errors).toHaveLength(1);
    expect(named.body.errors?.[0]).toMatchObject({
      message: 'There can be only one argument named "sessionId".',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    const listed = await graphql(app.url, SET_QUERIES.getUserSet, {
      variables: { sessionId: [s1, s2] },
      search,
    });
    expect(listed.status).toBe(400);
    expect(listed.body).not.toHaveProperty('data');
    expect(listed.body.errors).toHaveLength(1);
    expect(listed.body.errors?.[0]?.message).toMatch(/^Variable "\$sessionId" got invalid value /);
    expect(listed.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(await dataSource.getRepository(DataSet).count()).toBe(before);
  });

  it('accepts numberOfItemsPerPage 1 and 1000', async () => {
    const one = await page('getUserSet', 'anonymous', {
      sessionId: sessionId('S1'),
      numberOfItemsPerPage: 1,
    });
    expect(one).toMatchObject({ numberOfPages: 5, numberOfItemsPerPage: 1, totalNumberOfItems: 5 });
    expect(one.items).toHaveLength(1);
    const thousand = await page('getUserSet', 'anonymous', {
      sessionId: sessionId('BIG'),
      numberOfItemsPerPage: 1000,
    });
    expect(thousand).toMatchObject({ numberOfPages: 1, totalNumberOfItems: 120 });
    expect(thousand.items).toHaveLength(120);
  });

  describe('computeDataSet', () => {
    let s1: Page;
    let s2: Page;
    const pupils = (from: number, to: number) =>
      PUPILS.slice(from - 1, to)
        .map(userId)
        .sort(byId);

    beforeAll(async () => {
      s1 = await page('getUserSet', 'A', { sessionId: sessionId('S1'), numberOfItemsPerPage: 3 });
      s2 = await page('getUserSet', 'A', { sessionId: sessionId('S2') });
    });

    it.each([
      ['union', 1, 8],
      ['intersection', 4, 5],
      ['difference', 1, 3],
    ])('%s of S1 (p001..p005) and S2 (p004..p008) is p%i..p%i', async (operator, from, to) => {
      const result = await page('computeDataSet', 'A', {
        dataSetId1: s1.dataSetId,
        dataSetId2: s2.dataSetId,
        operator,
      });
      const expected = pupils(from, to);
      expect(result).toMatchObject({
        itemType: 'user',
        totalNumberOfItems: expected.length,
        // Pages like the first operand unless told otherwise.
        numberOfItemsPerPage: 3,
        currentPageIndex: 1,
      });
      expect(result.dataSetId).not.toBe(s1.dataSetId);
      expect(await allMembers(result, 'A')).toEqual(expected);
    });

    it('takes numberOfItemsPerPage and works for anonymous sets too', async () => {
      const a = await page('getUserSet', 'anonymous', { sessionId: sessionId('S2') });
      const b = await page('getUserSet', 'anonymous', { sessionId: sessionId('S1') });
      const result = await page('computeDataSet', 'anonymous', {
        dataSetId1: a.dataSetId,
        dataSetId2: b.dataSetId,
        operator: 'difference',
        numberOfItemsPerPage: 10,
      });
      expect(result).toMatchObject({ numberOfItemsPerPage: 10, totalNumberOfItems: 3 });
      expect(memberIds(result)).toEqual(pupils(6, 8));
    });

    it('refuses sets of different item types, an unknown operator, results and foreign sets', async () => {
      const quizzes = await page('getQuizSet', 'A', { tag: 'sets' });
      expect(quizzes.totalNumberOfItems).toBe(1);
      expectError(
        await call('computeDataSet', 'A', {
          dataSetId1: s1.dataSetId,
          dataSetId2: quizzes.dataSetId,
          operator: 'union',
        }),
        400,
        'BadParameterException',
        'dataSetId2',
      );
      // operator is the SetOperator enum on GraphQL: none of these is one of its values, so Apollo
      // refuses them itself (400 BAD_USER_INPUT, no resolver run), asserted by call.
      for (const operator of ['xor', 'UNION', '']) {
        const reply = await call('computeDataSet', 'A', {
          dataSetId1: s1.dataSetId,
          dataSetId2: s2.dataSetId,
          operator,
        });
        if (operator === '') expectError(reply, 400, 'MissingParameterException', 'operator');
        else expectError(reply, 400, 'BadParameterException', 'operator');
      }
      const results = await dataSource.getRepository(DataSet).save({
        itemType: 'computedResult',
        ownerUserId: Number(userId('A')),
        ownerApiKeyId: null,
        totalNumberOfItems: 0,
        numberOfItemsPerPage: 50,
        parameters: null,
        expiresAt: new Date(Date.now() + 3600_000),
      });
      expectError(
        await call('computeDataSet', 'A', {
          dataSetId1: results.id,
          dataSetId2: results.id,
          operator: 'union',
        }),
        400,
        'BadParameterException',
        'dataSetId1',
      );
      expectError(
        await call('computeDataSet', 'B', {
          dataSetId1: s1.dataSetId,
          dataSetId2: s2.dataSetId,
          operator: 'union',
        }),
        403,
        'UnauthorizedOperationException',
      );
      const ofB = await page('getUserSet', 'B', { sessionId: sessionId('S2') });
      expectError(
        await call('computeDataSet', 'A', {
          dataSetId1: s1.dataSetId,
          dataSetId2: ofB.dataSetId,
          operator: 'union',
        }),
        403,
        'UnauthorizedOperationException',
      );
    });
  });

  it('purges expired sets and their items, in bounded batches, and nothing else', async () => {
    const count = async (sql: string, params: number[]) =>
      Number(((await dataSource.query(sql, params)) as { n: unknown }[])[0].n);
    const itemsOf = (id: number) =>
      count('SELECT COUNT(*) AS n FROM data_set_items WHERE data_set_id = ?', [id]);
    const setExists = async (id: number) =>
      (await count('SELECT COUNT(*) AS n FROM data_sets WHERE id = ?', [id])) === 1;

    // Start from no expired set, so the purge count below is exactly ours.
    await purgeExpiredDataSets({ db: databaseOf(dataSource) });
    const made = await Promise.all(
      (
        [
          { sessionId: sessionId('BIG') },
          { sessionId: sessionId('S1') },
          { sessionId: sessionId('S2') },
          { userId: 2_000_000_000 },
          { sessionId: sessionId('BIG') },
        ] as Record<string, string | number>[]
      ).map(async (params) => Number((await page('getUserSet', 'anonymous', params)).dataSetId)),
    );
    const [big, small1, small2, empty, kept] = made;
    expect(await itemsOf(big)).toBe(120);
    const expired = [big, small1, small2, empty];
    await dataSource
      .getRepository(DataSet)
      .update(expired, { expiresAt: new Date(Date.now() - 60_000) });

    // Small bounds force every path: grouped small sets and a large set deleted by ranges.
    const purged = await purgeExpiredDataSets(
      { db: databaseOf(dataSource) },
      { setsPerRound: 2, itemsPerStatement: 7 },
    );
    expect(purged).toBe(4);
    for (const id of expired) {
      expect(await setExists(id)).toBe(false);
      expect(await itemsOf(id)).toBe(0);
    }
    expect(await setExists(kept)).toBe(true);
    expect(await itemsOf(kept)).toBe(120);
    expect(await purgeExpiredDataSets({ db: databaseOf(dataSource) })).toBe(0);
  });
});

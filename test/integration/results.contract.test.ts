import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type {
  IdMap,
  ImportAnswer,
  ImportDocument,
  ImportQuiz,
} from '../../src/data/import/import-document';
import { generateData } from '../../src/data/generate/synthetic-data';
import { DataSet } from '../../src/db/entities';
import type { AttemptScope } from '../../src/domain/policy/access.policy';
import { parseResultsRequest } from '../../src/services/results/result-parameters';
import { resultsQuery } from '../../src/db/sql/results.sql';
import { membersInsert } from '../../src/services/sets/data-set.store';
import { dialectNamed } from '../../src/db/sql/dialect';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend, openTestDatabase } from '../helpers/database';

/**
 * getResults on hand-made data whose every number is worked out below (contract.md §7).
 *
 * Users: teachers T (owns S1..S3) and V (owns S4, member of the class); pupils a b c d e f in
 * the class (e never answers), x outside it. The quiz set is every quiz tagged `res`.
 * - Q1 (1 question): a b d f in S1..S4 = 16 attempts, all good but (a, S1): its percentile is
 *   100 × (0 + 1/2) / 16 = 3.125 → 3.13; the 15 others 100 × (1 + 15/2) / 16 = 53.125 → 53.13.
 *   x also plays Q1 (wrong, S1): outside the user set, so outside every population.
 * - Q8 (8 questions): a/S1 1 good (12.5 %, 150 s), b/S1 4 good (50 %), c/S1 and c/S2 0 good
 *   (one answer each), d/S4 8 good (100 %).
 * - Q3 (3 questions): a/S2 1 good (33.33 %), b/S2 2 good (66.67 %), c/S1 0 good, V/S1 3 good.
 * - Q32 (32 questions): c/S1 3 good of 3 answers: 9.375 → 9.38.
 * - Q25 (25 questions): c/S1 1 good: 4 %.
 *   So c has 5 attempts whose average goodAnswersPercent is (9.375 + 4 + 0 + 0 + 0) / 5 = 2.675
 *   exactly — a double stores 2.67499999…, and half away from zero gives 2.68.
 * - Q0 (2 questions): never played. Qout (tag `other`): played by a, never in the quiz set.
 */

const TF = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    title: `Statement ${i + 1}`,
    type: 'TrueFalse',
    goodAnswer: true,
  }));

function quiz(ref: string, questions: number, tag = 'res'): ImportQuiz {
  return {
    ref,
    author: 'T',
    title: `Quiz ${ref}`,
    visibility: 'public',
    survey: false,
    tags: [tag, 'results'],
    questions: TF(questions),
  };
}

const SESSIONS = ['S1', 'S2', 'S3', 'S4'] as const;
const SESSION_DAY: Record<string, string> = {
  S1: '2026-10-01',
  S2: '2026-10-02',
  S3: '2026-10-03',
  S4: '2026-10-04',
};

/** An attempt: `good` answers then `wrong` ones, `step` seconds apart from 09:00:00. */
function attempt(
  user: string,
  quizRef: string,
  session: string,
  good: number,
  wrong: number,
  step = 10,
): ImportAnswer[] {
  return Array.from({ length: good + wrong }, (_, question) => {
    const seconds = Math.round(question * step);
    const time = `09:${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
    return {
      session,
      user,
      quiz: quizRef,
      question,
      answer: question < good,
      answeredAt: `${SESSION_DAY[session]} ${time}`,
    };
  });
}

const PUPILS = ['a', 'b', 'c', 'd', 'e', 'f', 'x'];

const DOCUMENT: ImportDocument = {
  users: ['T', 'V', ...PUPILS].map((ref) => ({
    ref,
    email: `${ref.toLowerCase()}@results.example`,
    firstName: ref,
    lastName: 'Results',
  })),
  groups: [
    {
      ref: 'class',
      name: 'Results class',
      owner: 'T',
      members: ['a', 'b', 'c', 'd', 'e', 'f', 'V'],
    },
  ],
  quizzes: [
    quiz('Q1', 1),
    quiz('Q8', 8),
    quiz('Q3', 3),
    quiz('Q32', 32),
    quiz('Q25', 25),
    quiz('Q0', 2),
    quiz('Qout', 1, 'other'),
  ],
  sessions: SESSIONS.map((ref) => ({
    ref,
    owner: ref === 'S4' ? 'V' : 'T',
    title: `Session ${ref}`,
    startDate: `${SESSION_DAY[ref]} 08:00:00`,
    quizzes: ['Q1', 'Q8', 'Q3', 'Q32', 'Q25', 'Q0', 'Qout'],
    attendees: [...PUPILS, 'V'].map((user) => ({ user })),
  })),
  answers: [
    ...['a', 'b', 'd', 'f'].flatMap((user) =>
      SESSIONS.flatMap((session) =>
        user === 'a' && session === 'S1'
          ? attempt(user, 'Q1', session, 0, 1)
          : attempt(user, 'Q1', session, 1, 0),
      ),
    ),
    ...attempt('x', 'Q1', 'S1', 0, 1),
    ...attempt('a', 'Q8', 'S1', 1, 7, 150 / 7),
    ...attempt('b', 'Q8', 'S1', 4, 4),
    ...attempt('c', 'Q8', 'S1', 0, 1),
    ...attempt('c', 'Q8', 'S2', 0, 1),
    ...attempt('d', 'Q8', 'S4', 8, 0),
    ...attempt('a', 'Q3', 'S2', 1, 2),
    ...attempt('b', 'Q3', 'S2', 2, 1),
    ...attempt('c', 'Q3', 'S1', 0, 1),
    ...attempt('V', 'Q3', 'S1', 3, 0),
    ...attempt('c', 'Q32', 'S1', 3, 0),
    ...attempt('c', 'Q25', 'S1', 1, 0),
    ...attempt('a', 'Qout', 'S1', 1, 0),
  ],
};

interface Page {
  dataSetId: string;
  itemType: string;
  numberOfPages: number;
  numberOfItemsPerPage: number;
  totalNumberOfItems: number;
  items: Record<string, unknown>[];
  currentPageIndex: number;
}

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

type Requester = 'anonymous' | 'T' | 'V' | 'c' | 'e';

describe.each(BACKENDS)('getResults on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let ids: IdMap;
  const who = {} as Record<Requester, string>;
  /** Each requester's own user set (the class) and quiz set (tag res). */
  const sets = {} as Record<Requester, { userSetId: string; quizSetId: string }>;

  const user = (ref: string) => ids.users[ref];
  const quizId = (ref: string) => ids.quizzes[ref];
  const session = (ref: string) => ids.sessions[ref];

  async function call(
    operation: string,
    requester: Requester,
    params: Record<string, string | number> = {},
  ): Promise<Reply> {
    const query = new URLSearchParams(
      Object.entries(params).map(([name, value]) => [name, String(value)]),
    );
    const res = await app.get(`/${operation}?${who[requester]}&${query.toString()}`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  async function page(
    operation: string,
    requester: Requester,
    params: Record<string, string | number> = {},
  ): Promise<Page> {
    const reply = await call(operation, requester, params);
    expect(reply).toMatchObject({ status: 200 });
    return reply.body as unknown as Page;
  }

  /** getResults over the requester's sets, every page read. */
  async function results(
    requester: Requester,
    params: Record<string, string | number> = {},
  ): Promise<{ first: Page; items: Record<string, unknown>[] }> {
    const first = await page('getResults', requester, { ...sets[requester], ...params });
    expect(first.itemType).toBe('computedResult');
    const items = [...first.items];
    for (let pageIndex = 2; pageIndex <= first.numberOfPages; pageIndex += 1) {
      const next = await page('getDataSetPage', requester, {
        dataSetId: first.dataSetId,
        pageIndex,
      });
      items.push(...next.items);
    }
    expect(items).toHaveLength(first.totalNumberOfItems);
    return { first, items };
  }

  function expectError(reply: Reply, status: number, type: string, parameterName?: string) {
    expect({ status: reply.status, type: reply.body.type }).toEqual({ status, type });
    if (parameterName !== undefined) expect(reply.body.parameterName).toBe(parameterName);
    expect(reply.body.operation).toBe('getResults');
  }

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'results'));
    ids = await loadData(dataSource, DOCUMENT);
    const key = await createTestApiKey(dataSource, 'localhost');
    who.anonymous = `apiKey=${key.secret}`;
    for (const ref of ['T', 'V', 'c', 'e'] as const) {
      who[ref] =
        `apiKey=${key.secret}&accessToken=${await createTestToken(dataSource, Number(user(ref)), key.id)}`;
    }
    app = await startTestApp(dataSource);
    for (const requester of ['T', 'V', 'c', 'e'] as const) {
      const groups = await page('getUserGroupSet', requester, { search: 'Results' });
      const users = await page('getUserSet', requester, { userGroupSetId: groups.dataSetId });
      const quizzes = await page('getQuizSet', requester, { tag: 'res' });
      sets[requester] = { userSetId: users.dataSetId, quizSetId: quizzes.dataSetId };
    }
    // An anonymous requester lists no groups nor attendance: its user set is the class, one
    // user at a time.
    let users = await page('getUserSet', 'anonymous', { userId: user('a') });
    for (const ref of ['b', 'c', 'd', 'e', 'f', 'V']) {
      const one = await page('getUserSet', 'anonymous', { userId: user(ref) });
      users = await page('computeDataSet', 'anonymous', {
        dataSetId1: users.dataSetId,
        dataSetId2: one.dataSetId,
        operator: 'union',
      });
    }
    const quizzes = await page('getQuizSet', 'anonymous', { tag: 'res' });
    sets.anonymous = { userSetId: users.dataSetId, quizSetId: quizzes.dataSetId };
  });

  afterAll(async () => {
    await app?.close();
    await close?.();
  });

  it('sets up a class of 7 and 6 quizzes for every requester', async () => {
    for (const requester of ['anonymous', 'T', 'V', 'c', 'e'] as const) {
      const users = await page('getDataSetPage', requester, {
        dataSetId: sets[requester].userSetId,
      });
      const quizzes = await page('getDataSetPage', requester, {
        dataSetId: sets[requester].quizSetId,
      });
      expect([users.totalNumberOfItems, quizzes.totalNumberOfItems]).toEqual([7, 6]);
    }
  });

  it('grouped by user with one function: one item per user of the set, null without attempts', async () => {
    // T owns S1..S3, where c and V made every attempt below: T's aggregates count them all.
    const { first, items } = await results('T', {
      aggregationFunctions: 'average',
      groupBy: 'user',
      resultTypes: 'nbGoodAnswers,goodAnswersPercent',
    });
    expect(first.totalNumberOfItems).toBe(7);
    const byUser = Object.fromEntries(items.map((item) => [item.userId, item]));
    expect(Object.keys(byUser).sort()).toEqual(
      ['a', 'b', 'c', 'd', 'e', 'f', 'V'].map(user).sort(),
    );
    expect(byUser[user('e')]).toEqual({
      id: expect.any(String),
      userId: user('e'),
      aggregationFunction: 'average',
      nbGoodAnswers: null,
      goodAnswersPercent: null,
    });
    // c: 5 attempts, 4 good answers in all; percents average to 2.675 exactly → 2.68.
    expect(byUser[user('c')]).toMatchObject({ nbGoodAnswers: 0.8, goodAnswersPercent: 2.68 });
    // V: one attempt, 3 good of 3.
    expect(byUser[user('V')]).toMatchObject({ nbGoodAnswers: 3, goodAnswersPercent: 100 });
    // Keys in the contract's order: id, userId, aggregationFunction, then the types as asked.
    expect(Object.keys(items[0])).toEqual([
      'id',
      'userId',
      'aggregationFunction',
      'nbGoodAnswers',
      'goodAnswersPercent',
    ]);
    // Ids are the positions: unique, "1".."7" in user id order.
    expect(items.map((item) => item.id)).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    expect(items.map((item) => Number(item.userId))).toEqual(
      items.map((item) => Number(item.userId)).sort((p, q) => p - q),
    );
  });

  it('count is 0 and every other function null for a user without attempts', async () => {
    const { first, items } = await results('T', {
      aggregationFunctions: 'count,min,max,average,median,stddev',
      groupBy: 'user',
    });
    expect(first.totalNumberOfItems).toBe(7 * 6);
    const ofE = items.filter((item) => item.userId === user('e'));
    expect(ofE.map((item) => [item.aggregationFunction, item.nbGoodAnswers])).toEqual([
      ['count', 0],
      ['min', null],
      ['max', null],
      ['average', null],
      ['median', null],
      ['stddev', null],
    ]);
  });

  it('grouped by quiz: every quiz of the set, the unplayed one with nulls', async () => {
    const { first, items } = await results('T', {
      aggregationFunctions: 'max',
      groupBy: 'quiz',
      resultTypes: 'nbAnswers,duration',
    });
    expect(first.totalNumberOfItems).toBe(6);
    const byQuiz = Object.fromEntries(items.map((item) => [item.quizId, item]));
    expect(byQuiz[quizId('Q0')]).toEqual({
      id: expect.any(String),
      quizId: quizId('Q0'),
      aggregationFunction: 'max',
      nbAnswers: null,
      duration: null,
    });
    // a/Q8/S1: 8 answers from 09:00:00 to 09:02:30.
    expect(byQuiz[quizId('Q8')]).toMatchObject({ nbAnswers: 8, duration: 150 });
    expect(byQuiz[quizId('Q32')]).toMatchObject({ nbAnswers: 3, duration: 20 });
    expect(byQuiz[quizId('Qout')]).toBeUndefined();
  });

  it('median of an even count is the mean of the middle two; stddev is the population one', async () => {
    const { items } = await results('T', {
      aggregationFunctions: 'median,stddev,min,max',
      groupBy: 'quiz',
      resultTypes: 'nbGoodAnswers',
    });
    const of = (quizRef: string) =>
      Object.fromEntries(
        items
          .filter((item) => item.quizId === quizId(quizRef))
          .map((item) => [item.aggregationFunction, item.nbGoodAnswers]),
      );
    // Q3: 0, 1, 2, 3 → median 1.5, stddev √1.25 = 1.1180… → 1.12.
    expect(of('Q3')).toEqual({ median: 1.5, stddev: 1.12, min: 0, max: 3 });
    // Q8 in T's sessions (d's 8 was in V's S4): 0, 0, 1, 4 → median 0.5; mean 1.25,
    // variance (1.5625·2 + 0.0625 + 7.5625) / 4 = 2.6875, √ = 1.6393… → 1.64.
    expect(of('Q8')).toEqual({ median: 0.5, stddev: 1.64, min: 0, max: 4 });
  });

  it('aggregates only what the requester may see: nothing for an anonymous requester', async () => {
    for (const includeQuizzes of ['answered', 'all']) {
      for (const groupBy of ['user', 'quiz']) {
        const { first, items } = await results('anonymous', {
          aggregationFunctions: 'count,min,max,average,median,stddev',
          groupBy,
          includeQuizzes,
          resultTypes: 'nbGoodAnswers,goodAnswersPercent,percentile,nbAnswers,duration',
        });
        // Every member still appears, once per function: count 0, everything else null.
        expect(first.totalNumberOfItems).toBe((groupBy === 'user' ? 7 : 6) * 6);
        for (const item of items) {
          const value = item.aggregationFunction === 'count' ? 0 : null;
          expect(item).toMatchObject({
            nbGoodAnswers: value,
            goodAnswersPercent: value,
            percentile: value,
            nbAnswers: value,
            duration: value,
          });
        }
      }
    }
    // V sees its S4 and its own Q3 attempt: d's Q8 (8 good, S4) but not c's (T's S1, S2).
    const ofV = await results('V', {
      aggregationFunctions: 'count,max',
      groupBy: 'quiz',
      resultTypes: 'nbGoodAnswers',
    });
    const onQ8 = ofV.items
      .filter((item) => item.quizId === quizId('Q8'))
      .map((item) => [item.aggregationFunction, item.nbGoodAnswers]);
    expect(onQ8).toEqual([
      ['count', 1],
      ['max', 8],
    ]);
  });

  it('percentiles follow 100 × (B + E/2) / N, ties included', async () => {
    const { items } = await results('T', {
      resultTypes: 'percentile,nbGoodAnswers',
      sessionIds: [1, 2, 3].map((n) => session(`S${n}`)).join(','),
    });
    // T owns S1..S3: T sees those attempts; the ranks still count S4's (sessionIds excluded it here).
    const q1 = items.filter((item) => item.quizId === quizId('Q1'));
    expect(q1).toHaveLength(12);
    // Among S1..S3 only: N = 12, (a, S1) alone below: 100 × 0.5 / 12 = 4.1666… → 4.17.
    const low = q1.find((item) => item.userId === user('a') && item.sessionId === session('S1'));
    expect(low).toMatchObject({ percentile: 4.17, nbGoodAnswers: 0 });
    expect(q1.filter((item) => item !== low).every((item) => item.percentile === 54.17)).toBe(true);

    const all = await results('T', { resultTypes: 'percentile' });
    const allQ1 = all.items.filter((item) => item.quizId === quizId('Q1'));
    // T does not own S4: 12 attempts shown, ranked among all 16.
    expect(allQ1).toHaveLength(12);
    expect(
      allQ1.find((item) => item.userId === user('a') && item.sessionId === session('S1')),
    ).toMatchObject({ percentile: 3.13 });
    expect(allQ1.filter((item) => item.percentile === 53.13)).toHaveLength(11);
    // Q3: scores 0 (c), 1 (a), 2 (b), 3 (V): 12.5, 37.5, 62.5, 87.5.
    const q3 = Object.fromEntries(
      all.items
        .filter((item) => item.quizId === quizId('Q3'))
        .map((item) => [item.userId, item.percentile]),
    );
    expect(q3).toEqual({
      [user('c')]: 12.5,
      [user('a')]: 37.5,
      [user('b')]: 62.5,
      [user('V')]: 87.5,
    });
  });

  it('rounds half away from zero once: 12.5, 33.33, 66.67, 9.38, 4', async () => {
    const { items } = await results('T', {
      resultTypes: 'goodAnswersPercent',
      sessionId: session('S1'),
    });
    const percent = (userRef: string, quizRef: string) =>
      items.find((item) => item.userId === user(userRef) && item.quizId === quizId(quizRef))
        ?.goodAnswersPercent;
    expect(percent('a', 'Q8')).toBe(12.5);
    expect(percent('c', 'Q32')).toBe(9.38);
    expect(percent('c', 'Q25')).toBe(4);
    expect(percent('V', 'Q3')).toBe(100);
    const s2 = await results('T', { resultTypes: 'goodAnswersPercent', sessionId: session('S2') });
    const inS2 = Object.fromEntries(
      s2.items
        .filter((item) => item.quizId === quizId('Q3'))
        .map((item) => [item.userId, item.goodAnswersPercent]),
    );
    expect(inS2).toEqual({ [user('a')]: 33.33, [user('b')]: 66.67 });
  });

  it('detailed results: the requester sees their sessions and their own attempts', async () => {
    const ofV = await results('V', { resultTypes: 'nbGoodAnswers' });
    // V owns S4 (a b d f on Q1, d on Q8) and made one attempt of its own (Q3, S1).
    expect(ofV.items.map((item) => [item.userId, item.quizId, item.sessionId])).toEqual(
      [
        ...['a', 'b', 'd', 'f'].map((u) => [user(u), quizId('Q1'), session('S4')]),
        [user('d'), quizId('Q8'), session('S4')],
        [user('V'), quizId('Q3'), session('S1')],
      ].sort((p, q) => Number(p[0]) - Number(q[0]) || Number(p[1]) - Number(q[1])),
    );
    expect(Object.keys(ofV.items[0])).toEqual([
      'id',
      'userId',
      'quizId',
      'sessionId',
      'nbGoodAnswers',
    ]);
    const ofC = await results('c', { resultTypes: 'nbAnswers' });
    expect(ofC.items.map((item) => [item.quizId, item.sessionId, item.nbAnswers])).toEqual(
      [
        [quizId('Q8'), session('S1'), 1],
        [quizId('Q8'), session('S2'), 1],
        [quizId('Q3'), session('S1'), 1],
        [quizId('Q32'), session('S1'), 3],
        [quizId('Q25'), session('S1'), 1],
      ].sort((p, q) => Number(p[0]) - Number(q[0]) || Number(p[1]) - Number(q[1])),
    );
    expect(ofC.items.every((item) => item.userId === user('c'))).toBe(true);
  });

  it('includeQuizzes=all brings zero attempts (sessionId null) into rows, percentiles and aggregates', async () => {
    const zeros = await results('e', {
      includeQuizzes: 'all',
      resultTypes: 'nbGoodAnswers,duration,nbAnswers,percentile',
    });
    // e answered nothing and owns no session: e sees no attempt of the class, so every pair of
    // the class (7) and the quizzes (6) gets a zero, and e sees them all.
    expect(zeros.items).toHaveLength(7 * 6);
    expect(
      zeros.items.map((item) => `${String(item.userId)}/${String(item.quizId)}`).sort(),
    ).toEqual(
      ['a', 'b', 'c', 'd', 'e', 'f', 'V']
        .flatMap((u) =>
          ['Q1', 'Q8', 'Q3', 'Q32', 'Q25', 'Q0'].map((q) => `${user(u)}/${quizId(q)}`),
        )
        .sort(),
    );
    for (const item of zeros.items) {
      expect(item).toMatchObject({ sessionId: null, nbGoodAnswers: 0, duration: 0, nbAnswers: 0 });
    }
    const percentileOf = (quizRef: string) =>
      zeros.items.find((item) => item.userId === user('e') && item.quizId === quizId(quizRef))
        ?.percentile;
    // Q3: the real attempts, seen or not (c 0, a 1, b 2, V 3), and this request's 7 zeros:
    // N = 11, E = 8 at 0 → 100 × 4 / 11 = 36.3636… → 36.36.
    expect(percentileOf('Q3')).toBe(36.36);
    // Q0: 7 zeros, all tied: 50.
    expect(percentileOf('Q0')).toBe(50);

    // T owns S1..S3 and sees their attempts (22, as without includeQuizzes), plus a zero for
    // each pair with no attempt in S1..S3 — whether or not it was played in V's S4:
    // Q1: c e V; Q8: d (played in S4 only) e f V; Q3: d e f; Q32 and Q25: all but c; Q0: all 7.
    const ofT = await results('T', {
      includeQuizzes: 'all',
      resultTypes: 'nbGoodAnswers,percentile',
    });
    const answered = await results('T', { resultTypes: 'nbGoodAnswers' });
    const key = (item: Record<string, unknown>) =>
      `${String(item.userId)}/${String(item.quizId)}/${String(item.sessionId)}`;
    expect(answered.items).toHaveLength(22);
    expect(ofT.items.filter((item) => item.sessionId !== null).map(key)).toEqual(
      answered.items.map(key),
    );
    const expectedZeros: Record<string, string[]> = {
      Q1: ['c', 'e', 'V'],
      Q8: ['d', 'e', 'f', 'V'],
      Q3: ['d', 'e', 'f'],
      Q32: ['a', 'b', 'd', 'e', 'f', 'V'],
      Q25: ['a', 'b', 'd', 'e', 'f', 'V'],
      Q0: ['a', 'b', 'c', 'd', 'e', 'f', 'V'],
    };
    const zerosOfT = ofT.items.filter((item) => item.sessionId === null);
    expect(zerosOfT.map((item) => `${String(item.userId)}/${String(item.quizId)}`).sort()).toEqual(
      Object.entries(expectedZeros)
        .flatMap(([q, users]) => users.map((u) => `${user(u)}/${quizId(q)}`))
        .sort(),
    );
    expect(zerosOfT).toHaveLength(29);
    expect(zerosOfT.every((item) => item.nbGoodAnswers === 0)).toBe(true);
    expect(ofT.items).toHaveLength(22 + 29);
    // Q8 ranks all real attempts, seen or not (c 0, c 0, a 1, b 4, d 8 in S4), and T's 4 zeros:
    // N = 9; at 0: E = 6 → 100 × 3 / 9 = 33.33; a: 100 × 6.5 / 9 = 72.22; b: 100 × 7.5 / 9 = 83.33.
    const q8 = ofT.items
      .filter((item) => item.quizId === quizId('Q8'))
      .map((item) => [item.userId, item.sessionId, item.nbGoodAnswers, item.percentile]);
    expect(q8).toEqual(
      [
        [user('a'), session('S1'), 1, 72.22],
        [user('b'), session('S1'), 4, 83.33],
        [user('c'), session('S1'), 0, 33.33],
        [user('c'), session('S2'), 0, 33.33],
        [user('d'), null, 0, 33.33],
        [user('e'), null, 0, 33.33],
        [user('f'), null, 0, 33.33],
        [user('V'), null, 0, 33.33],
      ].sort((p, q) => Number(p[0]) - Number(q[0]) || Number(p[1] ?? 0) - Number(q[1] ?? 0)),
    );

    // T's aggregates count T's detailed rows, zeros included.
    const counts = await results('T', {
      includeQuizzes: 'all',
      aggregationFunctions: 'count,average',
      groupBy: 'user',
      resultTypes: 'nbGoodAnswers',
    });
    const ofE = counts.items.filter((item) => item.userId === user('e'));
    expect(ofE.map((item) => [item.aggregationFunction, item.nbGoodAnswers])).toEqual([
      ['count', 6],
      ['average', 0],
    ]);
    // c: 5 attempts + zeros for Q1 and Q0 = 7.
    expect(
      counts.items.find((item) => item.userId === user('c') && item.aggregationFunction === 'count')
        ?.nbGoodAnswers,
    ).toBe(7);
    // As in T's detailed rows, d's Q8 (played in V's S4 only) is a zero, and its S4 attempt on
    // Q1 is not counted: 3 Q1 attempts + zeros for Q8, Q3, Q32, Q25, Q0 = 8.
    expect(
      counts.items.find((item) => item.userId === user('d') && item.aggregationFunction === 'count')
        ?.nbGoodAnswers,
    ).toBe(8);
    expect(
      ofT.items.filter((item) => item.userId === user('d')).map((item) => item.nbGoodAnswers),
    ).toHaveLength(8);
  });

  it('includeQuizzes=all tells a teacher nothing of the sessions of others', async () => {
    // d played Q8 only in V's S4 (8 good of 8): in T's detailed results d's Q8 is a zero, like
    // e's (who never played it), and the real attempt is not shown.
    const ofT = await results('T', {
      includeQuizzes: 'all',
      resultTypes: 'nbGoodAnswers,nbAnswers',
    });
    const onQ8 = (u: string) =>
      ofT.items
        .filter((item) => item.userId === user(u) && item.quizId === quizId('Q8'))
        .map(({ sessionId, nbGoodAnswers, nbAnswers }) => ({
          sessionId,
          nbGoodAnswers,
          nbAnswers,
        }));
    expect(onQ8('d')).toEqual([{ sessionId: null, nbGoodAnswers: 0, nbAnswers: 0 }]);
    expect(onQ8('d')).toEqual(onQ8('e'));
    expect(ofT.items.some((item) => item.sessionId === session('S4'))).toBe(false);
    // Restricted to S4, a session T does not own, T sees no attempt: a zero for every pair.
    const inS4 = await results('T', {
      includeQuizzes: 'all',
      sessionId: session('S4'),
      resultTypes: 'nbGoodAnswers',
    });
    expect(inS4.items).toHaveLength(7 * 6);
    expect(inS4.items.every((item) => item.sessionId === null && item.nbGoodAnswers === 0)).toBe(
      true,
    );
    // V, who owns S4, sees d's Q8 attempt there and no zero for it.
    const ofV = await results('V', { includeQuizzes: 'all', resultTypes: 'nbGoodAnswers' });
    expect(
      ofV.items
        .filter((item) => item.userId === user('d') && item.quizId === quizId('Q8'))
        .map((item) => [item.sessionId, item.nbGoodAnswers]),
    ).toEqual([[session('S4'), 8]]);
  });

  it('pages results in (userId, quizId, sessionId) order over several pages', async () => {
    const { first, items } = await results('T', {
      numberOfItemsPerPage: 4,
      resultTypes: 'nbAnswers',
    });
    expect(first).toMatchObject({ numberOfItemsPerPage: 4, currentPageIndex: 1 });
    expect(first.numberOfPages).toBe(Math.ceil(first.totalNumberOfItems / 4));
    expect(first.numberOfPages).toBeGreaterThan(3);
    expect(items.map((item) => item.id)).toEqual(items.map((_item, index) => String(index + 1)));
    const keys = items.map((item) => [
      Number(item.userId),
      Number(item.quizId),
      Number(item.sessionId),
    ]);
    const sorted = [...keys].sort((p, q) => p[0] - q[0] || p[1] - q[1] || p[2] - q[2]);
    expect(keys).toEqual(sorted);
    // The set keeps its parameters: a later page is shaped like the first.
    const last = await page('getDataSetPage', 'T', {
      dataSetId: first.dataSetId,
      pageIndex: first.numberOfPages,
    });
    expect(Object.keys(last.items[0])).toEqual([
      'id',
      'userId',
      'quizId',
      'sessionId',
      'nbAnswers',
    ]);
    // The set is T's own, and readable by T only.
    const reply = await call('getDataSetPage', 'V', { dataSetId: first.dataSetId });
    expect(reply.status).toBe(403);
  });

  it('refuses bad requests with the contract errors', async () => {
    const own = sets.T;
    const cases: [Requester, Record<string, string | number>, number, string, string?][] = [
      ['T', { quizSetId: own.quizSetId }, 400, 'MissingParameterException', 'userSetId'],
      ['T', { userSetId: own.userSetId }, 400, 'MissingParameterException', 'quizSetId'],
      ['T', { ...own, userSetId: 2_000_000_000 }, 404, 'BadParameterException', 'userSetId'],
      ['T', { ...own, quizSetId: 2_000_000_000 }, 404, 'BadParameterException', 'quizSetId'],
      ['T', { ...own, userSetId: 'abc' }, 400, 'BadParameterException', 'userSetId'],
      // A set of the wrong item type.
      ['T', { ...own, userSetId: own.quizSetId }, 400, 'BadParameterException', 'userSetId'],
      ['T', { ...own, quizSetId: own.userSetId }, 400, 'BadParameterException', 'quizSetId'],
      // Another requester's sets.
      ['V', { ...own }, 403, 'UnauthorizedOperationException'],
      [
        'anonymous',
        { ...own, aggregationFunctions: 'min', groupBy: 'user' },
        401,
        'UnauthorizedOperationException',
      ],
      ['T', { ...sets.anonymous }, 403, 'UnauthorizedOperationException'],
      [
        'T',
        { ...own, aggregationFunctions: 'average' },
        400,
        'MissingParameterException',
        'groupBy',
      ],
      ['T', { ...own, groupBy: 'user' }, 400, 'BadParameterException', 'groupBy'],
      [
        'T',
        { ...own, aggregationFunctions: 'min', groupBy: 'session' },
        400,
        'BadParameterException',
        'groupBy',
      ],
      [
        'T',
        { ...own, resultTypes: 'nbGoodAnswers,score' },
        400,
        'BadParameterException',
        'resultTypes',
      ],
      ['T', { ...own, resultTypes: 'nbGoodAnswers,' }, 400, 'BadParameterException', 'resultTypes'],
      [
        'T',
        { ...own, aggregationFunctions: 'mode', groupBy: 'user' },
        400,
        'BadParameterException',
        'aggregationFunctions',
      ],
      ['T', { ...own, includeQuizzes: 'some' }, 400, 'BadParameterException', 'includeQuizzes'],
      ['T', { ...own, sessionId: 'x' }, 400, 'BadParameterException', 'sessionId'],
      ['T', { ...own, sessionIds: '1,,2' }, 400, 'BadParameterException', 'sessionIds'],
      [
        'T',
        { ...own, sessionIds: '1', sessionId: '2' },
        400,
        'BadParameterException',
        'sessionIds',
      ],
      [
        'T',
        { ...own, numberOfItemsPerPage: 0 },
        400,
        'BadParameterException',
        'numberOfItemsPerPage',
      ],
      // Detailed results need a token.
      ['anonymous', { ...sets.anonymous }, 401, 'UnauthorizedOperationException'],
    ];
    const before = await dataSource.getRepository(DataSet).count();
    for (const [requester, params, status, type, parameterName] of cases) {
      const reply = await call('getResults', requester, params);
      expectError(reply, status, type, parameterName);
    }
    // A refused request makes no set.
    expect(await dataSource.getRepository(DataSet).count()).toBe(before);
    // A repeated parameter is refused.
    const res = await app.get(
      `/getResults?${who.T}&userSetId=${own.userSetId}&quizSetId=${own.quizSetId}&resultTypes=percentile&resultTypes=duration`,
    );
    expectError(
      { status: res.status, body: (await res.json()) as Record<string, unknown> },
      400,
      'BadParameterException',
      'resultTypes',
    );
    // An anonymous requester may aggregate its own sets.
    expect(
      (
        await call('getResults', 'anonymous', {
          ...sets.anonymous,
          aggregationFunctions: 'min',
          groupBy: 'quiz',
        })
      ).status,
    ).toBe(200);
  });

  if (backend === 'MariaDB') {
    it('reads answers through an index for a user set of 100 among 2,000 users (EXPLAIN)', async () => {
      const opened = await openTestDatabase('results_explain');
      try {
        const generated = generateData({
          users: 2000,
          quizzes: 30,
          questions: 5,
          sessions: 60,
          participation: 0.05,
          seed: 7,
        });
        await loadData(opened.dataSource, generated.source);
        // Sets made directly: the plan, not the HTTP path, is under test here.
        const makeSet = async (itemType: 'user' | 'quiz', select: string) => {
          const set = await opened.dataSource.getRepository(DataSet).save({
            itemType,
            ownerUserId: null,
            ownerApiKeyId: null,
            totalNumberOfItems: 0,
            numberOfItemsPerPage: 50,
            parameters: null,
            expiresAt: new Date(Date.now() + 3600_000),
          });
          await opened.dataSource.query(
            `INSERT INTO data_set_items (data_set_id, position, item_id)
             SELECT ?, ROW_NUMBER() OVER (ORDER BY m.id), m.id FROM (${select}) m`,
            [set.id],
          );
          return set.id;
        };
        const userSetId = await makeSet(
          'user',
          'SELECT id FROM users ORDER BY id LIMIT 100 OFFSET 500',
        );
        const quizSetId = await makeSet('quiz', 'SELECT id FROM quizzes');
        await opened.dataSource.query('ANALYZE TABLE answers, data_set_items');
        // Detailed results of a teacher too: their zeros probe the answers with the scope.
        const cases: [string | undefined, AttemptScope][] = [
          [undefined, { kind: 'all' }],
          [undefined, { kind: 'ownedSessionsOrSelf', userId: 1 }],
          ['average', { kind: 'all' }],
          ['average', { kind: 'ownedSessionsOrSelf', userId: 1 }],
        ];
        for (const [aggregationFunctions, scope] of cases) {
          const request = parseResultsRequest('getResults', {
            userSetId,
            quizSetId,
            resultTypes: 'nbGoodAnswers,percentile,duration',
            aggregationFunctions,
            groupBy: aggregationFunctions ? 'user' : undefined,
            includeQuizzes: 'all',
          });
          const query = resultsQuery(request, dialectNamed('mysql'), scope);
          const { sql, params } = membersInsert('computedResult', 0, query);
          const plan = (await opened.dataSource.query(`EXPLAIN ${sql}`, params)) as {
            table: string | null;
            type: string | null;
            key: string | null;
          }[];
          const answers = plan.filter((row) => row.table === 'a');
          expect(answers.length).toBeGreaterThan(0);
          for (const row of answers) {
            expect(row.type).not.toBe('ALL');
            expect(['ix_answers_user_quiz', 'ix_answers_quiz_user']).toContain(row.key);
          }
        }
      } finally {
        await opened.close();
      }
    });
  }
});

import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type {
  IdMap,
  ImportAnswer,
  ImportDocument,
  ImportQuiz,
  ImportSession,
} from '../../src/data/import/import-document';
import { Answer, Quiz, Session } from '../../src/db/entities';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend } from '../helpers/database';
import { ties } from '../helpers/exact-fractions';
import {
  FUNCTIONS,
  RESULT_TYPES,
  referenceAggregated,
  referenceDetailed,
  seenBy,
  seesAll,
  type Facts,
  type Fn,
  type Item,
  type Request,
  type ResultType,
  type Sees,
} from '../helpers/results-reference';

/**
 * getResults against the reference of test/helpers/results-reference.ts, written from the words
 * of contract.md §7 in exact rational arithmetic (BigInt), over random classrooms: every result type, every aggregation
 * function (and none), both groupings, both includeQuizzes, and no / one / two sessions; for
 * requesters of every kind, aggregates over the requester scope (and over every attempt under
 * LEGACY_OPEN_READS), surveys without a score. The reference reads the raw answers back from
 * the database, never anything computed by SQL.
 */

// ---------------------------------------------------------------------------------------------
// Random classrooms in the import format

/** mulberry32: a small seeded generator, so every run of a seed loads the same data. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PUPILS = 12;
const QUESTION_COUNTS = [1, 2, 3, 5, 8, 16, 25, 32, 40];

/**
 * Teachers T1 (owns S0..S3) and T2 (owns S4, attends S0 and S1 and answers there); pupils
 * p0..p11. The group "Oracle <seed>" (owned by T1) holds T2 and p0..p9 — p9 never attends, p10
 * and p11 answer but stay outside. Quizzes k0..k4 are tagged `in<seed>` (k3 is a survey, k4 is
 * never played), k5 is tagged `out<seed>` and played. An attendee makes an attempt on a played
 * quiz with probability 0.55, answering 1..n of its questions at random times.
 */
function classroom(seed: number): ImportDocument {
  const next = random(seed);
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pupils = Array.from({ length: PUPILS }, (_, i) => `p${i}`);
  const quizzes: ImportQuiz[] = Array.from({ length: 6 }, (_, i) => {
    const survey = i === 3;
    // 32 and 25 questions make 2-decimal ties that doubles store below the half: an average of
    // five percentages with an odd number of good answers out of 32 is p/40 (e.g. 107/40 = 2.675).
    const count =
      i === 0 ? 32 : i === 1 ? 25 : (QUESTION_COUNTS[int(0, QUESTION_COUNTS.length - 1)] as number);
    return {
      ref: `k${i}`,
      author: 'T1',
      title: `Oracle quiz ${seed}-${i}`,
      visibility: 'public',
      survey,
      tags: [i === 5 ? `out${seed}` : `in${seed}`, 'oracle'],
      questions: Array.from({ length: count }, (_q, position) => ({
        title: `Statement ${position + 1}`,
        type: 'TrueFalse',
        ...(survey ? {} : { goodAnswer: next() < 0.5 }),
      })),
    };
  });
  const played = ['k0', 'k1', 'k2', 'k3', 'k5'];
  const sessions: ImportSession[] = Array.from({ length: 5 }, (_, i) => ({
    ref: `S${i}`,
    owner: i === 4 ? 'T2' : 'T1',
    title: `Oracle session ${seed}-${i}`,
    startDate: `2026-11-${String(i + 2).padStart(2, '0')} 08:00:00`,
    quizzes: played,
    attendees: [
      ...pupils.filter((ref) => ref !== 'p9' && next() < 0.75),
      ...(i <= 1 ? ['T2'] : []),
    ].map((user) => ({ user })),
  }));
  const skill = new Map(pupils.concat('T2').map((ref) => [ref, 0.2 + 0.6 * next()]));
  const answers: ImportAnswer[] = [];
  for (const session of sessions) {
    const start = Date.parse(`${session.startDate.replace(' ', 'T')}Z`);
    for (const { user } of session.attendees ?? []) {
      for (const quizRef of played) {
        if (next() >= 0.55) continue;
        const quiz = quizzes.find((q) => q.ref === quizRef) as ImportQuiz;
        const questions = quiz.questions ?? [];
        const positions = questions.map((_q, position) => position).sort(() => next() - 0.5);
        let time = start + int(0, 600) * 1000;
        for (const position of positions.slice(0, int(1, questions.length))) {
          time += int(1, 120) * 1000;
          const good = questions[position]?.goodAnswer;
          const right = next() < (skill.get(user) as number);
          answers.push({
            session: session.ref,
            user,
            quiz: quizRef,
            question: position,
            answer: typeof good === 'boolean' ? (right ? good : !good) : next() < 0.5,
            answeredAt: new Date(time).toISOString().slice(0, 19).replace('T', ' '),
          });
        }
      }
    }
  }
  return {
    users: ['T1', 'T2', ...pupils].map((ref) => ({
      ref,
      email: `${ref.toLowerCase()}.${seed}@oracle.example`,
      firstName: ref,
      lastName: `Oracle ${seed}`,
    })),
    groups: [
      {
        ref: 'class',
        name: `Oracle ${seed}`,
        owner: 'T1',
        members: ['T2', ...pupils.slice(0, 10)],
      },
    ],
    quizzes,
    sessions,
    answers,
  };
}

// ---------------------------------------------------------------------------------------------
// The comparison, on each backend

interface Page {
  dataSetId: string;
  numberOfPages: number;
  totalNumberOfItems: number;
  items: Item[];
}

type Requester = 'anonymous' | 'T1' | 'T2' | 'p0';

interface Loaded {
  ids: IdMap;
  who: Record<Requester, string>;
  /** Members of each requester's user and quiz sets, read back from the sets. */
  sets: Record<
    Requester,
    { userSetId: string; quizSetId: string; users: number[]; quizzes: number[] }
  >;
  facts: Facts;
  sessions: number[];
}

const SEEDS = [11, 23, 37];

/** Which answers count: all sessions, one (sessionId), two (sessionIds). */
type SessionFilter = 'none' | 'one' | 'two';
const SESSION_FILTERS: SessionFilter[] = ['none', 'one', 'two'];

interface Aggregation {
  functions: Fn[];
  groupBy: 'user' | 'quiz';
}

/** No aggregation (detailed), each function alone, and all of them at once; both groupings. */
const AGGREGATIONS: (Aggregation | null)[] = [
  null,
  ...(['user', 'quiz'] as const).flatMap((groupBy) => [
    ...FUNCTIONS.map((fn) => ({ functions: [fn], groupBy })),
    { functions: [...FUNCTIONS].reverse(), groupBy },
  ]),
];

describe.each(BACKENDS)('getResults matches the reference on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  /** The same database served with LEGACY_OPEN_READS=true. */
  let legacyApp: TestApp;
  const loaded = new Map<number, Loaded>();
  let compared = 0;

  async function getJson(path: string, server = app): Promise<{ status: number; body: unknown }> {
    const res = await server.get(path);
    return { status: res.status, body: await res.json() };
  }

  async function page(
    credentials: string,
    operation: string,
    params: Record<string, string | number>,
    server = app,
  ): Promise<Page> {
    const query = new URLSearchParams(
      Object.entries(params).map(([name, value]) => [name, String(value)]),
    );
    const reply = await getJson(`/${operation}?${credentials}&${query.toString()}`, server);
    expect({
      operation,
      params,
      status: reply.status,
      body: reply.status === 200 ? 'ok' : reply.body,
    }).toEqual({
      operation,
      params,
      status: 200,
      body: 'ok',
    });
    return reply.body as Page;
  }

  /** Every item of a set made by `operation`, page after page through getDataSetPage. */
  async function allItems(
    credentials: string,
    operation: string,
    params: Record<string, string | number>,
    server = app,
  ): Promise<Item[]> {
    const first = await page(credentials, operation, params, server);
    const items = [...first.items];
    for (let pageIndex = 2; pageIndex <= first.numberOfPages; pageIndex += 1) {
      const next = { dataSetId: first.dataSetId, pageIndex };
      items.push(...(await page(credentials, 'getDataSetPage', next, server)).items);
    }
    expect(items).toHaveLength(first.totalNumberOfItems);
    return items;
  }

  async function load(seed: number): Promise<Loaded> {
    const ids = await loadData(dataSource, classroom(seed));
    const key = await createTestApiKey(dataSource, 'localhost');
    const who = { anonymous: `apiKey=${key.secret}` } as Record<Requester, string>;
    for (const ref of ['T1', 'T2', 'p0'] as const) {
      who[ref] =
        `apiKey=${key.secret}&accessToken=${await createTestToken(dataSource, Number(ids.users[ref]), key.id)}`;
    }
    const sets = {} as Loaded['sets'];
    const members = async (requester: Requester, dataSetId: string) =>
      (await allItems(who[requester], 'getDataSetPage', { dataSetId })).map((item) =>
        Number(item.id),
      );
    for (const requester of ['T1', 'T2', 'p0'] as const) {
      const groups = await page(who[requester], 'getUserGroupSet', { search: `Oracle ${seed}` });
      const users = await page(who[requester], 'getUserSet', { userGroupSetId: groups.dataSetId });
      const quizzes = await page(who[requester], 'getQuizSet', { tag: `in${seed}` });
      sets[requester] = {
        userSetId: users.dataSetId,
        quizSetId: quizzes.dataSetId,
        users: await members(requester, users.dataSetId),
        quizzes: await members(requester, quizzes.dataSetId),
      };
    }
    // Anonymous requesters list no groups nor attendance: their user set is the class and p10
    // (who answers outside it), one user at a time.
    let users = await page(who.anonymous, 'getUserSet', { userId: ids.users.p10 });
    for (const userId of sets.T1.users) {
      const one = await page(who.anonymous, 'getUserSet', { userId });
      users = await page(who.anonymous, 'computeDataSet', {
        dataSetId1: users.dataSetId,
        dataSetId2: one.dataSetId,
        operator: 'union',
      });
    }
    const quizzes = await page(who.anonymous, 'getQuizSet', { tag: `in${seed}` });
    sets.anonymous = {
      userSetId: users.dataSetId,
      quizSetId: quizzes.dataSetId,
      users: await members('anonymous', users.dataSetId),
      quizzes: await members('anonymous', quizzes.dataSetId),
    };
    expect(sets.T1.users).toHaveLength(11);
    expect(sets.T1.quizzes).toHaveLength(5);

    const quizIds = Object.values(ids.quizzes).map(Number);
    const sessionIds = Object.values(ids.sessions).map(Number);
    // Raw rows only: what the reference computes from.
    const answers = (await dataSource.getRepository(Answer).find()).filter((answer) =>
      quizIds.includes(answer.quizId),
    );
    const quizRows = await dataSource.getRepository(Quiz).find();
    const facts: Facts = {
      answers: answers.map((answer) => ({
        userId: answer.userId,
        quizId: answer.quizId,
        sessionId: answer.sessionId,
        good: answer.good,
        at: answer.answeredAt.getTime(),
      })),
      nbQuestions: new Map(quizRows.map((quiz) => [quiz.id, quiz.nbQuestions])),
      surveys: new Set(quizRows.filter((quiz) => quiz.survey).map((quiz) => quiz.id)),
      sessionOwner: new Map(
        (await dataSource.getRepository(Session).find()).map((session) => [
          session.id,
          session.ownerId,
        ]),
      ),
    };
    return { ids, who, sets, facts, sessions: sessionIds };
  }

  /**
   * Asks getResults for one combination (of the app with LEGACY_OPEN_READS=true when `legacy`)
   * and compares every item of every page with the reference.
   */
  async function check(
    data: Loaded,
    requester: Requester,
    types: readonly ResultType[],
    aggregation: Aggregation | null,
    includeAll: boolean,
    filter: SessionFilter,
    pageSize: number,
    legacy = false,
  ): Promise<void> {
    const set = data.sets[requester];
    const { S1, S2, S4 } = data.ids.sessions;
    const sessions =
      filter === 'none' ? null : filter === 'one' ? [Number(S2)] : [Number(S1), Number(S4)];
    const params: Record<string, string | number> = {
      userSetId: set.userSetId,
      quizSetId: set.quizSetId,
      resultTypes: types.join(','),
      numberOfItemsPerPage: pageSize,
    };
    if (includeAll) params.includeQuizzes = 'all';
    else if (pageSize % 2 === 0) params.includeQuizzes = 'answered';
    if (filter === 'one') params.sessionId = String(S2);
    if (filter === 'two') params.sessionIds = `${S4},${S1}`;
    if (aggregation) {
      params.aggregationFunctions = aggregation.functions.join(',');
      params.groupBy = aggregation.groupBy;
    }
    const request: Request = { users: set.users, quizzes: set.quizzes, sessions, includeAll };
    const requesterId = Number(data.ids.users[requester]);
    const scope = legacy
      ? seesAll
      : requester === 'anonymous'
        ? null
        : seenBy(data.facts, requesterId);
    const expected = aggregation
      ? referenceAggregated(
          data.facts,
          request,
          types,
          aggregation.functions,
          aggregation.groupBy,
          scope,
        )
      : referenceDetailed(data.facts, request, types, requesterId);
    const server = legacy ? legacyApp : app;
    const actual = await allItems(data.who[requester], 'getResults', params, server);
    expect({ requester, legacy, params, items: actual }).toEqual({
      requester,
      legacy,
      params,
      items: expected,
    });
    compared += 1;
  }

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'results_oracle'));
    app = await startTestApp(dataSource);
    legacyApp = await startTestApp(dataSource, { LEGACY_OPEN_READS: 'true' });
    for (const seed of SEEDS) loaded.set(seed, await load(seed));
  });

  afterAll(async () => {
    await legacyApp?.close();
    await app?.close();
    await close?.();
  });

  it.each(SEEDS)(
    'seed %i: every aggregation × grouping × includeQuizzes × session filter, all result types',
    async (seed) => {
      const data = loaded.get(seed) as Loaded;
      const shuffle = random(seed * 7);
      const before = compared;
      for (const aggregation of AGGREGATIONS) {
        for (const includeAll of [false, true]) {
          for (const filter of SESSION_FILTERS) {
            // All five types, in an order of the seed's choosing: the answer follows it.
            const types = [...RESULT_TYPES].sort(() => shuffle() - 0.5);
            await check(
              data,
              'T1',
              types,
              aggregation,
              includeAll,
              filter,
              shuffle() < 0.5 ? 7 : 40,
            );
          }
        }
      }
      expect(compared - before).toBe(AGGREGATIONS.length * 2 * SESSION_FILTERS.length);
    },
  );

  it('each result type alone, for every aggregation × includeQuizzes × session filter', async () => {
    const data = loaded.get(SEEDS[0]) as Loaded;
    for (const type of RESULT_TYPES) {
      for (const aggregation of AGGREGATIONS) {
        for (const includeAll of [false, true]) {
          for (const filter of SESSION_FILTERS) {
            await check(data, 'T1', [type], aggregation, includeAll, filter, 1000);
          }
        }
      }
    }
  });

  it.each(SEEDS)(
    'seed %i: detailed results of a teacher owning some sessions and of a pupil show only theirs',
    async (seed) => {
      const data = loaded.get(seed) as Loaded;
      for (const requester of ['T2', 'p0'] as const) {
        for (const includeAll of [false, true]) {
          for (const filter of SESSION_FILTERS) {
            await check(data, requester, RESULT_TYPES, null, includeAll, filter, 1000);
          }
        }
      }
      // T2 answered in T1's sessions and owns S4: both kinds of rows are there.
      const ofT2 = referenceDetailed(
        data.facts,
        {
          users: data.sets.T2.users,
          quizzes: data.sets.T2.quizzes,
          sessions: null,
          includeAll: false,
        },
        ['nbGoodAnswers'],
        Number(data.ids.users.T2),
      );
      expect(ofT2.some((item) => item.userId === data.ids.users.T2)).toBe(true);
      expect(ofT2.some((item) => item.sessionId === data.ids.sessions.S4)).toBe(true);
      // With includeQuizzes=all, T2 gets zeros for pairs played only in T1's sessions: there the
      // zeros of the requester scope (no visible attempt) differ from legacy aggregates' (no attempt).
      const zerosOfT2 = referenceDetailed(
        data.facts,
        {
          users: data.sets.T2.users,
          quizzes: data.sets.T2.quizzes,
          sessions: null,
          includeAll: true,
        },
        ['nbGoodAnswers'],
        Number(data.ids.users.T2),
      ).filter((item) => item.sessionId === null);
      expect(
        zerosOfT2.some((item) =>
          data.facts.answers.some(
            (answer) =>
              String(answer.userId) === item.userId && String(answer.quizId) === item.quizId,
          ),
        ),
      ).toBe(true);
    },
  );

  it('met exact ties that a double stores below the half (the data tests the rounding)', () => {
    expect(ties.below).toBeGreaterThan(0);
  });

  it.each(SEEDS)(
    'seed %i: aggregated results of an anonymous requester: nothing, or every attempt under LEGACY_OPEN_READS',
    async (seed) => {
      const data = loaded.get(seed) as Loaded;
      for (const legacy of [false, true]) {
        for (const groupBy of ['user', 'quiz'] as const) {
          for (const includeAll of [false, true]) {
            await check(
              data,
              'anonymous',
              RESULT_TYPES,
              { functions: [...FUNCTIONS], groupBy },
              includeAll,
              'none',
              1000,
              legacy,
            );
          }
        }
      }
    },
  );

  it.each(SEEDS)(
    'seed %i: aggregates of a teacher owning some sessions and of a pupil count only their rows',
    async (seed) => {
      const data = loaded.get(seed) as Loaded;
      for (const requester of ['T2', 'p0'] as const) {
        for (const groupBy of ['user', 'quiz'] as const) {
          for (const includeAll of [false, true]) {
            for (const filter of SESSION_FILTERS) {
              const aggregation = { functions: [...FUNCTIONS], groupBy };
              await check(data, requester, RESULT_TYPES, aggregation, includeAll, filter, 1000);
            }
          }
        }
      }
    },
  );

  it.each(SEEDS)(
    'seed %i: LEGACY_OPEN_READS=true counts every attempt in aggregates, and leaves detailed results alone',
    async (seed) => {
      const data = loaded.get(seed) as Loaded;
      for (const requester of ['T1', 'T2', 'p0'] as const) {
        for (const groupBy of ['user', 'quiz'] as const) {
          for (const includeAll of [false, true]) {
            const aggregation = { functions: [...FUNCTIONS], groupBy };
            await check(data, requester, RESULT_TYPES, aggregation, includeAll, 'none', 1000, true);
          }
        }
        await check(data, requester, RESULT_TYPES, null, true, 'none', 1000, true);
      }
    },
  );

  it.each(SEEDS)('seed %i: the data tells the scopes and the surveys apart', (seed) => {
    const data = loaded.get(seed) as Loaded;
    const request = (requester: Requester, includeAll: boolean): Request => ({
      users: data.sets[requester].users,
      quizzes: data.sets[requester].quizzes,
      sessions: null,
      includeAll,
    });
    const byUser = (requester: 'T1' | 'T2', sees: Sees) =>
      referenceAggregated(
        data.facts,
        request(requester, true),
        ['nbGoodAnswers', 'nbAnswers'],
        ['count', 'average'],
        'user',
        sees,
      );
    // The requester scope and the legacy one give different aggregates for both teachers.
    for (const teacher of ['T1', 'T2'] as const) {
      const id = Number(data.ids.users[teacher]);
      expect(byUser(teacher, seenBy(data.facts, id))).not.toEqual(byUser(teacher, seesAll));
    }
    // The survey k3 was played, and its attempts count without a score.
    const k3 = Number(data.ids.quizzes.k3);
    const ofSeed = Object.values(data.ids.quizzes).map(Number);
    expect(ofSeed.filter((quiz) => data.facts.surveys.has(quiz))).toEqual([k3]);
    const onK3 = referenceAggregated(
      data.facts,
      request('T1', false),
      ['nbGoodAnswers', 'percentile', 'nbAnswers'],
      ['count', 'max'],
      'quiz',
      seesAll,
    ).filter((item) => item.quizId === String(k3));
    expect(onK3[0]).toMatchObject({
      aggregationFunction: 'count',
      nbGoodAnswers: expect.any(Number),
    });
    expect(onK3[0].nbGoodAnswers).toBeGreaterThan(0);
    expect(onK3[1]).toMatchObject({ nbGoodAnswers: null, percentile: null });
    expect(onK3[1].nbAnswers).toBeGreaterThan(0);
  });
});

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
import {
  add,
  compare,
  divInt,
  fraction,
  mul,
  round2,
  roundSqrt2,
  sub,
  ties,
  type Fraction,
} from '../helpers/exact-fractions';

/**
 * getResults against a reference written here from the words of contract.md §7, in exact
 * rational arithmetic (BigInt), over random classrooms: every result type, every aggregation
 * function (and none), both groupings, both includeQuizzes, and no / one / two sessions.
 * The reference reads the raw answers back from the database, never anything computed by SQL.
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
// The reference: contract.md §7 in exact arithmetic

const RESULT_TYPES = [
  'nbGoodAnswers',
  'goodAnswersPercent',
  'percentile',
  'nbAnswers',
  'duration',
] as const;
type ResultType = (typeof RESULT_TYPES)[number];
const FUNCTIONS = ['min', 'max', 'average', 'median', 'stddev', 'count'] as const;
type Fn = (typeof FUNCTIONS)[number];

interface RawAnswer {
  userId: number;
  quizId: number;
  sessionId: number;
  good: boolean | null;
  at: number;
}

interface Facts {
  answers: RawAnswer[];
  nbQuestions: Map<number, number>;
  sessionOwner: Map<number, number>;
}

interface Attempt {
  userId: number;
  quizId: number;
  /** null: a zero attempt of includeQuizzes=all. */
  sessionId: number | null;
  values: Record<ResultType, Fraction>;
}

interface Request {
  users: number[];
  quizzes: number[];
  sessions: number[] | null;
  includeAll: boolean;
}

/** Whether a requester may see a real attempt in detail: in a session they own, or their own. */
type Sees = (attempt: { userId: number; sessionId: number | null }) => boolean;

function seenBy(facts: Facts, requesterId: number): Sees {
  return (attempt) =>
    attempt.userId === requesterId ||
    (attempt.sessionId !== null && facts.sessionOwner.get(attempt.sessionId) === requesterId);
}

/**
 * Every attempt of the request, each with its five values (contract §7 definitions): every real
 * attempt, seen or not, and with includeAll a zero for each (user, quiz) pair of the two sets
 * with no attempt the requester `sees` — detailed results: no visible attempt; aggregated
 * results (`sees` every attempt): no attempt at all.
 */
function referenceAttempts(facts: Facts, request: Request, sees: Sees = () => true): Attempt[] {
  const users = new Set(request.users);
  const quizzes = new Set(request.quizzes);
  const groups = new Map<string, RawAnswer[]>();
  for (const answer of facts.answers) {
    if (!users.has(answer.userId) || !quizzes.has(answer.quizId)) continue;
    if (request.sessions && !request.sessions.includes(answer.sessionId)) continue;
    const key = `${answer.userId}/${answer.quizId}/${answer.sessionId}`;
    groups.set(key, [...(groups.get(key) ?? []), answer]);
  }
  const raw = [...groups.values()].map((answers) => {
    const times = answers.map((answer) => answer.at);
    return {
      userId: answers[0].userId,
      quizId: answers[0].quizId,
      sessionId: answers[0].sessionId as number | null,
      good: answers.filter((answer) => answer.good === true).length,
      count: answers.length,
      seconds: (Math.max(...times) - Math.min(...times)) / 1000,
    };
  });
  const real = [...raw];
  if (request.includeAll) {
    for (const userId of request.users) {
      for (const quizId of request.quizzes) {
        if (!real.some((a) => a.userId === userId && a.quizId === quizId && sees(a))) {
          raw.push({ userId, quizId, sessionId: null, good: 0, count: 0, seconds: 0 });
        }
      }
    }
  }
  return raw.map((attempt) => {
    const onQuiz = raw.filter((other) => other.quizId === attempt.quizId);
    const below = onQuiz.filter((other) => other.good < attempt.good).length;
    const same = onQuiz.filter((other) => other.good === attempt.good).length;
    const questions = facts.nbQuestions.get(attempt.quizId) as number;
    return {
      userId: attempt.userId,
      quizId: attempt.quizId,
      sessionId: attempt.sessionId,
      values: {
        nbGoodAnswers: fraction(BigInt(attempt.good)),
        goodAnswersPercent:
          questions > 0 ? fraction(100n * BigInt(attempt.good), BigInt(questions)) : fraction(0n),
        percentile: fraction(100n * BigInt(2 * below + same), BigInt(2 * onQuiz.length)),
        nbAnswers: fraction(BigInt(attempt.count)),
        duration: fraction(BigInt(Math.round(attempt.seconds))),
      },
    };
  });
}

/** One aggregation function over values, rounded; null on nothing (count: 0). */
function aggregate(fn: Fn, values: Fraction[]): number | null {
  if (fn === 'count') return values.length;
  if (values.length === 0) return null;
  const sorted = [...values].sort(compare);
  const sum = values.reduce(add, fraction(0n));
  const mean = divInt(sum, values.length);
  switch (fn) {
    case 'min':
      return round2(sorted[0]);
    case 'max':
      return round2(sorted[sorted.length - 1]);
    case 'average':
      return round2(mean);
    case 'median': {
      const middle = Math.floor((sorted.length - 1) / 2);
      return sorted.length % 2 === 1
        ? round2(sorted[middle])
        : round2(divInt(add(sorted[middle], sorted[middle + 1]), 2));
    }
    case 'stddev': {
      const squares = values.map((value) => mul(sub(value, mean), sub(value, mean)));
      return roundSqrt2(divInt(squares.reduce(add, fraction(0n)), values.length));
    }
  }
}

type Item = Record<string, string | number | null>;

/**
 * Detailed items the requester may see: its sessions' attempts, its own, and every zero (each
 * stands for a pair without a visible attempt).
 */
function referenceDetailed(
  facts: Facts,
  request: Request,
  types: readonly ResultType[],
  requesterId: number,
): Item[] {
  const sees = seenBy(facts, requesterId);
  const visible = referenceAttempts(facts, request, sees).filter(
    (attempt) => attempt.sessionId === null || sees(attempt),
  );
  visible.sort(
    (a, b) => a.userId - b.userId || a.quizId - b.quizId || (a.sessionId ?? 0) - (b.sessionId ?? 0),
  );
  return visible.map((attempt, index) => ({
    id: String(index + 1),
    userId: String(attempt.userId),
    quizId: String(attempt.quizId),
    sessionId: attempt.sessionId === null ? null : String(attempt.sessionId),
    ...Object.fromEntries(types.map((type) => [type, round2(attempt.values[type])])),
  }));
}

/** One item per (member of the grouping set, function), in member then function order. */
function referenceAggregated(
  facts: Facts,
  request: Request,
  types: readonly ResultType[],
  functions: readonly Fn[],
  groupBy: 'user' | 'quiz',
): Item[] {
  const attempts = referenceAttempts(facts, request);
  const members = [...(groupBy === 'user' ? request.users : request.quizzes)].sort((a, b) => a - b);
  const items: Item[] = [];
  for (const member of members) {
    const own = attempts.filter(
      (attempt) => (groupBy === 'user' ? attempt.userId : attempt.quizId) === member,
    );
    for (const fn of functions) {
      items.push({
        id: String(items.length + 1),
        [groupBy === 'user' ? 'userId' : 'quizId']: String(member),
        aggregationFunction: fn,
        ...Object.fromEntries(
          types.map((type) => [
            type,
            aggregate(
              fn,
              own.map((attempt) => attempt.values[type]),
            ),
          ]),
        ),
      });
    }
  }
  return items;
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
  const loaded = new Map<number, Loaded>();
  let compared = 0;

  async function getJson(path: string): Promise<{ status: number; body: unknown }> {
    const res = await app.get(path);
    return { status: res.status, body: await res.json() };
  }

  async function page(
    credentials: string,
    operation: string,
    params: Record<string, string | number>,
  ): Promise<Page> {
    const query = new URLSearchParams(
      Object.entries(params).map(([name, value]) => [name, String(value)]),
    );
    const reply = await getJson(`/${operation}?${credentials}&${query.toString()}`);
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
  ): Promise<Item[]> {
    const first = await page(credentials, operation, params);
    const items = [...first.items];
    for (let pageIndex = 2; pageIndex <= first.numberOfPages; pageIndex += 1) {
      items.push(
        ...(await page(credentials, 'getDataSetPage', { dataSetId: first.dataSetId, pageIndex }))
          .items,
      );
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
    // Anonymous requesters list no groups: their user set is the attendees of S0.
    const users = await page(who.anonymous, 'getUserSet', { sessionId: ids.sessions.S0 });
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
    const facts: Facts = {
      answers: answers.map((answer) => ({
        userId: answer.userId,
        quizId: answer.quizId,
        sessionId: answer.sessionId,
        good: answer.good,
        at: answer.answeredAt.getTime(),
      })),
      nbQuestions: new Map(
        (await dataSource.getRepository(Quiz).find()).map((quiz) => [quiz.id, quiz.nbQuestions]),
      ),
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
   * Asks getResults for one combination and compares every item of every page with the
   * reference; `label` names the combination in a failure.
   */
  async function check(
    data: Loaded,
    requester: Requester,
    types: readonly ResultType[],
    aggregation: Aggregation | null,
    includeAll: boolean,
    filter: SessionFilter,
    pageSize: number,
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
    const expected = aggregation
      ? referenceAggregated(data.facts, request, types, aggregation.functions, aggregation.groupBy)
      : referenceDetailed(data.facts, request, types, Number(data.ids.users[requester]));
    const actual = await allItems(data.who[requester], 'getResults', params);
    expect({ requester, params, items: actual }).toEqual({ requester, params, items: expected });
    compared += 1;
  }

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'results_oracle'));
    app = await startTestApp(dataSource);
    for (const seed of SEEDS) loaded.set(seed, await load(seed));
  });

  afterAll(async () => {
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
      // zeros of detailed results (no visible attempt) differ from aggregated ones (no attempt).
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

  it.each(SEEDS)('seed %i: aggregated results of an anonymous requester', async (seed) => {
    const data = loaded.get(seed) as Loaded;
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
        );
      }
    }
  });
});

import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap, ImportAnswer, ImportDocument } from '../../src/data/import/import-document';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend } from '../helpers/database';
import { add, compare, divInt, fraction, round2, type Fraction } from '../helpers/exact-fractions';
import { graphql } from '../helpers/graphql';

/**
 * Aggregates over the requester scope, surveys without a score, and survey choice counts kept
 * from small groups (contract.md §7, §12, §14.1), on REST and GraphQL.
 *
 * Teachers T (owns S1, S2) and V (owns S3); pupils p1..p6, all in T's group. Quiz Qz: 5 true or
 * false questions (good: true); Sv "End of term feedback": a survey (one choice of 3, one true
 * or false).
 * - S1 (T): Qz: p1 5/5, p2 3/5, p3 1/5, p4 0/2; Sv: p1..p5 choose 0, 1, 0, 2, 0.
 * - S2 (T): Qz: p2 5/5.
 * - S3 (V): Qz: p1 0/5, p2 2/5 — T must not count them; V and the legacy reads do.
 */

const TF = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    title: `Fact ${i + 1}`,
    type: 'TrueFalse',
    goodAnswer: true,
  }));

const PUPILS = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'];
const DAY: Record<string, string> = { S1: '2026-12-01', S2: '2026-12-02', S3: '2026-12-03' };

/** `good` right answers then `wrong` ones to Qz, 20 s apart. */
function onQuiz(session: string, user: string, good: number, wrong: number): ImportAnswer[] {
  return Array.from({ length: good + wrong }, (_, question) => ({
    session,
    user,
    quiz: 'Qz',
    question,
    answer: question < good,
    answeredAt: `${DAY[session]} 10:0${question}:${question % 2 ? '20' : '00'}`,
  }));
}

function onSurvey(user: string, choice: number): ImportAnswer[] {
  return [choice, choice !== 1].map((answer, question) => ({
    session: 'S1',
    user,
    quiz: 'Sv',
    question,
    answer,
    answeredAt: `${DAY.S1} 11:0${question}:30`,
  }));
}

const DOCUMENT: ImportDocument = {
  users: ['T', 'V', ...PUPILS].map((ref) => ({
    ref,
    email: `${ref.toLowerCase()}@privacy-results.example`,
    firstName: ref,
    lastName: 'Privacy',
  })),
  groups: [{ ref: 'g', name: 'Privacy class', owner: 'T', members: PUPILS }],
  quizzes: [
    {
      ref: 'Qz',
      author: 'T',
      title: 'Privacy quiz',
      visibility: 'public',
      survey: false,
      tags: ['privacy-results', 'scored'],
      questions: TF(5),
    },
    {
      ref: 'Sv',
      author: 'T',
      title: 'End of term feedback',
      visibility: 'public',
      survey: true,
      tags: ['privacy-results', 'survey'],
      questions: [
        {
          title: 'Did you like it?',
          type: 'MultipleChoicesOneGoodAnswer',
          propositions: ['Yes', 'No', 'Maybe'],
        },
        { title: 'Again next year?', type: 'TrueFalse' },
      ],
    },
  ],
  sessions: [
    { ref: 'S1', owner: 'T', quizzes: ['Qz', 'Sv'], users: PUPILS },
    { ref: 'S2', owner: 'T', quizzes: ['Qz'], users: ['p1', 'p2', 'p3'] },
    { ref: 'S3', owner: 'V', quizzes: ['Qz'], users: ['p1', 'p2'] },
  ].map(({ users, ref, ...session }) => ({
    ...session,
    ref,
    title: `Privacy ${ref}`,
    startDate: `${DAY[ref]} 09:00:00`,
    attendees: users.map((user) => ({ user })),
  })),
  answers: [
    ...onQuiz('S1', 'p1', 5, 0),
    ...onQuiz('S1', 'p2', 3, 2),
    ...onQuiz('S1', 'p3', 1, 4),
    ...onQuiz('S1', 'p4', 0, 2),
    ...onQuiz('S2', 'p2', 5, 0),
    ...onQuiz('S3', 'p1', 0, 5),
    ...onQuiz('S3', 'p2', 2, 3),
    ...[0, 1, 0, 2, 0].flatMap((choice, i) => onSurvey(`p${i + 1}`, choice)),
  ],
};

type Item = Record<string, unknown>;
const TYPES = ['nbGoodAnswers', 'goodAnswersPercent', 'percentile', 'nbAnswers', 'duration'];
const FUNCTIONS = ['count', 'min', 'max', 'average', 'median'] as const;
/** Types whose detailed values are whole numbers, so any function of them is exact here. */
const WHOLE = new Set(['nbGoodAnswers', 'nbAnswers', 'duration']);

/**
 * The aggregates of detailed rows, written here from contract §7: count counts the rows; the
 * others ignore nulls, null on nothing. Rounded values aggregate exactly only by min, max and
 * count, so those are the only functions computed for the other types.
 */
function aggregateOf(rows: Item[], type: string, fn: (typeof FUNCTIONS)[number]): number | null {
  if (fn === 'count') return rows.length;
  const values = rows.map((row) => row[type]).filter((v): v is number => typeof v === 'number');
  if (values.length === 0) return null;
  const exact = values.map((v) => fraction(BigInt(Math.round(v * 100)), 100n)).sort(compare);
  const pick = (f: Fraction) => round2(f);
  if (fn === 'min') return pick(exact[0] as Fraction);
  if (fn === 'max') return pick(exact[exact.length - 1] as Fraction);
  if (fn === 'average') return pick(divInt(exact.reduce(add, fraction(0n)), exact.length));
  const mid = Math.floor((exact.length - 1) / 2);
  return exact.length % 2
    ? pick(exact[mid] as Fraction)
    : pick(divInt(add(exact[mid] as Fraction, exact[mid + 1] as Fraction), 2));
}

describe.each(BACKENDS)('results over the requester scope on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let legacy: TestApp;
  let ids: IdMap;
  const who: Record<string, string> = {};
  /** Each requester's sets: the class, and both quizzes. */
  const sets: Record<string, { userSetId: string; quizSetId: string }> = {};

  async function page(requester: string, path: string, server = app): Promise<Item> {
    const res = await server.get(`${path}&${who[requester]}`);
    const body = (await res.json()) as Item;
    expect({ path, status: res.status, body: res.status === 200 ? 'ok' : body }).toEqual({
      path,
      status: 200,
      body: 'ok',
    });
    return body;
  }

  /** getResults over the requester's sets, every item (one page). */
  async function rest(requester: string, params: Record<string, string>, server = app) {
    const query = new URLSearchParams({
      ...sets[requester],
      numberOfItemsPerPage: '1000',
      ...params,
    });
    return (await page(requester, `/getResults?${query.toString()}`, server)).items as Item[];
  }

  /** The same over GraphQL, items with REST's fields (REST's `id` is GraphQL's `itemId`). */
  async function overGraphql(requester: string, params: Record<string, string>): Promise<Item[]> {
    const list = (name: string) => (params[name] ? params[name].split(',') : null);
    const { status, body } = await graphql(
      app.url,
      `query ($u: ID!, $q: ID!, $t: [ResultType!], $f: [AggregationFunction!], $g: GroupBy, $i: IncludeQuizzes) {
        getResults(userSetId: $u, quizSetId: $q, resultTypes: $t, aggregationFunctions: $f, groupBy: $g, includeQuizzes: $i, numberOfItemsPerPage: 1000) {
          items { ... on ComputedResult { id: itemId userId quizId sessionId aggregationFunction ${TYPES.join(' ')} } }
        }
      }`,
      {
        variables: {
          u: sets[requester].userSetId,
          q: sets[requester].quizSetId,
          t: list('resultTypes'),
          f: list('aggregationFunctions'),
          g: params.groupBy ?? null,
          i: params.includeQuizzes ?? null,
        },
        search: `?${who[requester]}`,
      },
    );
    expect({ status, errors: body.errors }).toEqual({ status: 200, errors: undefined });
    const items = (body.data?.getResults as { items: Item[] }).items;
    // As REST shapes them: the asked types only, no null ids.
    return items.map((item) =>
      Object.fromEntries(Object.entries(item).filter(([k, v]) => v !== null || TYPES.includes(k))),
    );
  }

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'results_privacy'));
    ids = await loadData(dataSource, DOCUMENT);
    const key = await createTestApiKey(dataSource, 'localhost');
    who.anonymous = `apiKey=${key.secret}`;
    for (const ref of ['T', 'V', 'p1']) {
      const token = await createTestToken(dataSource, Number(ids.users[ref]), key.id);
      who[ref] = `apiKey=${key.secret}&accessToken=${token}`;
    }
    app = await startTestApp(dataSource);
    legacy = await startTestApp(dataSource, { LEGACY_OPEN_READS: 'true' });
    for (const requester of ['anonymous', 'T', 'V', 'p1']) {
      // Everyone may name the pupils one by one; their union is the class.
      let users = await page(requester, `/getUserSet?userId=${ids.users.p1}`);
      for (const ref of PUPILS.slice(1)) {
        const one = await page(requester, `/getUserSet?userId=${ids.users[ref]}`);
        users = await page(
          requester,
          `/computeDataSet?dataSetId1=${String(users.dataSetId)}&dataSetId2=${String(one.dataSetId)}&operator=union`,
        );
      }
      const quizzes = await page(requester, '/getQuizSet?tag=privacy-results');
      sets[requester] = {
        userSetId: String(users.dataSetId),
        quizSetId: String(quizzes.dataSetId),
      };
    }
  });

  afterAll(async () => {
    // Closing an app closes the database's pool: the second one first.
    await legacy?.close();
    await app?.close();
    await close?.();
  });

  const aggregated = (groupBy: string, includeQuizzes: string) => ({
    resultTypes: TYPES.join(','),
    aggregationFunctions: FUNCTIONS.join(','),
    groupBy,
    includeQuizzes,
  });

  it('gives an anonymous requester no value and a count of 0, zeros included, on both wires', async () => {
    for (const includeQuizzes of ['answered', 'all']) {
      for (const groupBy of ['user', 'quiz']) {
        const params = aggregated(groupBy, includeQuizzes);
        const items = await rest('anonymous', params);
        expect(items).toHaveLength((groupBy === 'user' ? 6 : 2) * FUNCTIONS.length);
        for (const item of items) {
          const value = item.aggregationFunction === 'count' ? 0 : null;
          expect(TYPES.map((type) => item[type])).toEqual(TYPES.map(() => value));
        }
        expect(await overGraphql('anonymous', params)).toEqual(items);
      }
    }
  });

  it('exports an anonymous aggregate set as it pages: nothing counted', async () => {
    const query = new URLSearchParams({
      ...sets.anonymous,
      aggregationFunctions: 'count,max',
      groupBy: 'quiz',
    });
    const set = await page('anonymous', `/getResults?${query.toString()}`);
    const res = await app.get(
      `/exportDataSet?dataSetId=${String(set.dataSetId)}&format=ndjson&${who.anonymous}`,
    );
    expect(res.status).toBe(200);
    const lines = (await res.text()).trim().split('\n');
    expect(lines.map((line) => JSON.parse(line) as Item)).toEqual(set.items);
    expect((set.items as Item[]).map((item) => item.nbGoodAnswers)).toEqual([0, null, 0, null]);
  });

  it("gives a teacher the aggregates of the teacher's own detailed rows, on both wires", async () => {
    for (const includeQuizzes of ['answered', 'all']) {
      const detailed = await rest('T', { resultTypes: TYPES.join(','), includeQuizzes });
      // V's S3 is not T's: p1 and p2 appear in S1 and S2 only.
      expect(detailed.some((row) => row.sessionId === ids.sessions.S3)).toBe(false);
      for (const groupBy of ['user', 'quiz'] as const) {
        const key = groupBy === 'user' ? 'userId' : 'quizId';
        const items = await rest('T', aggregated(groupBy, includeQuizzes));
        for (const item of items) {
          const rows = detailed.filter((row) => row[key] === item[key]);
          const fn = item.aggregationFunction as (typeof FUNCTIONS)[number];
          for (const type of TYPES) {
            if (!WHOLE.has(type) && (fn === 'average' || fn === 'median')) continue;
            expect({ item, type, value: item[type] }).toEqual({
              item,
              type,
              value: aggregateOf(rows, type, fn),
            });
          }
        }
        expect(await overGraphql('T', aggregated(groupBy, includeQuizzes))).toEqual(items);
      }
    }
    // p1 on Qz: one attempt for T (S1, 5/5); V counts only S3's (0/5).
    const countOf = async (requester: string) =>
      (await rest(requester, { aggregationFunctions: 'count,max', groupBy: 'user' }))
        .filter((item) => item.userId === ids.users.p1)
        .map((item) => item.nbGoodAnswers);
    expect(await countOf('T')).toEqual([2, 5]);
    expect(await countOf('V')).toEqual([1, 0]);
    expect(await countOf('p1')).toEqual([3, 5]);
  });

  it('counts every attempt with LEGACY_OPEN_READS=true, for anyone', async () => {
    const byUser = async (requester: string, server: TestApp) =>
      Object.fromEntries(
        (await rest(requester, { aggregationFunctions: 'count', groupBy: 'user' }, server)).map(
          (item) => [item.userId, item.nbGoodAnswers],
        ),
      );
    // Qz: p1 S1 S3, p2 S1 S2 S3, p3 S1, p4 S1; Sv: p1..p5 in S1.
    const every = {
      [ids.users.p1]: 3,
      [ids.users.p2]: 4,
      [ids.users.p3]: 2,
      [ids.users.p4]: 2,
      [ids.users.p5]: 1,
      [ids.users.p6]: 0,
    };
    expect(await byUser('anonymous', legacy)).toEqual(every);
    expect(await byUser('T', legacy)).toEqual(every);
    expect(await byUser('T', app)).toEqual({ ...every, [ids.users.p1]: 2, [ids.users.p2]: 3 });
    // Detailed results stay the requester's.
    const detailed = await rest('T', { resultTypes: 'nbGoodAnswers' }, legacy);
    expect(detailed.some((row) => row.sessionId === ids.sessions.S3)).toBe(false);
  });

  it('gives surveys no score, in detailed and aggregated results, zeros included', async () => {
    const detailed = await rest('T', { resultTypes: TYPES.join(','), includeQuizzes: 'all' });
    const onSurvey = detailed.filter((row) => row.quizId === ids.quizzes.Sv);
    // p1..p5 answered in S1; p6 gets a zero.
    expect(onSurvey.map((row) => [row.userId, row.sessionId])).toEqual([
      ...['p1', 'p2', 'p3', 'p4', 'p5'].map((ref) => [ids.users[ref], ids.sessions.S1]),
      [ids.users.p6, null],
    ]);
    for (const row of onSurvey) {
      expect(row).toMatchObject({
        nbGoodAnswers: null,
        goodAnswersPercent: null,
        percentile: null,
      });
      expect(row.nbAnswers).toBe(row.sessionId === null ? 0 : 2);
      expect(row.duration).toBe(row.sessionId === null ? 0 : 60);
    }
    const onQuiz = detailed.filter((row) => row.quizId === ids.quizzes.Qz);
    expect(onQuiz.every((row) => typeof row.percentile === 'number')).toBe(true);
    const byQuiz = await rest('T', {
      resultTypes: 'nbGoodAnswers,nbAnswers',
      aggregationFunctions: 'count,average',
      groupBy: 'quiz',
      includeQuizzes: 'all',
    });
    expect(byQuiz.filter((item) => item.quizId === ids.quizzes.Sv)).toEqual([
      expect.objectContaining({ aggregationFunction: 'count', nbGoodAnswers: 6, nbAnswers: 6 }),
      expect.objectContaining({
        aggregationFunction: 'average',
        nbGoodAnswers: null,
        nbAnswers: 1.67,
      }),
    ]);
    // Issue 26 item 8: p1's 5/5 is 100 %, whatever the survey.
    const byUser = await rest('T', {
      resultTypes: 'goodAnswersPercent',
      aggregationFunctions: 'average',
      groupBy: 'user',
      sessionId: String(ids.sessions.S1),
    });
    expect(byUser.find((item) => item.userId === ids.users.p1)?.goodAnswersPercent).toBe(100);
  });

  it("averages a session's scores without its survey in getSessionResults, for its owner", async () => {
    const { status, body } = await graphql(
      app.url,
      `
        query ($s: ID!) {
          getSessionResults(
            sessionId: $s
            resultTypes: [goodAnswersPercent]
            aggregationFunctions: [average, count]
            groupBy: user
          ) {
            results {
              items {
                ... on ComputedResult {
                  userId
                  aggregationFunction
                  goodAnswersPercent
                }
              }
            }
          }
        }
      `,
      { variables: { s: ids.sessions.S1 }, search: `?${who.T}` },
    );
    expect({ status, errors: body.errors }).toEqual({ status: 200, errors: undefined });
    const items = (body.data?.getSessionResults as { results: { items: Item[] } }).results.items;
    const of = (ref: string) =>
      items.filter((item) => item.userId === ids.users[ref]).map((item) => item.goodAnswersPercent);
    // [average, count]: p1 5/5 and the survey, p2 3/5 and the survey, p6 nothing.
    expect(of('p1')).toEqual([100, 2]);
    expect(of('p2')).toEqual([60, 2]);
    expect(of('p5')).toEqual([null, 1]);
    expect(of('p6')).toEqual([null, 0]);
  });

  it('does not read a survey back from fewer than SURVEY_MIN_RESPONSES attempts', async () => {
    const survey = await page('T', `/getQuizSet?quizId=${ids.quizzes.Sv}`);
    const choices = async (userSetId: unknown) => {
      const query = `userSetId=${String(userSetId)}&quizSetId=${String(survey.dataSetId)}`;
      const items = (await page('T', `/getQuestionStatistics?${query}`)).items as Item[];
      const { body } = await graphql(
        app.url,
        `query { getQuestionStatistics(userSetId: "${String(userSetId)}", quizSetId: "${String(survey.dataSetId)}") {
          items { ... on QuestionStatistic { questionIndex nbAttempts choiceCounts } } } }`,
        { search: `?${who.T}` },
      );
      const graph = (body.data?.getQuestionStatistics as { items: Item[] }).items;
      expect(graph).toEqual(
        items.map(({ questionIndex, nbAttempts, choiceCounts }) => ({
          questionIndex,
          nbAttempts,
          choiceCounts,
        })),
      );
      return items.map((item) => [item.nbAttempts, item.choiceCounts]);
    };
    const one = await page('T', `/getUserSet?userId=${ids.users.p1}`);
    expect(await choices(one.dataSetId)).toEqual([
      [1, null],
      [1, null],
    ]);
    const p5 = await page('T', `/getUserSet?userId=${ids.users.p5}`);
    const four = await page(
      'T',
      `/computeDataSet?dataSetId1=${sets.T.userSetId}&dataSetId2=${String(p5.dataSetId)}&operator=difference`,
    );
    expect(await choices(four.dataSetId)).toEqual([
      [4, null],
      [4, null],
    ]);
    // 5 attempts: the default minimum, reached; true or false has no choice counts.
    expect(await choices(sets.T.userSetId)).toEqual([
      [5, [3, 1, 1]],
      [5, null],
    ]);
  });
});

import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap, ImportDocument } from '../../src/data/import/import-document';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend } from '../helpers/database';
import { graphql } from '../helpers/graphql';

/**
 * getQuestionStatistics and getQuizStatistics (contract.md §12) on a small class whose every
 * statistic is worked out by hand below, in three scopes: every session, sessionId=S1, and
 * sessionIds=S2. Requester: teacher T, who owns S1 and S3 and answered in O's session S2.
 *
 * Who counts (§7): users of the group {T, a, b, c, d, e}; f answers in S1 but is outside the
 * group; e answers only in S2, owned by O, so T never sees e's attempts. T's own attempt in S2
 * counts. An attempt is (user, quiz, session): a, b, c playing A in S1 and again in S3 make two
 * attempts each.
 *
 * Rows of 0/1 scores per attempt, per question (unanswered = 0); T = the attempt's good answers.
 * Pearson r is computed with n-scaled sums: cov' = nΣxy − ΣxΣy, var' = nΣx² − (Σx)²,
 * r = cov' / √(varx'·vary'); y = T − x. Alpha = k/(k−1) × (varT' − Σ var'x) / varT'.
 *
 * Q (4 questions: q0 MC one good answer [Milan, Rome, Turin] good 1; q1 MC several [2, 4, 5, 9]
 *   good [0, 2]; q2 TrueFalse good true; q3 number good 42):
 *   answers  a(S1): 1, [0,2], true, 42 → 1111 T=4     b(S1): 1, [0,1,2], true, 42 → 1011 T=3
 *            c(S1): 0, [2,0], true, —  → 0110 T=2     d(S1): 2, [0,2], true, 7    → 0110 T=2
 *            T(S2): 0, —, true, 42      → 0011 T=2     not counted: f(S1), e(S2)
 *   every session (n = 5: a b c d T):
 *     facility: q0 2/5 = 40, q1 3/5 = 60, q2 5/5 = 100, q3 3/5 = 60; nbAnswers 5, 4, 5, 4.
 *     choiceCounts q0: a→1 b→1 c→0 d→2 T→0 = [2, 2, 1]; q1: a[0,2] b[0,1,2] c[0,2] d[0,2] = [4, 1, 4, 0].
 *     q0: x 11000, y 32222: cov' = 5·5 − 2·11 = 3, varx' = 5·2 − 4 = 6, vary' = 5·25 − 121 = 4,
 *         r = 3/√24 = 0.6124 → 0.61
 *     q1: x 10110, y 33112: cov' = 5·5 − 3·10 = −5, varx' = 15 − 9 = 6, vary' = 5·24 − 100 = 20,
 *         r = −5/√120 = −0.4564 → −0.46
 *     q2: x 11111: no variance → null.   q3: x 11001, y 32221: cov' = 5·6 − 3·10 = 0 → r = 0.
 *     percents 100, 75, 50, 50, 50: mean 325/5 = 65, median 50; deviations 35, 10, −15 ×3:
 *       squares 1225 + 100 + 3·225 = 2000, /5 = 400, stddev 20.
 *     alpha: varT' = 5·37 − 13² = 16; Σ var'x = 6 + 6 + 0 + 6 = 18;
 *       4/3 × (16 − 18)/16 = −1/6 = −0.1667 → −0.17.  histogram: 50×3 → [5], 75 → [7], 100 → [9].
 *   sessionId=S1 (n = 4: a b c d; T's attempt is in S2):
 *     facility q0 2/4 = 50, q1 3/4 = 75, q2 100, q3 2/4 = 50; nbAnswers 4, 4, 4, 3.
 *     choiceCounts q0 [1, 2, 1], q1 [4, 1, 4, 0].
 *     q0: x 1100, y 3222: cov' = 4·5 − 2·9 = 2, varx' = 4, vary' = 4·21 − 81 = 3, r = 2/√12 = 0.5774 → 0.58
 *     q1: x 1011, y 3311: cov' = 4·5 − 3·8 = −4, varx' = 3, vary' = 4·20 − 64 = 16, r = −4/√48 → −0.58
 *     q3: x 1100, y 3222 as q0 → 0.58.   q2: null.
 *     percents 100, 75, 50, 50: mean 275/4 = 68.75, median (50 + 75)/2 = 62.5;
 *       squares 31.25² + 6.25² + 2·18.75² = 1718.75, /4 = 429.6875, √ = 20.729 → 20.73.
 *     alpha: varT' = 4·33 − 11² = 11; Σ var'x = 4 + 3 + 0 + 4 = 11 → 4/3 × 0 = 0.
 *   sessionIds=S2 (n = 1: T only; e is O's pupil in O's session):
 *     facility q0 0, q1 0 (nobody answered it: nbAnswers 0), q2 100, q3 100; nbAnswers 1, 0, 1, 1;
 *     discrimination null everywhere (one attempt); choiceCounts q0 [1, 0, 0], q1 [0, 0, 0, 0].
 *     mean = median = 50, stddev 0, alpha null (one attempt), histogram [5] = 1.
 *
 * R (r0 TrueFalse good false, r1 text good "Paris"): only c(S1) counts, answering r0 false.
 *   every session and S1: n = 1; r0 facility 100, nbAnswers 1; r1 answered by nobody: facility 0,
 *   nbAnswers 0; discrimination null; mean = median = 50, stddev 0, alpha null, histogram [5] = 1.
 *   S2: n = 0 (e's answers are not T's to see): facility null, mean null, histogram all 0.
 *
 * U (survey: u0 MC one [Yes, No, Maybe], u1 MC several [Red, Green, Blue], u2 text):
 *   a(S1): 0, [0,2], "Fine"   b(S1): 2, [1]   c(S1): 0, [1,2]   T(S2): 1   (e(S2) not counted)
 *   every session (n = 4): u0 4 answers [2, 1, 1]; u1 3 answers [1, 2, 2]; u2 1 answer, null.
 *   S1 (n = 3): u0 [2, 0, 1]; u1 [1, 2, 2]; u2 1.   S2 (n = 1): u0 1 answer, u1 0 answers.
 *   facility, discrimination, mean, median, stddev, alpha, histogram: null (a survey).
 *   Choice counts of a survey need SURVEY_MIN_RESPONSES attempts (§14.1): the app here runs with
 *   3, so S2's single attempt (T's [0, 1, 0]) shows none; with the default 5, no scope shows any.
 *
 * N (never played; n0 TrueFalse, n1 MC one [P, Q]): n = 0 everywhere; choiceCounts n1 [0, 0].
 *
 * A (3 TrueFalse, good true), played in S1 and S3:
 *   a(S1) 111  b(S1) false,true,true 011  c(S1) false,—,— 000  d(S1) true,false,— 100
 *   a(S3) 111  b(S3) false,false,false 000  c(S3) —,—,false 000   (f(S1) 111 not counted)
 *   every session (n = 7), T = 3 2 0 1 3 0 0 (a1 b1 c1 d1 a3 b3 c3):
 *     facility 3/7 = 42.857 → 42.86 each; nbAnswers a0: 4 + 2 = 6, a1: 3 + 2 = 5, a2: 2 + 3 = 5.
 *     a0: x 1001100, y 2200200: cov' = 7·4 − 3·6 = 10, varx' = 21 − 9 = 12, vary' = 7·12 − 36 = 48,
 *         r = 10/√576 = 10/24 = 0.4167 → 0.42
 *     a1: x 1100100, y 2101200: cov' = 7·5 − 18 = 17, vary' = 7·10 − 36 = 34, r = 17/√408 = 0.8416 → 0.84
 *     a2: x 1100100 as a1 → 0.84.
 *     percents 100T/3; mean = 100·9/21 = 42.857 → 42.86; sorted 0 0 0 33.3 66.7 100 100: median 33.33.
 *     var T = 23/7 − (9/7)² = 80/49; var % = (100/3)²·80/49 = 800000/441 = 1814.06, √ = 42.592 → 42.59.
 *     alpha: varT' = 7·23 − 81 = 80; Σ var'x = 3·(7·3 − 9) = 36; 3/2 × 44/80 = 0.825 exactly: a tie
 *       whose nearest double (0.82499999999999995559) lies below the half; half away from zero: 0.83.
 *     histogram: 0 ×3 → [0], 33.3 → [3], 66.7 → [6], 100 ×2 → [9].
 *   sessionId=S1 (n = 4), T = 3 2 0 1: facility 2/4 = 50 each; nbAnswers 4, 3, 2.
 *     a0: x 1001, y 2200: cov' = 4·2 − 2·4 = 0 → 0.   a1 = a2: x 1100, y 2101: cov' = 4·3 − 2·4 = 4,
 *     varx' = 4, vary' = 4·6 − 16 = 8, r = 4/√32 = 0.7071 → 0.71.
 *     percents 100, 66.67, 0, 33.33: mean 50, median (33.33 + 66.67)/2 = 50;
 *     var = (100/3)²·(5/4) = 12500/9, √ = 37.268 → 37.27. alpha: varT' = 4·14 − 36 = 20,
 *     Σ var'x = 3·(4·2 − 4) = 12 → 3/2 × 8/20 = 0.6. histogram [0], [3], [6], [9] = 1 each.
 *   sessionIds=S2: A is not played there: n = 0.
 */

const TF = 'TrueFalse';
const MC1 = 'MultipleChoicesOneGoodAnswer';
const MCN = 'MultipleChoicesSeveralGoodAnswers';
const TEXT = 'FreeAnswerText';
const NUMBER = 'FreeAnswerNumber';

const QUIZZES = {
  Q: [
    {
      title: 'Capital of Italy',
      type: MC1,
      propositions: ['Milan', 'Rome', 'Turin'],
      goodAnswer: 1,
    },
    { title: 'Prime numbers', type: MCN, propositions: ['2', '4', '5', '9'], goodAnswer: [0, 2] },
    { title: 'Water is wet', type: TF, goodAnswer: true },
    { title: 'Six times seven', type: NUMBER, tolerance: 0, goodAnswer: 42 },
  ],
  R: [
    { title: 'The sun is cold', type: TF, goodAnswer: false },
    { title: 'Capital of France', type: TEXT, goodAnswer: 'Paris' },
  ],
  U: [
    { title: 'Did you like it?', type: MC1, propositions: ['Yes', 'No', 'Maybe'] },
    { title: 'Favourite colours', type: MCN, propositions: ['Red', 'Green', 'Blue'] },
    { title: 'Comments', type: TEXT },
  ],
  N: [
    { title: 'Never asked', type: TF, goodAnswer: true },
    { title: 'Never chosen', type: MC1, propositions: ['P', 'Q'], goodAnswer: 0 },
  ],
  A: [
    { title: 'First statement', type: TF, goodAnswer: true },
    { title: 'Second statement', type: TF, goodAnswer: true },
    { title: 'Third statement', type: TF, goodAnswer: true },
  ],
};
type QuizRef = keyof typeof QUIZZES;
const QUIZ_REFS = Object.keys(QUIZZES) as QuizRef[];

/** [session, user, quiz, answer per question (undefined: not answered)]. */
const ANSWERS: [string, string, QuizRef, unknown[]][] = [
  ['S1', 'a', 'Q', [1, [0, 2], true, 42]],
  ['S1', 'b', 'Q', [1, [0, 1, 2], true, 42]],
  ['S1', 'c', 'Q', [0, [2, 0], true]],
  ['S1', 'd', 'Q', [2, [0, 2], true, 7]],
  ['S1', 'f', 'Q', [2, undefined, false]],
  ['S2', 'T', 'Q', [0, undefined, true, 42]],
  ['S2', 'e', 'Q', [0, [3], false, 42]],
  ['S1', 'c', 'R', [false]],
  ['S1', 'f', 'R', [false, 'Paris']],
  ['S2', 'e', 'R', [true, 'paris']],
  ['S1', 'a', 'U', [0, [0, 2], 'Fine']],
  ['S1', 'b', 'U', [2, [1]]],
  ['S1', 'c', 'U', [0, [1, 2]]],
  ['S2', 'T', 'U', [1]],
  ['S2', 'e', 'U', [1, [2]]],
  ['S1', 'a', 'A', [true, true, true]],
  ['S1', 'b', 'A', [false, true, true]],
  ['S1', 'c', 'A', [false]],
  ['S1', 'd', 'A', [true, false]],
  ['S1', 'f', 'A', [true, true, true]],
  ['S3', 'a', 'A', [true, true, true]],
  ['S3', 'b', 'A', [false, false, false]],
  ['S3', 'c', 'A', [undefined, undefined, false]],
];

const DOCUMENT: ImportDocument = {
  users: ['T', 'O', 'a', 'b', 'c', 'd', 'e', 'f'].map((ref) => ({
    ref,
    email: `${ref.toLowerCase()}@known-values.example`,
    firstName: ref,
    lastName: 'Known',
  })),
  groups: [
    { ref: 'g', name: 'Known values class', owner: 'T', members: ['T', 'a', 'b', 'c', 'd', 'e'] },
  ],
  quizzes: QUIZ_REFS.map((ref) => ({
    ref,
    author: 'T',
    title: `Known values ${ref}`,
    visibility: 'public',
    survey: ref === 'U',
    tags: ['known-values-statistics', ref],
    questions: QUIZZES[ref],
  })),
  sessions: [
    {
      ref: 'S1',
      owner: 'T',
      title: 'Monday',
      startDate: '2026-10-05 09:00:00',
      quizzes: ['Q', 'R', 'U', 'A'],
      users: 'abcdf',
    },
    {
      ref: 'S2',
      owner: 'O',
      title: 'Tuesday',
      startDate: '2026-10-06 09:00:00',
      quizzes: ['Q', 'R', 'U'],
      users: 'Te',
    },
    {
      ref: 'S3',
      owner: 'T',
      title: 'Wednesday',
      startDate: '2026-10-07 09:00:00',
      quizzes: ['A'],
      users: 'abc',
    },
  ].map(({ users, ...session }) => ({
    ...session,
    attendees: [...users].map((user) => ({ user })),
  })),
  answers: ANSWERS.flatMap(([session, user, quiz, values]) =>
    values.flatMap((answer, question) =>
      answer === undefined
        ? []
        : [
            {
              session,
              user,
              quiz,
              question,
              answer,
              answeredAt: `2026-10-0${Number(session.slice(1)) + 4} 09:1${question}:00`,
            },
          ],
    ),
  ),
};

// ---------------------------------------------------------------------------------------------
// The numbers worked out above

/** Per question: nbAnswers, facility, discrimination, choiceCounts. */
type QuestionRow = [number, number | null, number | null, number[] | null];

interface QuizExpectation {
  nbAttempts: number;
  questions: QuestionRow[];
  mean: number | null;
  median: number | null;
  stddev: number | null;
  cronbachAlpha: number | null;
  histogram: number[] | null;
}

const ZEROS = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
const NONE = { mean: null, median: null, stddev: null, cronbachAlpha: null };
const NO_ATTEMPT = { ...NONE, histogram: ZEROS };
const SURVEY = { ...NONE, histogram: null };
const ONE_AT_50 = {
  mean: 50,
  median: 50,
  stddev: 0,
  cronbachAlpha: null,
  histogram: [0, 0, 0, 0, 0, 1, 0, 0, 0, 0],
};
const NEVER_PLAYED: QuizExpectation = {
  nbAttempts: 0,
  questions: [
    [0, null, null, null],
    [0, null, null, [0, 0]],
  ],
  ...NO_ATTEMPT,
};
const R_ONE_ATTEMPT: QuizExpectation = {
  nbAttempts: 1,
  questions: [
    [1, 100, null, null],
    [0, 0, null, null],
  ],
  ...ONE_AT_50,
};

type Scope = 'every session' | 'sessionId=S1' | 'sessionIds=S2';
const SCOPES: Scope[] = ['every session', 'sessionId=S1', 'sessionIds=S2'];

// As worked out in the comment at the top; kept as a table, one row per question.
// prettier-ignore
const EXPECTED: Record<Scope, Record<QuizRef, QuizExpectation>> = {
  'every session': {
    Q: {
      nbAttempts: 5,
      questions: [[5, 40, 0.61, [2, 2, 1]], [4, 60, -0.46, [4, 1, 4, 0]], [5, 100, null, null], [4, 60, 0, null]],
      mean: 65, median: 50, stddev: 20, cronbachAlpha: -0.17, histogram: [0, 0, 0, 0, 0, 3, 0, 1, 0, 1],
    },
    R: R_ONE_ATTEMPT,
    U: { nbAttempts: 4, questions: [[4, null, null, [2, 1, 1]], [3, null, null, [1, 2, 2]], [1, null, null, null]], ...SURVEY },
    N: NEVER_PLAYED,
    A: {
      nbAttempts: 7,
      questions: [[6, 42.86, 0.42, null], [5, 42.86, 0.84, null], [5, 42.86, 0.84, null]],
      mean: 42.86, median: 33.33, stddev: 42.59, cronbachAlpha: 0.83, histogram: [3, 0, 0, 1, 0, 0, 1, 0, 0, 2],
    },
  },
  'sessionId=S1': {
    Q: {
      nbAttempts: 4,
      questions: [[4, 50, 0.58, [1, 2, 1]], [4, 75, -0.58, [4, 1, 4, 0]], [4, 100, null, null], [3, 50, 0.58, null]],
      mean: 68.75, median: 62.5, stddev: 20.73, cronbachAlpha: 0, histogram: [0, 0, 0, 0, 0, 2, 0, 1, 0, 1],
    },
    R: R_ONE_ATTEMPT,
    U: { nbAttempts: 3, questions: [[3, null, null, [2, 0, 1]], [3, null, null, [1, 2, 2]], [1, null, null, null]], ...SURVEY },
    N: NEVER_PLAYED,
    A: {
      nbAttempts: 4,
      questions: [[4, 50, 0, null], [3, 50, 0.71, null], [2, 50, 0.71, null]],
      mean: 50, median: 50, stddev: 37.27, cronbachAlpha: 0.6, histogram: [1, 0, 0, 1, 0, 0, 1, 0, 0, 1],
    },
  },
  'sessionIds=S2': {
    Q: {
      nbAttempts: 1,
      questions: [[1, 0, null, [1, 0, 0]], [0, 0, null, [0, 0, 0, 0]], [1, 100, null, null], [1, 100, null, null]],
      ...ONE_AT_50,
    },
    R: { nbAttempts: 0, questions: [[0, null, null, null], [0, null, null, null]], ...NO_ATTEMPT },
    U: { nbAttempts: 1, questions: [[1, null, null, null], [0, null, null, null], [0, null, null, null]], ...SURVEY },
    N: NEVER_PLAYED,
    A: { nbAttempts: 0, questions: [[0, null, null, null], [0, null, null, null], [0, null, null, null]], ...NO_ATTEMPT },
  },
};

type Item = Record<string, unknown>;

/** The items of both operations for a scope, in set order: by quiz id, then question index. */
function expectedItems(ids: IdMap, scope: Scope): { questions: Item[]; quizzes: Item[] } {
  const refs = [...QUIZ_REFS].sort((a, b) => Number(ids.quizzes[a]) - Number(ids.quizzes[b]));
  const questions = refs.flatMap((ref) =>
    EXPECTED[scope][ref].questions.map(
      ([nbAnswers, facility, discrimination, choiceCounts], questionIndex) => ({
        quizId: ids.quizzes[ref],
        questionIndex,
        title: QUIZZES[ref][questionIndex]?.title,
        type: QUIZZES[ref][questionIndex]?.type,
        nbAttempts: EXPECTED[scope][ref].nbAttempts,
        nbAnswers,
        facility,
        discrimination,
        choiceCounts,
      }),
    ),
  );
  const quizzes = refs.map((ref) => {
    const { questions: _questions, ...quiz } = EXPECTED[scope][ref];
    return { quizId: ids.quizzes[ref], ...quiz };
  });
  return {
    questions: questions.map((item, index) => ({ id: String(index + 1), ...item })),
    quizzes: quizzes.map((item, index) => ({ id: String(index + 1), ...item })),
  };
}

describe.each(BACKENDS)('item statistics of a hand-worked class on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  /** The same database served with the default configuration (SURVEY_MIN_RESPONSES 5). */
  let defaults: TestApp;
  let ids: IdMap;
  let apiKey: string;
  let credentials: string;
  let userSetId: string;
  let quizSetId: string;

  async function rest(path: string, who = credentials): Promise<{ status: number; body: Item }> {
    const res = await app.get(`${path}${path.includes('?') ? '&' : '?'}${who}`);
    return { status: res.status, body: (await res.json()) as Item };
  }

  /** A 200 answer's body; any other answer fails showing its body. */
  async function ok(path: string): Promise<Item> {
    const { status, body } = await rest(path);
    expect({ path, status, body: status === 200 ? 'ok' : body }).toEqual({
      path,
      status: 200,
      body: 'ok',
    });
    return body;
  }

  function sessionParams(scope: Scope): string {
    if (scope === 'sessionId=S1') return `&sessionId=${ids.sessions.S1}`;
    return scope === 'sessionIds=S2' ? `&sessionIds=${ids.sessions.S2}` : '';
  }

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'statistics_known'));
    ids = await loadData(dataSource, DOCUMENT);
    const key = await createTestApiKey(dataSource, 'localhost');
    apiKey = `apiKey=${key.secret}`;
    credentials = `${apiKey}&accessToken=${await createTestToken(dataSource, Number(ids.users.T), key.id)}`;
    app = await startTestApp(dataSource, { SURVEY_MIN_RESPONSES: '3' });
    defaults = await startTestApp(dataSource);
    const groups = await ok('/getUserGroupSet?search=Known');
    const users = await ok(`/getUserSet?userGroupSetId=${String(groups.dataSetId)}`);
    const quizzes = await ok('/getQuizSet?tag=known-values-statistics');
    expect([users.totalNumberOfItems, quizzes.totalNumberOfItems]).toEqual([6, 5]);
    userSetId = String(users.dataSetId);
    quizSetId = String(quizzes.dataSetId);
  });

  afterAll(async () => {
    // Closing an app closes the database's pool: the second one first.
    await defaults?.close();
    await app?.close();
    await close?.();
  });

  it.each(SCOPES)('REST, %s: every question and quiz statistic, page after page', async (scope) => {
    const expected = expectedItems(ids, scope);
    const sets = `userSetId=${userSetId}&quizSetId=${quizSetId}${sessionParams(scope)}`;
    const questions = await ok(`/getQuestionStatistics?${sets}&numberOfItemsPerPage=4`);
    expect(questions).toMatchObject({
      itemType: 'questionStatistic',
      numberOfPages: 4,
      numberOfItemsPerPage: 4,
      totalNumberOfItems: 14,
      currentPageIndex: 1,
    });
    const items = [...(questions.items as Item[])];
    for (let pageIndex = 2; pageIndex <= 4; pageIndex += 1) {
      const next = await ok(
        `/getDataSetPage?dataSetId=${String(questions.dataSetId)}&pageIndex=${pageIndex}`,
      );
      expect(next).toMatchObject({ itemType: 'questionStatistic', currentPageIndex: pageIndex });
      items.push(...(next.items as Item[]));
    }
    expect(items).toEqual(expected.questions);

    const quizzes = await ok(`/getQuizStatistics?${sets}`);
    expect(quizzes).toMatchObject({
      itemType: 'quizStatistic',
      numberOfPages: 1,
      totalNumberOfItems: 5,
    });
    expect(quizzes.items).toEqual(expected.quizzes);
  });

  it.each(SCOPES)(
    'GraphQL, %s: the same numbers, with quiz { id title } and each quiz its questions',
    async (scope) => {
      const question =
        'quizId questionIndex title type nbAttempts nbAnswers facility discrimination choiceCounts';
      const args =
        'userSetId: $userSetId, quizSetId: $quizSetId, sessionId: $sessionId, sessionIds: $sessionIds';
      const query = `query ($userSetId: ID!, $quizSetId: ID!, $sessionId: ID, $sessionIds: [ID!]) {
      questions: getQuestionStatistics(${args}) { itemType totalNumberOfItems items { ... on QuestionStatistic { id: itemId ${question} quiz { id title } } } }
      quizzes: getQuizStatistics(${args}) { itemType totalNumberOfItems items { ... on QuizStatistic {
        id: itemId quizId quiz { id title } nbAttempts mean median stddev cronbachAlpha histogram questions { ${question} } } } }
    }`;
      const variables = {
        userSetId,
        quizSetId,
        sessionId: scope === 'sessionId=S1' ? ids.sessions.S1 : null,
        sessionIds: scope === 'sessionIds=S2' ? [ids.sessions.S2] : null,
      };
      const { status, body } = await graphql(app.url, query, {
        variables,
        search: `?${credentials}`,
      });
      expect({ status, errors: body.errors }).toEqual({ status: 200, errors: undefined });
      const expected = expectedItems(ids, scope);
      const quizOf = (item: Item) => {
        const ref = QUIZ_REFS.find((r) => ids.quizzes[r] === item.quizId) as QuizRef;
        return { id: ids.quizzes[ref], title: `Known values ${ref}` };
      };
      expect(body.data).toEqual({
        questions: {
          itemType: 'questionStatistic',
          totalNumberOfItems: 14,
          items: expected.questions.map((item) => ({ ...item, quiz: quizOf(item) })),
        },
        quizzes: {
          itemType: 'quizStatistic',
          totalNumberOfItems: 5,
          items: expected.quizzes.map((item) => ({
            ...item,
            quiz: quizOf(item),
            questions: expected.questions
              .filter((other) => other.quizId === item.quizId)
              .map(({ id: _id, ...other }) => other),
          })),
        },
      });
    },
  );

  it('with the default SURVEY_MIN_RESPONSES (5), shows no choice counts of a survey of 4 attempts', async () => {
    expect(defaults.config.privacy.surveyMinResponses).toBe(5);
    const res = await defaults.get(
      `/getQuestionStatistics?userSetId=${userSetId}&quizSetId=${quizSetId}&numberOfItemsPerPage=100&${credentials}`,
    );
    expect(res.status).toBe(200);
    const items = ((await res.json()) as { items: Item[] }).items;
    const expected = expectedItems(ids, 'every session').questions;
    // Only the survey's choice counts change: U has 4 attempts, fewer than 5.
    expect(items).toEqual(
      expected.map((item) =>
        item.quizId === ids.quizzes.U ? { ...item, choiceCounts: null } : item,
      ),
    );
    expect(expected.filter((item) => Array.isArray(item.choiceCounts)).length).toBeGreaterThan(
      items.filter((item) => Array.isArray(item.choiceCounts)).length,
    );
  });

  it('needs an access token (401 UnauthorizedOperationException without one)', async () => {
    for (const operation of ['getQuestionStatistics', 'getQuizStatistics']) {
      const { status, body } = await rest(
        `/${operation}?userSetId=${userSetId}&quizSetId=${quizSetId}`,
        apiKey,
      );
      expect({ status, type: body.type, operation: body.operation }).toEqual({
        status: 401,
        type: 'UnauthorizedOperationException',
        operation,
      });
    }
  });
});

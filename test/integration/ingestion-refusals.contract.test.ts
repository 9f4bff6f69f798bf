import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap, ImportDocument } from '../../src/data/import/import-document';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend } from '../helpers/database';
import { graphql } from '../helpers/graphql';
import { expectParity } from '../helpers/parity';
import { SURVEY_OF_EVERY_TYPE } from '../helpers/fixtures';

/**
 * What ingestion refuses (contract.md §9), on both wires and both databases: a batch with one
 * bad answer writes nothing (answers, attendees, change markers) and names the answer; who may
 * write a session's answers; what addSession refuses; who may read a session.
 */

/**
 * T owns session S (playing K and the survey V) attended by A and B. N attends nothing and is a
 * stranger to T; X and Y are in T's group G, so known to T, who writes answers for them without
 * their attending first. O authors a private and a
 * draft quiz that T may not see. R is a quiz of T's that S does not play.
 */
const CLASS: ImportDocument = {
  users: ['T', 'A', 'B', 'N', 'X', 'Y', 'O'].map((ref) => ({
    ref,
    email: `${ref.toLowerCase()}@refusals.example`,
    firstName: ref,
    lastName: 'Refusals',
    canCreatePrivateQuizzes: ref === 'O',
  })),
  quizzes: [
    {
      ref: 'K',
      author: 'T',
      title: 'Every question type',
      visibility: 'public',
      survey: false,
      tags: ['types', 'refusals'],
      questions: [
        {
          title: 'One',
          type: 'MultipleChoicesOneGoodAnswer',
          propositions: ['a', 'b', 'c'],
          goodAnswer: 1,
        },
        {
          title: 'Several',
          type: 'MultipleChoicesSeveralGoodAnswers',
          propositions: ['a', 'b', 'c', 'd'],
          goodAnswer: [0, 2],
        },
        { title: 'True?', type: 'TrueFalse', goodAnswer: true },
        { title: 'Capital?', type: 'FreeAnswerText', goodAnswer: 'Paris', tolerance: 20 },
        { title: 'Three quarters?', type: 'FreeAnswerNumber', goodAnswer: 0.75, tolerance: 0 },
      ],
    },
    {
      ref: 'V',
      author: 'T',
      title: 'How was it?',
      visibility: 'public',
      survey: true,
      tags: ['survey', 'refusals'],
      questions: SURVEY_OF_EVERY_TYPE,
    },
    {
      ref: 'R',
      author: 'T',
      title: 'Not played in S',
      visibility: 'public',
      survey: false,
      tags: ['other', 'refusals'],
      questions: [{ title: 'True?', type: 'TrueFalse', goodAnswer: true }],
    },
    ...(['private', 'draft'] as const).map((visibility) => ({
      ref: `O${visibility}`,
      author: 'O',
      title: `A ${visibility} quiz of O`,
      visibility,
      survey: false,
      tags: ['hidden', visibility],
      questions: [{ title: 'True?', type: 'TrueFalse', goodAnswer: true }],
    })),
  ],
  groups: [{ ref: 'G', name: 'Class 5A', owner: 'T', members: ['X', 'Y'] }],
  sessions: [
    {
      ref: 'S',
      owner: 'T',
      title: 'Monday class',
      startDate: '2026-11-02 08:30:00',
      quizzes: ['K', 'V'],
      attendees: [{ user: 'A' }, { user: 'B' }],
    },
  ],
};

type Json = Record<string, unknown>;

/** `YYYY-MM-DD hh:mm:ss` UTC, `minutes` from now. */
function fromNow(minutes: number): string {
  return new Date(Date.now() + minutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** How a case's refusal reads: status and the exception's type and parameter. */
interface Refusal {
  status: number;
  type: string;
  parameterName?: string;
}

const bad = (parameterName: string): Refusal => ({
  status: 400,
  type: 'BadParameterException',
  parameterName,
});
const absent = (parameterName: string): Refusal => ({
  status: 400,
  type: 'MissingParameterException',
  parameterName,
});

describe.each(BACKENDS)('ingestion refusals on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let ids: IdMap;
  let sessionId: string;
  /** Query-string credentials of each requester. */
  const who: Record<string, string> = {};

  const user = (ref: string) => ids.users[ref] as string;
  const quiz = (ref: string) => ids.quizzes[ref] as string;

  /** A valid answer of `userRef` to question `index` of K. */
  const VALID: unknown[] = [1, [0, 2], true, 'Paris', '0,75'];
  const answer = (userRef: string, index: number, extra: Json = {}): Json => ({
    userId: user(userRef),
    quizId: quiz('K'),
    questionIndex: index,
    answer: VALID[index],
    answeredAt: '2026-11-02 09:00:00',
    ...extra,
  });

  /**
   * A batch whose answer 2 is `badOne`: X's first answers come before it (X does not attend S,
   * so writing them would also write an attendee), one of A's after it.
   */
  const batchWith = (badOne: unknown): unknown[] => [
    answer('X', 0),
    answer('X', 2),
    badOne,
    answer('A', 4),
  ];

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'ingestion_refusals'));
    ids = await loadData(dataSource, CLASS);
    sessionId = ids.sessions.S as string;
    const key = await createTestApiKey(dataSource, 'localhost');
    const otherKey = await createTestApiKey(dataSource, 'localhost');
    for (const ref of ['T', 'A', 'B', 'N', 'O', 'X']) {
      who[ref] =
        `apiKey=${key.secret}&accessToken=${await createTestToken(dataSource, Number(user(ref)), key.id)}`;
    }
    who.anonymous = `apiKey=${key.secret}`;
    who['token of another key'] =
      `apiKey=${key.secret}&accessToken=${await createTestToken(dataSource, Number(user('T')), otherKey.id)}`;
    who['unknown key'] =
      `apiKey=qk_doesnotexist0000000000000000000000000000&accessToken=${await createTestToken(dataSource, Number(user('T')), key.id)}`;
    app = await startTestApp(dataSource);
  });

  afterAll(async () => {
    await app?.close();
    await close?.();
  });

  async function count(sql: string): Promise<number> {
    const [row] = (await dataSource.query(sql)) as { n: unknown }[];
    return Number(row?.n ?? 0);
  }

  /** Everything a write could change: rows of the ingestion tables, versions of the markers. */
  async function written(): Promise<Record<string, number>> {
    return {
      answers: await count('SELECT COUNT(*) AS n FROM answers'),
      attendees: await count('SELECT COUNT(*) AS n FROM session_attendees'),
      markers: await count('SELECT COUNT(*) AS n FROM session_changes'),
      versions: await count('SELECT COALESCE(SUM(version), 0) AS n FROM session_changes'),
      sessions: await count('SELECT COUNT(*) AS n FROM sessions'),
      played: await count('SELECT COUNT(*) AS n FROM session_quizzes'),
    };
  }

  async function rest(operation: string, body: Json, credentials: string) {
    const res = await app.get(`/${operation}?${credentials}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  }

  const ADD_ANSWERS =
    'mutation ($id: ID!, $a: [AnswerInput!]!) { addAnswers(sessionId: $id, answers: $a) { sessionId received inserted updated unchanged } }';

  function gqlAnswers(answers: unknown, credentials: string, id = sessionId) {
    return graphql(app.url, ADD_ANSWERS, {
      variables: { id, a: answers },
      search: `?${credentials}`,
    });
  }

  function expectRefusal(body: Json, status: number, refusal: Refusal, operation: string) {
    expect({ status, type: body.type, parameterName: body.parameterName }).toStrictEqual({
      status: refusal.status,
      type: refusal.type,
      parameterName: refusal.parameterName,
    });
    expect(body.operation).toBe(operation);
    expect(body.reason).toEqual(expect.stringMatching(/\S/));
  }

  /**
   * addAnswers on REST and on GraphQL (expectParity: the same exception on both) refused as
   * `refusal`, with nothing written by either call.
   */
  async function expectAnswersRefused(
    answers: unknown,
    refusal: Refusal,
    credentials = who.T as string,
    id = sessionId,
  ): Promise<Json> {
    const before = await written();
    const result = await expectParity(
      app.url,
      'addAnswers',
      { sessionId: id, answers: JSON.stringify(answers) },
      credentials,
    );
    expectRefusal(result.body, result.status, refusal, 'addAnswers');
    expect(result.graphql.body.errors?.[0]?.extensions?.type).toBe(refusal.type);
    expect(await written()).toStrictEqual(before);
    return result.body;
  }

  describe('addAnswers: one bad answer refuses the whole batch, named by its path', () => {
    const notSurvey: [string, () => unknown, Refusal][] = [
      [
        'MCQ one: index out of range',
        () => answer('X', 0, { answer: 3 }),
        bad('answers[2].answer'),
      ],
      ['MCQ one: negative index', () => answer('X', 0, { answer: -1 }), bad('answers[2].answer')],
      ['MCQ one: a string', () => answer('X', 0, { answer: '1' }), bad('answers[2].answer')],
      [
        'MCQ several: an index repeated',
        () => answer('X', 1, { answer: [1, 1] }),
        bad('answers[2].answer'),
      ],
      ['MCQ several: not an array', () => answer('X', 1, { answer: 1 }), bad('answers[2].answer')],
      [
        'MCQ several: an index out of range',
        () => answer('X', 1, { answer: [0, 4] }),
        bad('answers[2].answer'),
      ],
      ['TrueFalse: a string', () => answer('X', 2, { answer: 'yes' }), bad('answers[2].answer')],
      ['TrueFalse: a number', () => answer('X', 2, { answer: 1 }), bad('answers[2].answer')],
      ['FreeAnswerText: a number', () => answer('X', 3, { answer: 42 }), bad('answers[2].answer')],
      ['FreeAnswerText: empty', () => answer('X', 3, { answer: '' }), bad('answers[2].answer')],
      [
        'FreeAnswerText: 251 characters',
        () => answer('X', 3, { answer: 'p'.repeat(251) }),
        bad('answers[2].answer'),
      ],
      [
        'FreeAnswerNumber: 9 digits before the mark',
        () => answer('X', 4, { answer: '123456789' }),
        bad('answers[2].answer'),
      ],
      [
        'FreeAnswerNumber: 9 digits after the mark',
        () => answer('X', 4, { answer: 0.123456789 }),
        bad('answers[2].answer'),
      ],
      [
        'FreeAnswerNumber: text that is no number',
        () => answer('X', 4, { answer: 'three' }),
        bad('answers[2].answer'),
      ],
      ['answer null', () => answer('X', 2, { answer: null }), bad('answers[2].answer')],
    ];
    const survey: [string, () => unknown, Refusal][] = [
      [
        'survey MCQ one: index out of range',
        () => ({ ...answer('X', 0, { answer: 2 }), quizId: quiz('V') }),
        bad('answers[2].answer'),
      ],
      [
        'survey MCQ several: repeated index',
        () => ({ ...answer('X', 1, { answer: [2, 2] }), quizId: quiz('V') }),
        bad('answers[2].answer'),
      ],
      [
        'survey TrueFalse: a string',
        () => ({ ...answer('X', 2, { answer: 'maybe' }), quizId: quiz('V') }),
        bad('answers[2].answer'),
      ],
      [
        'survey FreeAnswerText: a number',
        () => ({ ...answer('X', 3, { answer: 7 }), quizId: quiz('V') }),
        bad('answers[2].answer'),
      ],
      [
        'survey FreeAnswerNumber: text',
        () => ({ ...answer('X', 4, { answer: 'ten' }), quizId: quiz('V') }),
        bad('answers[2].answer'),
      ],
    ];
    const identity: [string, () => unknown, Refusal][] = [
      [
        'questionIndex past the last question',
        () => answer('X', 0, { questionIndex: 5 }),
        bad('answers[2].questionIndex'),
      ],
      [
        'questionIndex negative',
        () => answer('X', 0, { questionIndex: -1 }),
        bad('answers[2].questionIndex'),
      ],
      ['quizId unknown', () => answer('X', 0, { quizId: '999999' }), bad('answers[2].quizId')],
      [
        'quizId of a quiz the session does not play',
        () => ({ ...answer('X', 0), quizId: quiz('R'), answer: true }),
        bad('answers[2].quizId'),
      ],
      ['quizId not an id', () => answer('X', 0, { quizId: 'K' }), bad('answers[2].quizId')],
      ['userId unknown', () => answer('X', 0, { userId: '999999' }), bad('answers[2].userId')],
      ['userId not an id', () => answer('X', 0, { userId: 'x-1' }), bad('answers[2].userId')],
      [
        'answeredAt 6 minutes ahead',
        () => answer('X', 0, { answeredAt: fromNow(6) }),
        bad('answers[2].answeredAt'),
      ],
      [
        'answeredAt without seconds',
        () => answer('X', 0, { answeredAt: '2026-11-02 09:00' }),
        bad('answers[2].answeredAt'),
      ],
      [
        'answeredAt a day that does not exist',
        () => answer('X', 0, { answeredAt: '2026-02-30 09:00:00' }),
        bad('answers[2].answeredAt'),
      ],
    ];
    const omitted = (field: string) => () => {
      const item = answer('X', 0);
      delete item[field];
      return item;
    };
    const missingFields: [string, () => unknown, Refusal][] = [
      ['userId missing', omitted('userId'), absent('answers[2].userId')],
      ['quizId missing', omitted('quizId'), absent('answers[2].quizId')],
      ['questionIndex missing', omitted('questionIndex'), absent('answers[2].questionIndex')],
      ['answer missing', omitted('answer'), absent('answers[2].answer')],
    ];

    it.each([...notSurvey, ...survey, ...identity, ...missingFields])(
      '%s',
      async (_label, make, refusal) => {
        await expectAnswersRefused(batchWith(make()), refusal);
      },
    );

    it('reports the first bad answer when several are bad', async () => {
      const body = await expectAnswersRefused(
        [answer('X', 0), answer('X', 1, { answer: 9 }), answer('X', 2, { answer: 'no' })],
        bad('answers[1].answer'),
      );
      expect(body.providedValue).toBe('9');
    });

    it('refuses values GraphQL cannot carry: REST names the answer, Apollo refuses the request', async () => {
      const cases: [unknown, string, string][] = [
        [answer('X', 0, { questionIndex: '1' }), 'answers[2].questionIndex', 'questionIndex'],
        [answer('X', 0, { questionIndex: 0.5 }), 'answers[2].questionIndex', 'questionIndex'],
        [answer('X', 0, { answeredAt: 1_700_000_000 }), 'answers[2].answeredAt', 'answeredAt'],
        [answer('X', 0, { userId: true }), 'answers[2].userId', 'userId'],
        [7, 'answers[2]', 'at "a[2]"'],
      ];
      for (const [badOne, parameterName, mention] of cases) {
        const before = await written();
        const answers = batchWith(badOne);
        const refused = await rest('addAnswers', { sessionId, answers }, who.T as string);
        expectRefusal(refused.body, refused.status, bad(parameterName), 'addAnswers');
        const gql = await gqlAnswers(answers, who.T as string);
        expect(gql.status).toBe(400);
        expect(gql.body).not.toHaveProperty('data');
        expect(gql.body.errors?.map((error) => error.extensions?.code)).toStrictEqual([
          'BAD_USER_INPUT',
        ]);
        expect(gql.body.errors?.[0]?.message).toContain(mention);
        expect(await written()).toStrictEqual(before);
      }
    });
  });

  describe('addAnswers: the batch as a whole', () => {
    it('refuses an empty batch', async () => {
      await expectAnswersRefused([], bad('answers'));
    });

    it('refuses 5001 answers on both wires (the body: too long for a query string)', async () => {
      const answers = Array.from({ length: 5001 }, (_, i) => answer('X', i % 5));
      const before = await written();
      const refused = await rest('addAnswers', { sessionId, answers }, who.T as string);
      expectRefusal(refused.body, refused.status, bad('answers'), 'addAnswers');
      expect(refused.body.reason).toBe('expected 1 to 5000 answers, got 5001');
      const gql = await gqlAnswers(answers, who.T as string);
      expect(gql.body.data).toStrictEqual({ addAnswers: null });
      expect(gql.body.errors?.[0]?.extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        type: 'BadParameterException',
        parameterName: 'answers',
        reason: refused.body.reason,
      });
      expect(await written()).toStrictEqual(before);
    });

    it('refuses answers that are not an array (REST); GraphQL refuses a text for its list', async () => {
      for (const answers of ['[1]', 'none', { userId: user('X') }, 3]) {
        const before = await written();
        const refused = await rest('addAnswers', { sessionId, answers }, who.T as string);
        expectRefusal(refused.body, refused.status, bad('answers'), 'addAnswers');
        expect(await written()).toStrictEqual(before);
      }
      const gql = await gqlAnswers('none', who.T as string);
      expect(gql.status).toBe(400);
      expect(gql.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    });

    it('refuses a batch without answers or without a session id', async () => {
      const before = await written();
      const noAnswers = await rest('addAnswers', { sessionId }, who.T as string);
      expectRefusal(noAnswers.body, noAnswers.status, absent('answers'), 'addAnswers');
      const noSession = await rest('addAnswers', { answers: [answer('X', 0)] }, who.T as string);
      expectRefusal(noSession.body, noSession.status, absent('sessionId'), 'addAnswers');
      expect(await written()).toStrictEqual(before);
    });

    it('accepts an answer 4 minutes ahead of the clock, and refuses one 6 minutes ahead', async () => {
      await expectAnswersRefused(
        [answer('A', 0, { answeredAt: fromNow(6) })],
        bad('answers[0].answeredAt'),
        who.A,
      );
      const accepted = await rest(
        'addAnswers',
        { sessionId, answers: [answer('A', 0, { answeredAt: fromNow(4) })] },
        who.A as string,
      );
      expect(accepted).toStrictEqual({
        status: 200,
        body: { sessionId, received: 1, inserted: 1, updated: 0, unchanged: 0 },
      });
    });
  });

  describe('addAnswers: who may write (§9)', () => {
    async function attends(userRef: string): Promise<boolean> {
      return (
        (await count(
          `SELECT COUNT(*) AS n FROM session_attendees WHERE session_id = ${Number(sessionId)} AND user_id = ${Number(user(userRef))}`,
        )) === 1
      );
    }

    it('the owner may not write for a stranger nor an unknown id: the same 400 for both, nothing written', async () => {
      const stranger = await expectAnswersRefused(
        [answer('X', 0), answer('A', 1), answer('N', 2)],
        bad('answers[2].userId'),
      );
      const unknown = await expectAnswersRefused(
        [answer('X', 0), answer('A', 1), answer('X', 2, { userId: '999999' })],
        bad('answers[2].userId'),
      );
      expect(stranger.reason).toBe(`user ${user('N')} is unknown or not known to the requester`);
      expect(unknown.reason).toBe('user 999999 is unknown or not known to the requester');
      expect(await attends('N')).toBe(false);
    });

    it('the owner writes for a user they know: one who did not attend becomes an attendee (REST and GraphQL)', async () => {
      expect(await attends('X')).toBe(false);
      expect(await attends('Y')).toBe(false);
      const before = await written();
      const byRest = await rest(
        'addAnswers',
        { sessionId, answers: [answer('X', 3, { answer: 'paris' })] },
        who.T as string,
      );
      expect(byRest).toStrictEqual({
        status: 200,
        body: { sessionId, received: 1, inserted: 1, updated: 0, unchanged: 0 },
      });
      const byGraphQL = await gqlAnswers([answer('Y', 3, { answer: 'Rome' })], who.T as string);
      expect(byGraphQL.body).toStrictEqual({
        data: { addAnswers: { sessionId, received: 1, inserted: 1, updated: 0, unchanged: 0 } },
      });
      expect(await attends('X')).toBe(true);
      expect(await attends('Y')).toBe(true);
      const after = await written();
      expect(after.answers - before.answers).toBe(2);
      expect(after.attendees - before.attendees).toBe(2);
      expect(after.versions - before.versions).toBe(2);
      const stored = (await dataSource.query(
        `SELECT user_id, value, good FROM answers WHERE session_id = ? AND user_id IN (?, ?) ORDER BY user_id`,
        [Number(sessionId), Number(user('X')), Number(user('Y'))],
      )) as Json[];
      expect(stored.map((row) => [String(row.user_id), row.value, Number(row.good)])).toStrictEqual(
        [
          [user('X'), '"paris"', 1],
          [user('Y'), '"Rome"', 0],
        ],
      );
    });

    it('an attendee writes their own answers (REST and GraphQL)', async () => {
      const byRest = await rest('addAnswers', { sessionId, answers: [answer('B', 0)] }, who.B);
      expect(byRest.status).toBe(200);
      expect(byRest.body).toMatchObject({ received: 1, inserted: 1 });
      const byGraphQL = await gqlAnswers([answer('B', 1)], who.B as string);
      expect(byGraphQL.body.data?.addAnswers).toMatchObject({ received: 1, inserted: 1 });
    });

    it("an attendee may not write another user's answer: 403, nothing of the batch written", async () => {
      const body = await expectAnswersRefused(
        [answer('A', 1), answer('A', 2), answer('B', 2)],
        { status: 403, type: 'UnauthorizedOperationException' },
        who.A,
      );
      expect(body.reason).toBe(
        `answers[2].userId: an attendee writes only their own answers (user ${user('B')})`,
      );
    });

    it('a user who does not attend may not write, not even for themself: 403', async () => {
      const body = await expectAnswersRefused(
        [answer('N', 0)],
        { status: 403, type: 'UnauthorizedOperationException' },
        who.N,
      );
      expect(body.reason).toBe('only the owner and the attendees of a session write its answers');
    });

    it('an anonymous requester: 401', async () => {
      await expectAnswersRefused(
        [answer('A', 0)],
        { status: 401, type: 'UnauthorizedOperationException' },
        who.anonymous,
      );
    });

    it.each(['token of another key', 'unknown key'])(
      '%s: 401 on REST, and GraphQL refuses the request',
      async (requester) => {
        const before = await written();
        const refused = await rest(
          'addAnswers',
          { sessionId, answers: [answer('A', 0)] },
          who[requester] as string,
        );
        expect(refused.status).toBe(401);
        expect(refused.body.type).toBe('UnauthorizedOperationException');
        const gql = await gqlAnswers([answer('A', 0)], who[requester] as string);
        expect(gql.status).toBe(401);
        expect(gql.body.errors?.[0]?.extensions).toMatchObject({
          code: 'UNAUTHENTICATED',
          type: 'UnauthorizedOperationException',
          reason: refused.body.reason,
        });
        expect(await written()).toStrictEqual(before);
      },
    );

    it('an unknown session: 404 naming sessionId; a session id that is no id: 400', async () => {
      const body = await expectAnswersRefused(
        [answer('A', 0)],
        { status: 404, type: 'BadParameterException', parameterName: 'sessionId' },
        who.T,
        '999999',
      );
      expect(body.providedValue).toBe('999999');
      await expectAnswersRefused([answer('A', 0)], bad('sessionId'), who.T, 'S');
    });
  });

  describe('survey answers are type-checked and stored without a score', () => {
    it('stores every survey answer with good NULL', async () => {
      const values = [0, [0, 2], false, 'More maps please', '12,5'];
      const answers = values.map((value, index) => ({
        userId: user('A'),
        quizId: quiz('V'),
        questionIndex: index,
        answer: value,
        answeredAt: '2026-11-02 09:30:00',
      }));
      const stored = await rest('addAnswers', { sessionId, answers }, who.A as string);
      expect(stored.body).toStrictEqual({
        sessionId,
        received: 5,
        inserted: 5,
        updated: 0,
        unchanged: 0,
      });
      const rows = (await dataSource.query(
        'SELECT value, good FROM answers WHERE session_id = ? AND user_id = ? AND quiz_id = ? ORDER BY question_id',
        [Number(sessionId), Number(user('A')), Number(quiz('V'))],
      )) as Json[];
      expect(rows).toStrictEqual([
        { value: '0', good: null },
        { value: '[0,2]', good: null },
        { value: 'false', good: null },
        { value: '"More maps please"', good: null },
        { value: '"12.5"', good: null },
      ]);
    });
  });

  describe('addSession refusals: nothing written', () => {
    const session = (extra: Json = {}): Json => ({
      title: 'Tuesday class',
      quizIds: [quiz('K')],
      ...extra,
    });
    const without = (field: string) => () => {
      const value = session();
      delete value[field];
      return value;
    };
    const cases: [string, () => Json, Refusal][] = [
      ['title missing', without('title'), absent('session.title')],
      ['title blank', () => session({ title: '   ' }), bad('session.title')],
      ['title of 251 characters', () => session({ title: 't'.repeat(251) }), bad('session.title')],
      ['quizIds missing', without('quizIds'), absent('session.quizIds')],
      ['no quiz', () => session({ quizIds: [] }), bad('session.quizIds')],
      [
        '101 quizzes',
        () => session({ quizIds: Array.from({ length: 101 }, (_, i) => String(i + 1)) }),
        bad('session.quizIds'),
      ],
      [
        'a quiz twice',
        () => session({ quizIds: [quiz('K'), quiz('V'), quiz('K')] }),
        bad('session.quizIds[2]'),
      ],
      [
        'an unknown quiz',
        () => session({ quizIds: [quiz('K'), '999999'] }),
        bad('session.quizIds[1]'),
      ],
      [
        'a private quiz of another author',
        () => session({ quizIds: [quiz('K'), quiz('Oprivate')] }),
        bad('session.quizIds[1]'),
      ],
      [
        'a draft of another author',
        () => session({ quizIds: [quiz('Odraft'), quiz('K')] }),
        bad('session.quizIds[0]'),
      ],
      ['a quiz id that is no id', () => session({ quizIds: ['K'] }), bad('session.quizIds[0]')],
      [
        'an unknown attendee',
        () => session({ attendeeIds: [user('A'), '999999'] }),
        bad('session.attendeeIds[1]'),
      ],
      [
        'a user who exists but is a stranger to the owner',
        () => session({ attendeeIds: [user('A'), user('N')] }),
        bad('session.attendeeIds[1]'),
      ],
      [
        'the author of a quiz, a stranger to the owner',
        () => session({ attendeeIds: [user('O')] }),
        bad('session.attendeeIds[0]'),
      ],
      [
        'an attendee twice',
        () => session({ attendeeIds: [user('A'), user('A')] }),
        bad('session.attendeeIds[1]'),
      ],
      [
        'clientRef of 65 characters',
        () => session({ clientRef: 'c'.repeat(65) }),
        bad('session.clientRef'),
      ],
      [
        'startDate a day that does not exist',
        () => session({ startDate: '2026-11-31 08:00:00' }),
        bad('session.startDate'),
      ],
    ];

    it.each(cases)('%s', async (_label, make, refusal) => {
      const before = await written();
      const result = await expectParity(
        app.url,
        'addSession',
        { session: JSON.stringify(make()) },
        who.T as string,
      );
      expectRefusal(result.body, result.status, refusal, 'addSession');
      expect(await written()).toStrictEqual(before);
    });

    it('refuses values GraphQL cannot carry: REST names them, Apollo refuses the request', async () => {
      const cases: [Json, string, string][] = [
        [session({ title: 12 }), 'session.title', 'title'],
        [session({ quizIds: [true] }), 'session.quizIds[0]', 'quizIds'],
        [session({ startDate: 20261103 }), 'session.startDate', 'startDate'],
      ];
      for (const [value, parameterName, mention] of cases) {
        const before = await written();
        const refused = await rest('addSession', { session: value }, who.T as string);
        expectRefusal(refused.body, refused.status, bad(parameterName), 'addSession');
        const gql = await graphql(
          app.url,
          'mutation ($s: SessionInput!) { addSession(session: $s) { id } }',
          { variables: { s: value }, search: `?${who.T}` },
        );
        expect(gql.status).toBe(400);
        expect(gql.body.errors?.map((error) => error.extensions?.code)).toStrictEqual([
          'BAD_USER_INPUT',
        ]);
        expect(gql.body.errors?.[0]?.message).toContain(mention);
        expect(await written()).toStrictEqual(before);
      }
    });

    it('refuses an anonymous requester (401), and accepts the same session with a token', async () => {
      const before = await written();
      const refused = await expectParity(
        app.url,
        'addSession',
        { session: JSON.stringify(session({ quizIds: [quiz('K'), quiz('V')] })) },
        who.anonymous as string,
      );
      expect(refused.status).toBe(401);
      expect(refused.body.type).toBe('UnauthorizedOperationException');
      expect(await written()).toStrictEqual(before);
      // The author of the private quiz may play it; 64 characters of clientRef are accepted.
      const made = await rest(
        'addSession',
        {
          session: {
            title: 'Private quiz session',
            quizIds: [quiz('Oprivate'), quiz('Odraft')],
            clientRef: 'c'.repeat(64),
          },
        },
        who.O as string,
      );
      expect(made.status).toBe(200);
      expect(made.body).toMatchObject({ quizIds: [quiz('Oprivate'), quiz('Odraft')] });
      const after = await written();
      expect([after.sessions - before.sessions, after.played - before.played]).toStrictEqual([
        1, 2,
      ]);
    });
  });

  describe('getSession: the owner and the attendees see it', () => {
    it.each([
      ['the owner', 'T', 200],
      ['an attendee', 'A', 200],
      ['an attendee made by the owner writing their answers', 'X', 200],
      ['a user who does not attend', 'N', 403],
      ['the author of its quiz who does not attend', 'O', 403],
      ['an anonymous requester', 'anonymous', 401],
    ])('%s: %s → %i', async (_label, requester, status) => {
      if (requester === 'X') {
        // X attends once the owner has written an answer for them.
        const made = await rest(
          'addAnswers',
          { sessionId, answers: [answer('X', 2, { answer: false })] },
          who.T as string,
        );
        expect(made.status).toBe(200);
      }
      const result = await expectParity(
        app.url,
        'getSession',
        { sessionId },
        who[requester] as string,
      );
      expect(result.status).toBe(status);
      if (status === 200) {
        expect(result.body).toMatchObject({
          id: sessionId,
          title: 'Monday class',
          startDate: '2026-11-02 08:30:00',
          quizIds: [quiz('K'), quiz('V')],
        });
        expect((result.body.owner as Json).id).toBe(user('T'));
      } else {
        expect(result.body.type).toBe('UnauthorizedOperationException');
      }
    });

    it('an unknown session: 404 naming sessionId', async () => {
      const result = await expectParity(
        app.url,
        'getSession',
        { sessionId: '999999' },
        who.T as string,
      );
      expectRefusal(
        result.body,
        result.status,
        { status: 404, type: 'BadParameterException', parameterName: 'sessionId' },
        'getSession',
      );
    });
  });
});

import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap, ImportDocument } from '../../src/data/import/import-document';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend } from '../helpers/database';
import { graphql } from '../helpers/graphql';
import { expectParity } from '../helpers/parity';

/**
 * The attacks of issue "no account can be turned against the class", replayed request by request
 * as a pupil and as a bare API key would, over a population of more than 2,000 users, on both
 * databases and both wires (contract.md §4, §6, §7, §9, §14). With LEGACY_OPEN_READS off every
 * one is refused or reads null; with it on, attendance, who played what and per-pupil aggregates
 * (items 3 and 4) read as the legacy service did, and everything else stays closed.
 *
 * T owns session S (the quiz K of five true-or-false questions and the survey V of one multiple
 * choice) attended by Jade and four classmates, all of whom answered both; Jade raised her hand
 * and has 5/5 on K. Mallory is a pupil who knows no one. 2,000 more pupils fill the database;
 * one of them, Hugo Laurent, is the name searched for in item 7.
 */

const POPULATION = 2000;
const CLASSMATES = ['c1', 'c2', 'c3', 'c4'];
const generated = Array.from(
  { length: POPULATION },
  (_, i) => `g${String(i + 1).padStart(4, '0')}`,
);

const K_QUESTIONS = 5;
const DOCUMENT: ImportDocument = {
  users: [
    { ref: 'T', email: 't@replay.example', firstName: 'Tara', lastName: 'Teacher' },
    { ref: 'Jade', email: 'jade@replay.example', firstName: 'Jade', lastName: 'Nguyen' },
    { ref: 'M', email: 'mallory@replay.example', firstName: 'Mallory', lastName: 'Pupil' },
    ...CLASSMATES.map((ref) => ({
      ref,
      email: `${ref}@replay.example`,
      firstName: 'Class',
      lastName: `Mate ${ref}`,
    })),
    ...generated.map((ref, i) => ({
      ref,
      email: `${ref}@replay.example`,
      firstName: i === 0 ? 'Hugo' : `First${ref}`,
      lastName: i === 0 ? 'Laurent' : `Last${ref}`,
    })),
  ],
  quizzes: [
    {
      ref: 'K',
      author: 'T',
      title: 'Five facts',
      visibility: 'public',
      survey: false,
      tags: ['facts', 'replay'],
      questions: Array.from({ length: K_QUESTIONS }, (_, i) => ({
        title: `Fact ${i + 1}?`,
        type: 'TrueFalse' as const,
        goodAnswer: true,
      })),
    },
    {
      ref: 'V',
      author: 'T',
      title: 'End of term feedback',
      visibility: 'public',
      survey: true,
      tags: ['survey', 'replay'],
      questions: [
        {
          title: 'Which topic did you like?',
          type: 'MultipleChoicesOneGoodAnswer' as const,
          propositions: ['fractions', 'geometry', 'algebra'],
        },
      ],
    },
  ],
  sessions: [
    {
      ref: 'S',
      owner: 'T',
      title: 'Monday math, class 5A',
      startDate: '2026-11-02 08:30:00',
      quizzes: ['K', 'V'],
      attendees: [
        { user: 'Jade', raisedHand: true },
        ...CLASSMATES.map((user) => ({ user, raisedHand: false })),
      ],
    },
  ],
  answers: ['Jade', ...CLASSMATES].flatMap((user, pupil) => [
    // Jade answers every question of K well; classmate n well the first n questions.
    ...Array.from({ length: K_QUESTIONS }, (_, question) => ({
      session: 'S',
      user,
      quiz: 'K',
      question,
      answer: user === 'Jade' || question < pupil,
      answeredAt: `2026-11-02 08:4${question}:00`,
    })),
    // Jade chooses "algebra" (2) in the survey; each classmate another topic.
    {
      session: 'S',
      user,
      quiz: 'V',
      question: 0,
      answer: user === 'Jade' ? 2 : pupil % 2,
      answeredAt: '2026-11-02 08:50:00',
    },
  ]),
};

type Json = Record<string, unknown>;

const ADD_ANSWERS =
  'mutation ($id: ID!, $a: [AnswerInput!]!) { addAnswers(sessionId: $id, answers: $a) { inserted } }';
const SESSION_RESULTS = `query ($sessionId: ID!, $groupBy: GroupBy, $functions: [AggregationFunction!],
  $types: [ResultType!]) { getSessionResults(sessionId: $sessionId, groupBy: $groupBy,
  aggregationFunctions: $functions, resultTypes: $types) { results { items { ... on ComputedResult {
  userId aggregationFunction nbGoodAnswers goodAnswersPercent } } } } }`;

describe.each(BACKENDS)('privacy: the attacks replayed on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let ids: IdMap;
  let key: { id: number; secret: string };
  const token: Record<'T' | 'Jade' | 'M', string> = { T: '', Jade: '', M: '' };
  const apps: Record<'closed' | 'legacy', TestApp | undefined> = {
    closed: undefined,
    legacy: undefined,
  };

  const user = (ref: string) => ids.users[ref] as string;
  const bare = () => `apiKey=${key.secret}`;
  const as = (ref: keyof typeof token) => `apiKey=${key.secret}&accessToken=${token[ref]}`;

  async function count(sql: string): Promise<number> {
    const [row] = (await dataSource.query(sql)) as { n: unknown }[];
    return Number(row?.n ?? 0);
  }

  /** Everything a write to the class could change. */
  async function written(): Promise<Json> {
    return {
      answers: await count('SELECT COUNT(*) AS n FROM answers'),
      attendees: await count('SELECT COUNT(*) AS n FROM session_attendees'),
    };
  }

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'privacy_replay'));
    ids = await loadData(dataSource, DOCUMENT);
    key = await createTestApiKey(dataSource, 'localhost');
    for (const ref of Object.keys(token) as (keyof typeof token)[]) {
      token[ref] = await createTestToken(dataSource, Number(user(ref)), key.id);
    }
    // At info, as a production instance logs (item 7).
    apps.closed = await startTestApp(dataSource, { LOG_LEVEL: 'info' });
    apps.legacy = await startTestApp(dataSource, { LOG_LEVEL: 'info', LEGACY_OPEN_READS: 'true' });
  });

  afterAll(async () => {
    await apps.closed?.close();
    await apps.legacy?.close();
    await close?.();
  });

  describe.each(['closed', 'legacy'] as const)('with LEGACY_OPEN_READS %s', (mode) => {
    const legacy = mode === 'legacy';
    const app = () => apps[mode] as TestApp;

    async function rest(operation: string, params: Record<string, string>, credentials: string) {
      const res = await fetch(
        `${app().url}/${operation}?${new URLSearchParams(params)}&${credentials}`,
      );
      return { status: res.status, body: (await res.json()) as Json, text: '' };
    }

    function gql(query: string, variables: Json, credentials: string) {
      return graphql(app().url, query, { variables, search: `?${credentials}` });
    }

    /** Aggregated or detailed results of a session over GraphQL (it has no REST operation). */
    async function sessionResults(params: Json, credentials: string) {
      const reply = await gql(SESSION_RESULTS, params, credentials);
      return {
        errors: reply.body.errors,
        items: (
          reply.body.data?.getSessionResults as { results: { items: Json[] } } | null | undefined
        )?.results.items,
      };
    }

    async function post(operation: string, body: Json, credentials: string) {
      const res = await fetch(`${app().url}/${operation}?${credentials}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Json };
    }

    it('1. a pupil cannot name the class: every batch naming others is refused alike, nothing written, no name read', async () => {
      const before = await written();
      const made = await post(
        'addSession',
        { session: { title: 'My session', quizIds: [ids.quizzes.K] } },
        as('M'),
      );
      expect(made.status).toBe(200);
      const sessionId = String(made.body.id);
      const everyone = Object.values(ids.users)
        .map(Number)
        .sort((a, b) => a - b);
      expect(everyone.length).toBeGreaterThan(POPULATION);
      const answers = everyone.map((userId) => ({
        userId: String(userId),
        quizId: ids.quizzes.K,
        questionIndex: 0,
        answer: true,
      }));
      const firstOther = everyone.findIndex((id) => String(id) !== user('M'));
      const refused = await post('addAnswers', { sessionId, answers }, as('M'));
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        type: 'BadParameterException',
        parameterName: `answers[${firstOther}].userId`,
        reason: `user ${everyone[firstOther]} is unknown or not known to the requester`,
      });
      const overGraphQL = await gql(ADD_ANSWERS, { id: sessionId, a: answers }, as('M'));
      expect(overGraphQL.body.errors?.[0]?.extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        type: 'BadParameterException',
        parameterName: `answers[${firstOther}].userId`,
        reason: refused.body.reason,
      });
      // A stranger and an id that names no one are refused in the same words.
      const stranger = await post(
        'addAnswers',
        { sessionId, answers: [{ ...answers[0], userId: user('Jade') }] },
        as('M'),
      );
      const nobody = await post(
        'addAnswers',
        { sessionId, answers: [{ ...answers[0], userId: '1999999999' }] },
        as('M'),
      );
      const shape = (reply: { status: number; body: Json }) => ({
        status: reply.status,
        type: reply.body.type,
        parameterName: reply.body.parameterName,
        reason: String(reply.body.reason).replace(/\d+/, 'N'),
      });
      expect(shape(stranger)).toStrictEqual(shape(nobody));
      // Nor as attendees of a new session.
      const asAttendees = await post(
        'addSession',
        { session: { title: 'Everyone', quizIds: [ids.quizzes.K], attendeeIds: [user('Jade')] } },
        as('M'),
      );
      expect(asAttendees.status).toBe(400);
      expect(asAttendees.body.parameterName).toBe('session.attendeeIds[0]');
      // One GraphQL document of ten addAnswers fields gets no further than one.
      const fields = Array.from({ length: 10 }, (_, i) => i);
      const slice = Math.ceil(everyone.length / fields.length);
      const document = `mutation (${fields.map((i) => `$a${i}: [AnswerInput!]!`).join(', ')}) { ${fields
        .map((i) => `f${i}: addAnswers(sessionId: "${sessionId}", answers: $a${i}) { inserted }`)
        .join(' ')} }`;
      const variables = Object.fromEntries(
        fields.map((i) => [
          `a${i}`,
          answers.slice(i * slice, (i + 1) * slice).filter((a) => a.userId !== user('M')),
        ]),
      );
      const many = await graphql(app().url, document, { variables, search: `?${as('M')}` });
      expect(many.body.errors).toHaveLength(fields.length);
      for (const error of many.body.errors ?? []) {
        expect(error.extensions).toMatchObject({
          code: 'BAD_USER_INPUT',
          type: 'BadParameterException',
          parameterName: 'answers[0].userId',
        });
      }
      expect(await written()).toStrictEqual(before);
      // The session has no attendee, so its attendance names no one; neither does its export.
      const set = await rest('getUserSet', { sessionId }, as('M'));
      expect(set.status).toBe(200);
      expect(set.body.totalNumberOfItems).toBe(0);
      const csv = await fetch(
        `${app().url}/exportDataSet?dataSetId=${String(set.body.dataSetId)}&format=csv&${as('M')}`,
      );
      expect(csv.status).toBe(200);
      const exported = await csv.text();
      expect(exported).not.toContain('Nguyen');
      expect(exported).not.toContain('Mate c1');
      // Jade is still a stranger to Mallory.
      const jade = await expectParity(app().url, 'getUser', { userId: user('Jade') }, as('M'));
      expect(jade.body).toStrictEqual({ id: user('Jade') });
    });

    it('2. nothing was written into classmates’ records: players, attendance and their results are as before', async () => {
      const nbPlayers = await expectParity(
        app().url,
        'getQuizAttribute',
        { quizId: ids.quizzes.K, attributeName: 'nbPlayers' },
        bare(),
      );
      expect(nbPlayers.body.itemValue).toBe(1 + CLASSMATES.length);
      // Jade attends T's session only; what she played is Mallory's to read only under the
      // legacy open reads, and then it is what she really played.
      const attended = (await dataSource.query(
        'SELECT session_id FROM session_attendees WHERE user_id = ?',
        [Number(user('Jade'))],
      )) as { session_id: unknown }[];
      expect(attended.map((row) => String(row.session_id))).toStrictEqual([ids.sessions.S]);
      const played = await expectParity(app().url, 'getQuizSet', { player: user('Jade') }, as('M'));
      expect((played.body.items as Json[]).map((quiz) => quiz.id)).toStrictEqual(
        legacy ? [ids.quizzes.K, ids.quizzes.V] : [],
      );
      // Jade's own results show her attempts in T's session only.
      const own = await rest('getUserSet', { userId: user('Jade') }, as('Jade'));
      const quizzes = await rest('getQuizSet', { quizId: ids.quizzes.K }, as('Jade'));
      const results = await rest(
        'getResults',
        { userSetId: String(own.body.dataSetId), quizSetId: String(quizzes.body.dataSetId) },
        as('Jade'),
      );
      expect(results.status).toBe(200);
      expect((results.body.items as Json[]).map((item) => item.sessionId)).toStrictEqual([
        ids.sessions.S,
      ]);
    });

    it('3. a bare API key reads no pupil’s score (legacy: it does)', async () => {
      const users = await expectParity(app().url, 'getUserSet', { userId: user('Jade') }, bare());
      const quizzes = await expectParity(
        app().url,
        'getQuizSet',
        { quizId: ids.quizzes.K },
        bare(),
      );
      const params = {
        userSetId: String(users.body.dataSetId),
        quizSetId: String(quizzes.body.dataSetId),
        sessionIds: ids.sessions.S as string,
        aggregationFunctions: 'min',
        groupBy: 'user',
        resultTypes: 'nbGoodAnswers,goodAnswersPercent',
      };
      const results = await rest('getResults', params, bare());
      expect(results.status).toBe(200);
      const score = legacy
        ? { nbGoodAnswers: K_QUESTIONS, goodAnswersPercent: 100 }
        : { nbGoodAnswers: null, goodAnswersPercent: null };
      expect(results.body.items).toStrictEqual([
        { id: '1', userId: user('Jade'), aggregationFunction: 'min', ...score },
      ]);
      const overGraphQL = await gql(
        `query ($u: ID!, $q: ID!, $s: [ID!]) { getResults(userSetId: $u, quizSetId: $q, sessionIds: $s,
           aggregationFunctions: [min], groupBy: user, resultTypes: [nbGoodAnswers, goodAnswersPercent])
           { items { ... on ComputedResult { userId nbGoodAnswers goodAnswersPercent } } } }`,
        { u: params.userSetId, q: params.quizSetId, s: [params.sessionIds] },
        bare(),
      );
      expect(overGraphQL.body.data?.getResults).toStrictEqual({
        items: [{ userId: user('Jade'), ...score }],
      });
      const session = { sessionId: ids.sessions.S, groupBy: 'user', functions: ['min'] };
      const anonymous = await sessionResults(session, bare());
      const stranger = await sessionResults(session, as('M'));
      if (legacy) {
        expect([anonymous.errors, stranger.errors]).toStrictEqual([undefined, undefined]);
        const jade = anonymous.items?.find((item) => item.userId === user('Jade'));
        expect(jade?.nbGoodAnswers).toBe(K_QUESTIONS);
      } else {
        expect(anonymous.errors?.map((error) => error.extensions?.code)).toStrictEqual([
          'UNAUTHENTICATED',
        ]);
        expect(stranger.errors?.map((error) => error.extensions?.code)).toStrictEqual([
          'FORBIDDEN',
        ]);
      }
    });

    it('4. attendance and who played what need the session’s owner or an attendee (legacy: a key reads them)', async () => {
      const hands = await expectParity(
        app().url,
        'getUserSet',
        { sessionId: ids.sessions.S as string, raisedHand: 'true' },
        bare(),
      );
      const byStranger = await expectParity(
        app().url,
        'getUserSet',
        { sessionId: ids.sessions.S as string, raisedHand: 'true' },
        as('M'),
      );
      const played = await expectParity(app().url, 'getQuizSet', { player: user('Jade') }, bare());
      if (legacy) {
        expect(hands.status).toBe(200);
        expect(hands.body.items).toStrictEqual([{ id: user('Jade') }]);
        expect(byStranger.status).toBe(200);
        expect((played.body.items as Json[]).map((quiz) => quiz.id)).toStrictEqual([
          ids.quizzes.K,
          ids.quizzes.V,
        ]);
      } else {
        expect([hands.status, byStranger.status]).toStrictEqual([401, 403]);
        expect(played.body.totalNumberOfItems).toBe(0);
      }
      // The owner reads it either way, with the names of the pupils they know.
      const byOwner = await expectParity(
        app().url,
        'getUserSet',
        { sessionId: ids.sessions.S as string, raisedHand: 'true' },
        as('T'),
      );
      expect(byOwner.body.items).toStrictEqual([
        { id: user('Jade'), firstName: 'Jade', lastName: 'Nguyen', pictureURL: null },
      ]);
    });

    it('5. a survey is not read back per pupil, even by the teacher', async () => {
      const quizSet = await rest('getQuizSet', { quizId: ids.quizzes.V }, as('T'));
      const statistics = async (userSetId: unknown) => {
        const params = { userSetId: String(userSetId), quizSetId: String(quizSet.body.dataSetId) };
        const reply = await rest('getQuestionStatistics', params, as('T'));
        expect(reply.status).toBe(200);
        const overGraphQL = await gql(
          `query ($u: ID!, $q: ID!) { getQuestionStatistics(userSetId: $u, quizSetId: $q)
             { items { ... on QuestionStatistic { choiceCounts } } } }`,
          { u: params.userSetId, q: params.quizSetId },
          as('T'),
        );
        const counts = (reply.body.items as Json[]).map((item) => item.choiceCounts);
        expect(overGraphQL.body.data?.getQuestionStatistics).toStrictEqual({
          items: counts.map((choiceCounts) => ({ choiceCounts })),
        });
        return counts;
      };
      const jadeAlone = await rest('getUserSet', { userId: user('Jade') }, as('T'));
      expect(await statistics(jadeAlone.body.dataSetId)).toStrictEqual([null]);
      // The whole class (5 answers, SURVEY_MIN_RESPONSES by default) is shown.
      const klass = await rest('getUserSet', { sessionId: ids.sessions.S as string }, as('T'));
      expect(await statistics(klass.body.dataSetId)).toStrictEqual([[2, 2, 1]]);
    });

    it('6. no credential is echoed, wherever it was put', async () => {
      const res = await fetch(`${app().url}/getUserSet&${as('M')}`);
      expect(res.status).toBe(404);
      const text = await res.text();
      expect(text).not.toContain(key.secret);
      expect(text).not.toContain(token.M);
      const gql = await graphql(app().url, '{ getUser(userId: "x") { id } }', {
        search: `?${as('M')}`,
      });
      expect(JSON.stringify(gql.body)).not.toContain(key.secret);
    });

    it('7. a searched name is not logged at info', async () => {
      const lines = app().logs.lines.length;
      const search = await rest('getQuizSet', { keywords: 'Laurent' }, as('M'));
      expect(search.status).toBe(200);
      const logged = app().logs.lines.slice(lines).join('\n');
      expect(logged).toContain('getQuizSet');
      expect(logged).not.toContain('Laurent');
      expect(app().logs.text).not.toContain('Nguyen');
      expect(app().logs.text).not.toContain(key.secret);
    });

    it('8. session averages leave the survey out: 5/5 on the quiz reads 100 %', async () => {
      const averages = await sessionResults(
        {
          sessionId: ids.sessions.S,
          groupBy: 'user',
          functions: ['average', 'count'],
          types: ['goodAnswersPercent'],
        },
        as('T'),
      );
      expect(averages.errors).toBeUndefined();
      const jade = (averages.items ?? []).filter((item) => item.userId === user('Jade'));
      expect(jade).toStrictEqual([
        expect.objectContaining({ aggregationFunction: 'average', goodAnswersPercent: 100 }),
        // count still counts the survey's attempt.
        expect.objectContaining({ aggregationFunction: 'count', goodAnswersPercent: 2 }),
      ]);
    });
  });
});

import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap, ImportDocument } from '../../src/data/import/import-document';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend } from '../helpers/database';
import { graphql } from '../helpers/graphql';

/**
 * One datetime scalar on GraphQL input and output (contract.md §15): `AnswerInput.answeredAt`
 * and `SessionInput.startDate` are DateTimeISO, which takes ISO 8601 with any offset and REST's
 * `YYYY-MM-DD hh:mm:ss` (UTC); REST keeps its one wire form (§1). Both wires store the same
 * instant, to the second, and a value of neither form changes nothing.
 */

const CLASS: ImportDocument = {
  users: ['T', 'A'].map((ref) => ({
    ref,
    email: `${ref.toLowerCase()}@datetime.example`,
    firstName: ref,
    lastName: 'Datetime',
  })),
  quizzes: [
    {
      ref: 'K',
      author: 'T',
      title: 'Ten true or false',
      visibility: 'public',
      survey: false,
      tags: ['datetime', 'input'],
      questions: Array.from({ length: 10 }, (_, index) => ({
        title: `Statement ${index}`,
        type: 'TrueFalse' as const,
        goodAnswer: true,
      })),
    },
  ],
  sessions: [
    {
      ref: 'S',
      owner: 'T',
      title: 'Datetime class',
      startDate: '2026-11-02 08:30:00',
      quizzes: ['K'],
      attendees: [{ user: 'A' }],
    },
  ],
};

type Json = Record<string, unknown>;

const ADD_ANSWERS = `mutation ($sessionId: ID!, $answers: [AnswerInput!]!) {
  addAnswers(sessionId: $sessionId, answers: $answers) { received inserted }
}`;
const ADD_SESSION = `mutation ($session: SessionInput!) {
  addSession(session: $session) { id startDate }
}`;

describe.each(BACKENDS)('datetime inputs on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let ids: IdMap;
  let teacher: string;

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'datetime_input'));
    ids = await loadData(dataSource, CLASS);
    const key = await createTestApiKey(dataSource, 'localhost');
    const token = await createTestToken(dataSource, Number(ids.users.T), key.id);
    teacher = `apiKey=${key.secret}&accessToken=${token}`;
    app = await startTestApp(dataSource);
  });

  afterAll(async () => {
    await app?.close();
    await close?.();
  });

  const answer = (questionIndex: number, answeredAt: unknown): Json => ({
    userId: ids.users.A,
    quizId: ids.quizzes.K,
    questionIndex,
    answer: true,
    answeredAt,
  });

  /** When the stored answer to `questionIndex` was given, as REST's wire form. */
  async function storedAt(questionIndex: number): Promise<string | undefined> {
    const rows = (await dataSource.query(
      `SELECT a.answered_at AS at FROM answers a JOIN questions q ON q.id = a.question_id
       WHERE a.session_id = ? AND q.position = ?`,
      [Number(ids.sessions.S), questionIndex],
    )) as { at: unknown }[];
    const at = rows[0]?.at;
    if (at === undefined) return undefined;
    const date = at instanceof Date ? at : new Date(`${String(at).replace(' ', 'T')}Z`);
    return date.toISOString().slice(0, 19).replace('T', ' ');
  }

  async function answersCount(): Promise<number> {
    const [row] = (await dataSource.query('SELECT COUNT(*) AS n FROM answers')) as { n: unknown }[];
    return Number(row?.n);
  }

  function addAnswers(answers: Json[]) {
    return graphql(app.url, ADD_ANSWERS, {
      variables: { sessionId: ids.sessions.S, answers },
      search: `?${teacher}`,
    });
  }

  it('reads ISO 8601 with any offset, and the wire form, as the same UTC instant', async () => {
    const given: [number, string][] = [
      [0, '2026-11-02T09:00:00Z'],
      [1, '2026-11-02T10:00:01+01:00'],
      [2, '2026-11-02T09:00:02.987Z'],
      [3, '2026-11-02T04:00:03-05:00'],
      [4, '2026-11-02 09:00:04'],
    ];
    const gql = await addAnswers(given.map(([index, at]) => answer(index, at)));
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data?.addAnswers).toStrictEqual({ received: 5, inserted: 5 });
    for (const [index] of given) {
      // Fractions of a second are dropped: the service keeps datetimes to the second.
      expect(await storedAt(index)).toBe(`2026-11-02 09:00:0${index}`);
    }
  });

  it('takes the wire form in a literal of the document too', async () => {
    const literal = `mutation { addAnswers(sessionId: "${String(ids.sessions.S)}", answers: [
      { userId: "${String(ids.users.A)}", quizId: "${String(ids.quizzes.K)}", questionIndex: 5,
        answer: true, answeredAt: "2026-11-02 09:00:05" },
      { userId: "${String(ids.users.A)}", quizId: "${String(ids.quizzes.K)}", questionIndex: 6,
        answer: true, answeredAt: "2026-11-02T09:00:06Z" }
    ]) { inserted } }`;
    const gql = await graphql(app.url, literal, { search: `?${teacher}` });
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data?.addAnswers).toStrictEqual({ inserted: 2 });
    expect(await storedAt(5)).toBe('2026-11-02 09:00:05');
    expect(await storedAt(6)).toBe('2026-11-02 09:00:06');
  });

  it.each([
    ['without seconds', '2026-11-02 09:00'],
    ['a day that does not exist', '2026-02-30 09:00:00'],
    ['ISO without an offset', '2026-11-02T09:00:00'],
    ['a month that does not exist', '2026-13-02T09:00:00Z'],
    ['a number', 1_700_000_000],
    ['text', 'yesterday'],
  ])('refuses a datetime %s as BadParameterException on its path', async (_label, value) => {
    const before = await answersCount();
    const gql = await addAnswers([answer(7, '2026-11-02 09:00:07'), answer(8, value)]);
    expect(gql.status).toBe(400);
    expect(gql.body).not.toHaveProperty('data');
    expect(gql.body.errors).toHaveLength(1);
    expect(gql.body.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      type: 'BadParameterException',
      operation: 'graphql',
      parameterName: 'answers[1].answeredAt',
      providedValue: String(value),
    });
    expect(String(gql.body.errors?.[0]?.extensions?.reason)).toContain('ISO 8601');
    expect(await answersCount()).toBe(before);
  });

  it('keeps REST to its wire form: ISO 8601 is refused on the answer path', async () => {
    const before = await answersCount();
    const res = await app.get(`/addAnswers?${teacher}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        sessionId: ids.sessions.S,
        answers: [answer(9, '2026-11-02 09:00:09'), answer(9, '2026-11-02T09:00:09Z')],
      }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      type: 'BadParameterException',
      operation: 'addAnswers',
      parameterName: 'answers[1].answeredAt',
    });
    expect(await answersCount()).toBe(before);
    const session = await app.get(`/addSession?${teacher}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        session: { title: 'ISO', quizIds: [ids.quizzes.K], startDate: '2026-11-03T08:00:00Z' },
      }),
    });
    expect(session.status).toBe(400);
    expect(await session.json()).toMatchObject({
      type: 'BadParameterException',
      operation: 'addSession',
      parameterName: 'session.startDate',
    });
  });

  it('answers a session start given in either form as the ISO instant, and REST in its form', async () => {
    for (const startDate of ['2026-11-03T09:30:00+01:00', '2026-11-03 08:30:00']) {
      const gql = await graphql(app.url, ADD_SESSION, {
        variables: { session: { title: 'Tuesday', quizIds: [ids.quizzes.K], startDate } },
        search: `?${teacher}`,
      });
      expect(gql.body.errors).toBeUndefined();
      const made = gql.body.data?.addSession as Json;
      expect(made.startDate).toBe('2026-11-03T08:30:00.000Z');
      const rest = await app.get(`/getSession?${teacher}&sessionId=${String(made.id)}`);
      expect(((await rest.json()) as Json).startDate).toBe('2026-11-03 08:30:00');
    }
  });
});

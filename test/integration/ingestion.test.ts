import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { ImportDocument } from '../../src/data/import/import-document';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend } from '../helpers/database';
import { graphql } from '../helpers/graphql';

/**
 * addSession, getSession and addAnswers (contract.md §9) on both wires and both databases: what
 * is written, what is answered, and the replacement rule of repeated answers.
 */

const CLASS: ImportDocument = {
  users: [
    { ref: 't', email: 't@school.example', firstName: 'Tess', lastName: 'Teacher' },
    { ref: 'a', email: 'a@school.example', firstName: 'Ana', lastName: 'Pupil' },
    { ref: 'b', email: 'b@school.example', firstName: 'Ben', lastName: 'Pupil' },
  ],
  // The teacher's class: she may name its pupils and write their answers (contract.md §9).
  groups: [{ ref: 'g', name: 'Geography', owner: 't', members: ['a', 'b'] }],
  quizzes: [
    {
      ref: 'p',
      author: 't',
      title: 'Private draft of a test',
      visibility: 'private',
      survey: false,
      tags: ['geo', 'private'],
      questions: [{ title: 'Sure?', type: 'TrueFalse', goodAnswer: true }],
    },
    {
      ref: 'q',
      author: 't',
      title: 'Capitals',
      visibility: 'public',
      survey: false,
      tags: ['geo', 'europe'],
      questions: [
        { title: 'France?', type: 'FreeAnswerText', goodAnswer: 'Paris', caseSensitive: true },
        {
          title: 'Pick',
          type: 'MultipleChoicesOneGoodAnswer',
          propositions: ['x', 'y'],
          goodAnswer: 1,
        },
        { title: 'Sure?', type: 'TrueFalse', goodAnswer: true },
      ],
    },
    // A quiz without questions yet, and one the sessions below never play.
    {
      ref: 'empty',
      author: 't',
      title: 'Empty',
      visibility: 'public',
      survey: false,
      tags: ['geo', 'draft'],
    },
    {
      ref: 'other',
      author: 't',
      title: 'Rivers',
      visibility: 'public',
      survey: false,
      tags: ['geo', 'rivers'],
      questions: [{ title: 'Longest?', type: 'TrueFalse', goodAnswer: false }],
    },
  ],
};

type Json = Record<string, unknown>;

describe.each(BACKENDS)('ingestion on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let ids: { users: Record<string, string>; quizzes: Record<string, string> };
  let teacher: string;
  let pupil: string;

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'ingestion'));
    ids = (await loadData(dataSource, CLASS)) as typeof ids;
    const key = await createTestApiKey(dataSource, 'localhost');
    teacher = `apiKey=${key.secret}&accessToken=${await createTestToken(dataSource, Number(ids.users.t), key.id)}`;
    pupil = `apiKey=${key.secret}&accessToken=${await createTestToken(dataSource, Number(ids.users.a), key.id)}`;
    app = await startTestApp(dataSource);
  });

  afterAll(async () => {
    await app.close();
    await close();
  });

  async function post(operation: string, body: Json, credentials = teacher) {
    const res = await fetch(`${app.url}/${operation}?${credentials}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  }

  async function storedAnswers(sessionId: string) {
    return (await dataSource.query(
      'SELECT user_id, question_id, value, good, answered_at FROM answers WHERE session_id = ? ORDER BY user_id, question_id',
      [Number(sessionId)],
    )) as Json[];
  }

  it('makes a session owned by the token user, and getSession shows it to its owner and attendees', async () => {
    const made = await post('addSession', {
      session: {
        title: 'Monday',
        quizIds: [ids.quizzes.q],
        startDate: '2026-11-23 08:30:00',
        attendeeIds: [ids.users.a],
      },
    });
    expect(made.status).toBe(200);
    expect(made.body).toStrictEqual({
      id: expect.stringMatching(/^\d+$/) as unknown,
      title: 'Monday',
      startDate: '2026-11-23 08:30:00',
      owner: { id: ids.users.t, firstName: 'Tess', lastName: 'Teacher', pictureURL: null },
      quizIds: [ids.quizzes.q],
      nbAttendees: 1,
      // The owner is shown the code pupils join with (join-session.contract.test.ts tests it).
      joinCode: expect.stringMatching(/^[2-9A-HJKMNP-Z]{8}$/) as unknown,
      joinCodeExpiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) as unknown,
    });
    const id = made.body.id as string;
    const byPupil = await fetch(`${app.url}/getSession?sessionId=${id}&${pupil}`);
    expect(byPupil.status).toBe(200);
    expect(((await byPupil.json()) as Json).title).toBe('Monday');
  });

  it('returns the existing session for a clientRef the owner already used, writing nothing', async () => {
    const session = { title: 'Tuesday', quizIds: [ids.quizzes.q], clientRef: 'app-42' };
    const first = await post('addSession', { session });
    const [{ n: before }] = (await dataSource.query(
      'SELECT COUNT(*) AS n FROM sessions',
    )) as Json[];
    const again = await post('addSession', { session: { ...session, title: 'Other title' } });
    const [{ n: after }] = (await dataSource.query('SELECT COUNT(*) AS n FROM sessions')) as Json[];
    expect(again).toStrictEqual(first);
    expect(Number(after)).toBe(Number(before));
  });

  it('compares clientRefs exactly: another case is another session; trailing spaces are refused', async () => {
    const session = { title: 'Refs', quizIds: [ids.quizzes.q] };
    const lower = await post('addSession', { session: { ...session, clientRef: 'room-7' } });
    const upper = await post('addSession', { session: { ...session, clientRef: 'ROOM-7' } });
    expect([lower.status, upper.status]).toStrictEqual([200, 200]);
    expect(upper.body.id).not.toBe(lower.body.id);
    const again = await post('addSession', { session: { ...session, clientRef: 'ROOM-7' } });
    expect(again.body.id).toBe(upper.body.id);
    const padded = await post('addSession', { session: { ...session, clientRef: 'room-7 ' } });
    if (backend === 'SQLite') {
      // SQLite compares bytes without padding: another ref, another session.
      expect(padded.status).toBe(200);
      expect([lower.body.id, upper.body.id]).not.toContain(padded.body.id);
    } else {
      expect(padded).toStrictEqual({
        status: 400,
        body: expect.objectContaining({
          type: 'BadParameterException',
          parameterName: 'session.clientRef',
          reason: 'differs only by trailing spaces from a clientRef already used',
        }) as unknown,
      });
    }
  });

  it("plays only public quizzes and the owner's own: an attendee cannot pass a private quiz on", async () => {
    const own = await post('addSession', {
      session: { title: 'Private', quizIds: [ids.quizzes.p], attendeeIds: [ids.users.a] },
    });
    expect(own.status).toBe(200);
    // The pupil sees the private quiz, having attended a session that played it...
    const seen = await fetch(`${app.url}/getQuiz?quizId=${ids.quizzes.p}&${pupil}`);
    expect(seen.status).toBe(200);
    // ...but may not play it to another user, who would then see it too.
    const passed = await post(
      'addSession',
      { session: { title: 'Passed on', quizIds: [ids.quizzes.p], attendeeIds: [ids.users.b] } },
      pupil,
    );
    expect(passed).toStrictEqual({
      status: 400,
      body: expect.objectContaining({
        type: 'BadParameterException',
        parameterName: 'session.quizIds[0]',
        reason: `quiz ${ids.quizzes.p} does not exist or is neither public nor the requester's`,
      }) as unknown,
    });
  });

  it('stores answers scored on write, replaces a later different value, keeps the rest', async () => {
    const made = await post('addSession', { session: { title: 'Wed', quizIds: [ids.quizzes.q] } });
    const sessionId = made.body.id as string;
    const q = ids.quizzes.q;
    const a = ids.users.a;
    const first = await post('addAnswers', {
      sessionId,
      answers: [
        {
          userId: a,
          quizId: q,
          questionIndex: 0,
          answer: 'paris',
          answeredAt: '2026-11-23 09:00:00',
        },
        { userId: a, quizId: q, questionIndex: 1, answer: 1, answeredAt: '2026-11-23 09:00:05' },
      ],
    });
    expect(first).toStrictEqual({
      status: 200,
      body: { sessionId, received: 2, inserted: 2, updated: 0, unchanged: 0 },
    });
    const paris = {
      userId: a,
      quizId: q,
      questionIndex: 0,
      answer: 'Paris',
      answeredAt: '2026-11-23 09:01:00',
    };
    const second = await post('addAnswers', {
      sessionId,
      answers: [
        // A later different value replaces (the text differs only by case: case-sensitive).
        paris,
        // An earlier different value is ignored.
        { userId: a, quizId: q, questionIndex: 1, answer: 0, answeredAt: '2026-11-23 08:59:00' },
        // A new answer.
        { userId: a, quizId: q, questionIndex: 2, answer: true, answeredAt: '2026-11-23 09:02:00' },
      ],
    });
    expect(second.body).toStrictEqual({
      sessionId,
      received: 3,
      inserted: 1,
      updated: 1,
      unchanged: 1,
    });
    const rows = await storedAnswers(sessionId);
    expect(rows.map((row) => [row.value, Number(row.good)])).toStrictEqual([
      ['"Paris"', 1],
      ['1', 1],
      ['true', 1],
    ]);
    // The same batch again changes nothing, not even the session's change marker.
    const version = async () =>
      (
        (await dataSource.query('SELECT version FROM session_changes WHERE session_id = ?', [
          Number(sessionId),
        ])) as Json[]
      ).map((row) => Number(row.version));
    expect(await version()).toStrictEqual([2]);
    const repeated = await post('addAnswers', {
      sessionId,
      answers: [paris],
    });
    expect(repeated.body).toMatchObject({ received: 1, inserted: 0, updated: 0, unchanged: 1 });
    expect(await version()).toStrictEqual([2]);
    // The pupil became an attendee by the owner's answers for them.
    const session = await fetch(`${app.url}/getSession?sessionId=${sessionId}&${teacher}`);
    expect(((await session.json()) as Json).nbAttendees).toBe(1);
  });

  it('refuses a batch with one bad answer naming it, and writes nothing', async () => {
    const made = await post('addSession', { session: { title: 'Thu', quizIds: [ids.quizzes.q] } });
    const sessionId = made.body.id as string;
    const good = { userId: ids.users.b, quizId: ids.quizzes.q, questionIndex: 2, answer: false };
    const refused = await post('addAnswers', {
      sessionId,
      answers: [good, good, { ...good, questionIndex: 1, answer: 5 }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      type: 'BadParameterException',
      parameterName: 'answers[2].answer',
    });
    expect(await storedAnswers(sessionId)).toStrictEqual([]);
  });

  it('names the answer whose user, quiz or question the session cannot take; an unknown session is 404', async () => {
    const quizIds = [ids.quizzes.q, ids.quizzes.empty];
    const made = await post('addSession', { session: { title: 'Sat', quizIds } });
    const sessionId = made.body.id as string;
    const good = { userId: ids.users.a, quizId: ids.quizzes.q, questionIndex: 0, answer: 'x' };
    const cases: [Json, string, string][] = [
      [
        { ...good, quizId: ids.quizzes.other },
        'answers[1].quizId',
        `quiz ${ids.quizzes.other} was not played in session ${sessionId}`,
      ],
      [
        { ...good, quizId: ids.quizzes.empty },
        'answers[1].questionIndex',
        `quiz ${ids.quizzes.empty} has no questions`,
      ],
      [
        { ...good, questionIndex: 3 },
        'answers[1].questionIndex',
        'expected a question index between 0 and 2, got 3',
      ],
      [
        { ...good, userId: '999999' },
        'answers[1].userId',
        'user 999999 is unknown or not known to the requester',
      ],
    ];
    for (const [bad, parameterName, reason] of cases) {
      const refused = await post('addAnswers', { sessionId, answers: [good, bad] });
      expect({ status: refused.status, ...refused.body }).toMatchObject({
        status: 400,
        type: 'BadParameterException',
        parameterName,
        reason,
      });
    }
    expect(await storedAnswers(sessionId)).toStrictEqual([]);
    const unknown = await post('addAnswers', { sessionId: '999999', answers: [good] });
    expect({ status: unknown.status, ...unknown.body }).toMatchObject({
      status: 404,
      type: 'BadParameterException',
      parameterName: 'sessionId',
    });
  });

  it('serves the same operations on GraphQL', async () => {
    const made = await graphql(
      app.url,
      'mutation ($s: SessionInput!) { addSession(session: $s) { id title owner { id } quizIds nbAttendees } }',
      { variables: { s: { title: 'Fri', quizIds: [ids.quizzes.q] } }, search: `?${teacher}` },
    );
    const session = made.body.data?.addSession as Json;
    expect(session).toMatchObject({ title: 'Fri', owner: { id: ids.users.t }, nbAttendees: 0 });
    const added = await graphql(
      app.url,
      'mutation ($id: ID!, $a: [AnswerInput!]!) { addAnswers(sessionId: $id, answers: $a) { sessionId received inserted updated unchanged } }',
      {
        variables: {
          id: session.id,
          a: [{ userId: ids.users.a, quizId: ids.quizzes.q, questionIndex: 1, answer: 1 }],
        },
        search: `?${pupil}`,
      },
    );
    // The pupil does not attend this session: refused.
    expect(added.body.errors?.[0]?.extensions).toStrictEqual({
      code: 'FORBIDDEN',
      type: 'UnauthorizedOperationException',
      operation: 'addAnswers',
      reason: 'only the owner and the attendees of a session write its answers',
    });
  });

  it('takes the 1,000 attendees it allows, on both wires (SQLite refused 998 and more)', async () => {
    // A teacher with a class of 1,000 pupils she knows, all members of her group.
    const pupils = Array.from({ length: 1000 }, (_, index) => `big${index + 1}`);
    const big = await loadData(dataSource, {
      users: [
        { ref: 'bt', email: 'big-teacher@school.example', firstName: 'Big', lastName: 'Class' },
        ...pupils.map((ref) => ({
          ref,
          email: `${ref}@school.example`,
          firstName: 'P',
          lastName: ref,
        })),
      ],
      groups: [{ ref: 'bg', name: 'Everyone', owner: 'bt', members: pupils }],
    });
    const key = await createTestApiKey(dataSource, 'localhost');
    const token = await createTestToken(dataSource, Number(big.users.bt), key.id);
    const attendeeIds = pupils.map((ref) => big.users[ref] as string);
    const counted = async (sessionId: unknown) =>
      Number(
        (
          (await dataSource.query(
            'SELECT COUNT(*) AS n FROM session_attendees WHERE session_id = ?',
            [Number(sessionId)],
          )) as Json[]
        )[0]?.n,
      );

    const rest = await post(
      'addSession',
      { session: { title: 'Assembly', quizIds: [ids.quizzes.q], attendeeIds } },
      `apiKey=${key.secret}&accessToken=${token}`,
    );
    expect({ status: rest.status, nbAttendees: rest.body.nbAttendees }).toStrictEqual({
      status: 200,
      nbAttendees: 1000,
    });
    expect(await counted(rest.body.id)).toBe(1000);

    const gql = await graphql(
      app.url,
      'mutation ($s: SessionInput!) { addSession(session: $s) { id nbAttendees } }',
      {
        variables: { s: { title: 'Assembly again', quizIds: [ids.quizzes.q], attendeeIds } },
        search: `?apiKey=${key.secret}&accessToken=${token}`,
      },
    );
    expect(gql.body.errors).toBeUndefined();
    const session = gql.body.data?.addSession as Json;
    expect(session.nbAttendees).toBe(1000);
    expect(await counted(session.id)).toBe(1000);
  });
});

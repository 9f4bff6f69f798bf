import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap, ImportDocument } from '../../src/data/import/import-document';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend } from '../helpers/database';
import { badParameterBody, unauthorizedBody } from '../helpers/exceptions';
import { graphql } from '../helpers/graphql';
import { expectParity } from '../helpers/parity';

/**
 * Join codes and joinSession (contract.md §9, §4) on both wires and both databases: the owner,
 * and only the owner, is shown the code; a pupil the owner does not know joins with it, and is
 * then an attendee who writes their own answers and whom the owner knows; a wrong or expired code
 * is refused on `joinCode`, failed joins are limited per user as failed logins are, and an
 * anonymous requester is refused.
 */

/** The alphabet of contract.md §9, written here from the contract: no 0, O, 1, I or L. */
const CODE = /^[2-9A-HJKMNP-Z]{8}$/;
const MAX_FAILURES = 3;
const DAY_MS = 86_400_000;

const CLASS: ImportDocument = {
  users: [
    { ref: 't', email: 't@school.example', firstName: 'Tess', lastName: 'Teacher' },
    { ref: 'o', email: 'o@school.example', firstName: 'Otto', lastName: 'Other' },
    { ref: 'a', email: 'a@school.example', firstName: 'Ana', lastName: 'Member' },
    // Strangers to Tess: in none of her groups, in none of her sessions.
    ...['s1', 's2', 's3', 'w', 'f', 'g'].map((ref) => ({
      ref,
      email: `${ref}@school.example`,
      firstName: `Pupil ${ref}`,
      lastName: 'Stranger',
    })),
  ],
  groups: [{ ref: 'G', name: 'Class 5A', owner: 't', members: ['a'] }],
  quizzes: [
    {
      ref: 'q',
      author: 't',
      title: 'Joining',
      visibility: 'public',
      survey: false,
      tags: ['join', 'codes'],
      questions: [{ title: 'Sure?', type: 'TrueFalse', goodAnswer: true }],
    },
  ],
};

type Json = Record<string, unknown>;

describe.each(BACKENDS)('joinSession on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let ids: IdMap;
  let anonymous: string;
  const as: Record<string, string> = {};

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'join_session'));
    ids = await loadData(dataSource, CLASS);
    const key = await createTestApiKey(dataSource, 'localhost');
    anonymous = `apiKey=${key.secret}`;
    for (const ref of Object.keys(ids.users)) {
      const token = await createTestToken(dataSource, Number(ids.users[ref]), key.id);
      as[ref] = `${anonymous}&accessToken=${token}`;
    }
    app = await startTestApp(dataSource, {
      LOGIN_MAX_FAILURES_PER_ACCOUNT: String(MAX_FAILURES),
    });
  });

  afterAll(async () => {
    await app.close();
    await close();
  });

  async function post(operation: string, body: Json, credentials: string) {
    const res = await app.get(`/${operation}?${credentials}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
  }

  async function getSession(sessionId: string, credentials: string) {
    const res = await app.get(`/getSession?sessionId=${sessionId}&${credentials}`);
    return { status: res.status, body: (await res.json()) as Json };
  }

  async function newSession(title: string, attendeeIds: string[] = []) {
    const made = await post(
      'addSession',
      { session: { title, quizIds: [ids.quizzes.q], attendeeIds } },
      as.t,
    );
    expect(made.status).toBe(200);
    return { id: made.body.id as string, joinCode: made.body.joinCode as string, body: made.body };
  }

  const attendees = async (sessionId: string) =>
    (
      (await dataSource.query(
        'SELECT user_id FROM session_attendees WHERE session_id = ? ORDER BY user_id',
        [Number(sessionId)],
      )) as { user_id: unknown }[]
    ).map((row) => String(row.user_id));

  const SESSION_FIELDS = '{ id title nbAttendees quizIds owner { id } joinCode joinCodeExpiresAt }';

  it('shows the code to the owner only, on both wires; no one else sees it', async () => {
    const before = Date.now();
    const session = await newSession('Monday', [ids.users.a]);
    expect(session.joinCode).toMatch(CODE);
    // Valid SESSION_JOIN_TTL_SECONDS (a day by default) from now, in whole seconds.
    const expiresAt = Date.parse(`${String(session.body.joinCodeExpiresAt).replace(' ', 'T')}Z`);
    expect(expiresAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + DAY_MS - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + DAY_MS);

    // The owner reads the same code again.
    const owner = await getSession(session.id, as.t);
    expect(owner.body).toMatchObject({
      joinCode: session.joinCode,
      joinCodeExpiresAt: session.body.joinCodeExpiresAt,
    });
    const ownerGql = await graphql(
      app.url,
      `query ($id: ID!) { getSession(sessionId: $id) ${SESSION_FIELDS} }`,
      { variables: { id: session.id }, search: `?${as.t}` },
    );
    expect(ownerGql.body.data?.getSession).toMatchObject({
      joinCode: session.joinCode,
      joinCodeExpiresAt: new Date(expiresAt).toISOString(),
    });

    // An attendee sees the session, without the code: absent on REST, null on GraphQL.
    const attendee = await getSession(session.id, as.a);
    expect(attendee.status).toBe(200);
    expect(attendee.body).not.toHaveProperty('joinCode');
    expect(attendee.body).not.toHaveProperty('joinCodeExpiresAt');
    const attendeeGql = await graphql(
      app.url,
      `query ($id: ID!) { getSession(sessionId: $id) ${SESSION_FIELDS} }`,
      { variables: { id: session.id }, search: `?${as.a}` },
    );
    expect(attendeeGql.body.data?.getSession).toMatchObject({
      id: session.id,
      joinCode: null,
      joinCodeExpiresAt: null,
    });
    // Anyone else does not see the session at all.
    expect((await getSession(session.id, as.o)).status).toBe(403);

    // addSession on GraphQL shows the owner a code too, another one.
    const made = await graphql(
      app.url,
      `mutation ($session: SessionInput!) { addSession(session: $session) ${SESSION_FIELDS} }`,
      {
        variables: { session: { title: 'Tuesday', quizIds: [ids.quizzes.q] } },
        search: `?${as.t}`,
      },
    );
    const gqlSession = made.body.data?.addSession as Json;
    expect(gqlSession.joinCode).toMatch(CODE);
    expect(gqlSession.joinCode).not.toBe(session.joinCode);
    expect(Date.parse(gqlSession.joinCodeExpiresAt as string)).toBeGreaterThan(Date.now());
  });

  it('makes a stranger an attendee, who then writes their own answers and is known to the owner', async () => {
    const session = await newSession('Wednesday');
    const answer = { userId: ids.users.s1, quizId: ids.quizzes.q, questionIndex: 0, answer: true };
    // Before joining: not an attendee, so neither reads nor writes the session.
    expect((await getSession(session.id, as.s1)).status).toBe(403);
    expect(
      (await post('addAnswers', { sessionId: session.id, answers: [answer] }, as.s1)).status,
    ).toBe(403);

    // A code as a pupil types it: lower case, halves apart.
    const typed = `${session.joinCode.slice(0, 4).toLowerCase()}-${session.joinCode.slice(4)}`;
    const joined = await post('joinSession', { joinCode: typed }, as.s1);
    expect(joined.status).toBe(200);
    expect(joined.body).toStrictEqual({
      id: session.id,
      title: 'Wednesday',
      startDate: session.body.startDate,
      // The author of a public quiz has a public profile (§4).
      owner: { id: ids.users.t, firstName: 'Tess', lastName: 'Teacher', pictureURL: null },
      quizIds: [ids.quizzes.q],
      nbAttendees: 1,
    });
    expect(await attendees(session.id)).toStrictEqual([ids.users.s1]);

    const written = await post('addAnswers', { sessionId: session.id, answers: [answer] }, as.s1);
    expect(written).toMatchObject({ status: 200, body: { received: 1, inserted: 1 } });
    expect((await getSession(session.id, as.s1)).body).toMatchObject({ nbAttendees: 1 });
    // Still only their own answers.
    const forOther = await post(
      'addAnswers',
      { sessionId: session.id, answers: [{ ...answer, userId: ids.users.a }] },
      as.s1,
    );
    expect(forOther.status).toBe(403);

    // Having joined a session of hers, the pupil is known to the owner (§4): she may name them.
    const named = await newSession('Thursday', [ids.users.s1]);
    expect(named.body.nbAttendees).toBe(1);
  });

  it('joins on GraphQL too, and joining again changes nothing', async () => {
    const session = await newSession('Friday');
    const join = (credentials: string, joinCode: string) =>
      graphql(
        app.url,
        `mutation ($code: String!) { joinSession(joinCode: $code) ${SESSION_FIELDS} }`,
        {
          variables: { code: joinCode },
          search: `?${credentials}`,
        },
      );
    const first = await join(as.s2, session.joinCode);
    expect(first.body.errors).toBeUndefined();
    expect(first.body.data?.joinSession).toStrictEqual({
      id: session.id,
      title: 'Friday',
      nbAttendees: 1,
      quizIds: [ids.quizzes.q],
      owner: { id: ids.users.t },
      joinCode: null,
      joinCodeExpiresAt: null,
    });
    const again = await join(as.s2, session.joinCode);
    expect(again.body.data?.joinSession).toStrictEqual(first.body.data?.joinSession);
    const onRest = await post('joinSession', { joinCode: session.joinCode }, as.s2);
    expect(onRest.body.nbAttendees).toBe(1);
    expect(await attendees(session.id)).toStrictEqual([ids.users.s2]);
    // Another pupil joining counts.
    const second = await post('joinSession', { joinCode: session.joinCode }, as.s3);
    expect(second.body.nbAttendees).toBe(2);
    // The owner still sees the code, unchanged by the joins.
    expect((await getSession(session.id, as.t)).body.joinCode).toBe(session.joinCode);
  });

  it('refuses a wrong code with the same BadParameter on both wires, echoing it', async () => {
    const session = await newSession('Saturday');
    // The right code with one character changed, and text that is no code at all.
    const last = session.joinCode.at(-1) === 'Z' ? 'Y' : 'Z';
    for (const joinCode of [`${session.joinCode.slice(0, 7)}${last}`, 'not a code']) {
      const rest = await post('joinSession', { joinCode }, as.w);
      expect(rest).toMatchObject({
        status: 400,
        body: badParameterBody(
          'joinSession',
          'joinCode',
          joinCode,
          'no session has this join code, or it has expired',
        ),
      });
    }
    // The same refusal on GraphQL (two failures of g, under the limit).
    await expectParity(app.url, 'joinSession', { joinCode: 'ABCDEFGH' }, as.g);
    expect(await attendees(session.id)).toStrictEqual([]);
  });

  it('refuses an expired code; the owner reading the session is given a new one', async () => {
    const session = await newSession('Sunday', [ids.users.a]);
    await dataSource.query('UPDATE sessions SET join_code_expires_at = ? WHERE id = ?', [
      backend === 'SQLite' ? '2020-01-01 00:00:00.000' : new Date(Date.UTC(2020, 0, 1)),
      Number(session.id),
    ]);
    const expired = await post('joinSession', { joinCode: session.joinCode }, as.s3);
    expect(expired).toMatchObject({
      status: 400,
      body: { type: 'BadParameterException', parameterName: 'joinCode' },
    });
    // An attendee's read changes nothing; the owner's gives a new code, valid a day.
    expect((await getSession(session.id, as.a)).body).not.toHaveProperty('joinCode');
    const stored = (await dataSource.query('SELECT join_code FROM sessions WHERE id = ?', [
      Number(session.id),
    ])) as { join_code: unknown }[];
    expect(stored[0]?.join_code).toBe(session.joinCode);
    const renewed = await getSession(session.id, as.t);
    const code = renewed.body.joinCode as string;
    expect(code).toMatch(CODE);
    expect(code).not.toBe(session.joinCode);
    const until = Date.parse(`${String(renewed.body.joinCodeExpiresAt).replace(' ', 'T')}Z`);
    expect(until).toBeGreaterThan(Date.now() + DAY_MS - 60_000);
    // Read again: the same code, not another one each time.
    expect((await getSession(session.id, as.t)).body.joinCode).toBe(code);
    expect((await post('joinSession', { joinCode: session.joinCode }, as.s3)).status).toBe(400);
    const joined = await post('joinSession', { joinCode: code }, as.s3);
    expect(joined).toMatchObject({ status: 200, body: { id: session.id, nbAttendees: 2 } });
  });

  it('limits failed joins per user like failed logins: 429 with Retry-After, even for the right code', async () => {
    const session = await newSession('Limits');
    for (let attempt = 1; attempt <= MAX_FAILURES; attempt += 1) {
      expect((await post('joinSession', { joinCode: 'WRONG234' }, as.f)).status).toBe(400);
    }
    const limited = await post('joinSession', { joinCode: session.joinCode }, as.f);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({
      type: 'TooManyRequestsException',
      operation: 'joinSession',
      retryAfterSeconds: expect.any(Number) as unknown,
    });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBe(limited.body.retryAfterSeconds);
    const gql = await graphql(
      app.url,
      'mutation ($code: String!) { joinSession(joinCode: $code) { id } }',
      { variables: { code: session.joinCode }, search: `?${as.f}` },
    );
    expect(gql.body.errors?.[0]?.extensions).toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      type: 'TooManyRequestsException',
    });
    expect(await attendees(session.id)).toStrictEqual([]);
    // Per user: another pupil with the right code joins, and the login of the limited one
    // is not what is limited (joins count apart from the login page's per-IP failures).
    const other = await post('joinSession', { joinCode: session.joinCode }, as.s2);
    expect(other).toMatchObject({ status: 200, body: { nbAttendees: 1 } });
    const rows = (await dataSource.query(
      "SELECT COUNT(*) AS n FROM login_failures WHERE client_ip = 'joinSession'",
    )) as { n: unknown }[];
    expect(Number(rows[0]?.n)).toBeGreaterThanOrEqual(MAX_FAILURES);
  });

  it('refuses an anonymous requester (401) on both wires, and a missing code (400)', async () => {
    const session = await newSession('Anonymous');
    const rest = await post('joinSession', { joinCode: session.joinCode }, anonymous);
    expect(rest).toMatchObject({
      status: 401,
      body: unauthorizedBody('joinSession', 'an access token is required to join a session'),
    });
    await expectParity(app.url, 'joinSession', { joinCode: session.joinCode }, anonymous);
    const missing = await post('joinSession', {}, as.s1);
    expect(missing).toMatchObject({
      status: 400,
      body: { type: 'MissingParameterException', parameterName: 'joinCode' },
    });
    expect(await attendees(session.id)).toStrictEqual([]);
  });
});

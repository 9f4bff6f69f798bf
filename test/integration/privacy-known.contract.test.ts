import fc from 'fast-check';
import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap, ImportDocument } from '../../src/data/import/import-document';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend } from '../helpers/database';
import { graphql } from '../helpers/graphql';

/**
 * Who can learn whose name (contract.md §4, §9, §14.1), as a property over random classrooms: for
 * random users, groups, sessions with imported attendees, quizzes public or not, joins by code
 * and attempts to name users as attendees or as the pupils of answers, the users whose names a
 * requester obtains through every operation together are exactly the users the contract calls
 * known to them, computed here from the world alone:
 * the requester themself, attendees of sessions they own, members of groups they own, and anyone
 * with a public profile or a public quiz. Naming succeeds exactly for such users, so it never
 * widens the set; a join makes the joiner known to the session's owner only.
 */

const RUNS = Number(process.env.PRIVACY_RUNS ?? 5);
const SEED = Number(process.env.PRIVACY_SEED ?? 26);

interface WorldSpec {
  users: { publicProfile: boolean }[];
  groups: { owner: number; members: number[] }[];
  quizzes: { author: number; visibility: 'public' | 'private' | 'draft' }[];
  sessions: { owner: number; attendees: number[] }[];
  /** [user, session]: the user joins the session with its code. */
  joins: [number, number][];
  /** [session, user]: the session's owner writes an answer for the user. */
  namings: [number, number][];
  /** [owner, user]: the owner makes a session naming the user as its attendee. */
  attendeeNamings: [number, number][];
}

const world = (size: number): fc.Arbitrary<WorldSpec> => {
  const who = fc.integer({ min: 0, max: size - 1 });
  const some = fc.uniqueArray(who, { maxLength: 4 });
  return fc.record({
    users: fc.array(fc.record({ publicProfile: fc.nat(9).map((n) => n === 0) }), {
      minLength: size,
      maxLength: size,
    }),
    groups: fc.array(fc.record({ owner: who, members: some }), { maxLength: 3 }),
    quizzes: fc.array(
      fc.record({ author: who, visibility: fc.constantFrom('public', 'private', 'draft') }),
      { minLength: 1, maxLength: 3 },
    ),
    sessions: fc.array(fc.record({ owner: who, attendees: some }), { minLength: 1, maxLength: 3 }),
    joins: fc.array(fc.tuple(who, fc.nat()), { maxLength: 4 }),
    namings: fc.array(fc.tuple(fc.nat(), who), { maxLength: 4 }),
    attendeeNamings: fc.array(fc.tuple(who, who), { maxLength: 3 }),
  });
};

/** The contract's known set of every requester (index) after the world's joins. */
function reference(spec: WorldSpec, joined: [number, number][]): Set<number>[] {
  const size = spec.users.length;
  const open = new Set<number>();
  spec.users.forEach((user, index) => user.publicProfile && open.add(index));
  for (const quiz of spec.quizzes) if (quiz.visibility === 'public') open.add(quiz.author);
  const known = Array.from({ length: size }, (_, index) => new Set<number>([index, ...open]));
  for (const group of spec.groups)
    for (const member of group.members) known[group.owner]?.add(member);
  for (const session of spec.sessions) {
    for (const attendee of session.attendees) known[session.owner]?.add(attendee);
  }
  for (const [userIndex, sessionIndex] of joined) {
    known[spec.sessions[sessionIndex]?.owner as number]?.add(userIndex);
  }
  return [...known, open];
}

type Json = Record<string, unknown>;

describe.each(BACKENDS)('who can learn whose name, on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let key: { id: number; secret: string };
  let run = 0;

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'privacy_known'));
    key = await createTestApiKey(dataSource, 'localhost');
    app = await startTestApp(dataSource);
  });

  afterAll(async () => {
    await app?.close();
    await close?.();
  });

  async function call(
    method: 'GET' | 'POST',
    operation: string,
    params: Record<string, string>,
    credentials: string,
    body?: Json,
  ): Promise<{ status: number; text: string; body: Json }> {
    const res = await fetch(
      `${app.url}/${operation}?${new URLSearchParams(params)}&${credentials}`,
      body
        ? { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
        : { method },
    );
    const text = await res.text();
    let parsed: Json = {};
    try {
      parsed = JSON.parse(text) as Json;
    } catch {
      // CSV exports are scanned as text.
    }
    return { status: res.status, text, body: parsed };
  }

  it('every operation together names exactly the known users', async () => {
    await fc.assert(
      fc.asyncProperty(world(7), async (spec) => {
        run += 1;
        const tag = `r${run}x${Date.now() % 100000}`;
        const ref = (index: number) => `u${index}`;
        const firstName = (index: number) => `First${tag}u${index}`;
        const lastName = (index: number) => `Last${tag}u${index}`;
        const document: ImportDocument = {
          users: spec.users.map((user, index) => ({
            ref: ref(index),
            email: `${tag}.u${index}@known.example`,
            firstName: firstName(index),
            lastName: lastName(index),
            publicProfile: user.publicProfile,
            canCreatePrivateQuizzes: true,
          })),
          groups: spec.groups.map((group, index) => ({
            ref: `g${index}`,
            name: `Group ${tag} ${index}`,
            owner: ref(group.owner),
            members: group.members.map(ref),
          })),
          quizzes: spec.quizzes.map((quiz, index) => ({
            ref: `q${index}`,
            author: ref(quiz.author),
            title: `Quiz ${tag} ${index}`,
            visibility: quiz.visibility,
            survey: false,
            tags: [tag, 'known'],
            questions: [{ title: 'True?', type: 'TrueFalse' as const, goodAnswer: true }],
          })),
          sessions: spec.sessions.map((session, index) => ({
            ref: `s${index}`,
            owner: ref(session.owner),
            title: `Session ${tag} ${index}`,
            startDate: '2026-11-02 08:30:00',
            // The operator's import may play any quiz in a session.
            quizzes: spec.quizzes.map((_quiz, quizIndex) => `q${quizIndex}`),
            attendees: session.attendees.map((user) => ({ user: ref(user) })),
          })),
        };
        const ids: IdMap = await loadData(dataSource, document);
        const userId = (index: number) => ids.users[ref(index)] as string;
        const credentials: string[] = [];
        for (const index of spec.users.keys()) {
          const token = await createTestToken(dataSource, Number(userId(index)), key.id);
          credentials.push(`apiKey=${key.secret}&accessToken=${token}`);
        }
        const anonymous = `apiKey=${key.secret}`;
        // Each session's owner reads its code; joiners use it.
        const joined: [number, number][] = [];
        for (const [joiner, pick] of spec.joins) {
          const sessionIndex = pick % spec.sessions.length;
          const session = spec.sessions[sessionIndex] as WorldSpec['sessions'][number];
          const sessionId = ids.sessions[`s${sessionIndex}`] as string;
          const read = await call(
            'GET',
            'getSession',
            { sessionId },
            credentials[session.owner] as string,
          );
          expect(read.status).toBe(200);
          const joinCode = read.body.joinCode as string;
          const reply = await call('POST', 'joinSession', {}, credentials[joiner] as string, {
            joinCode,
          });
          expect(reply.status).toBe(200);
          joined.push([joiner, sessionIndex]);
        }
        const known = reference(spec, joined);
        // Naming: accepted exactly for users known to the owner (or the owner themself).
        for (const [pick, named] of spec.namings) {
          const sessionIndex = pick % spec.sessions.length;
          const session = spec.sessions[sessionIndex] as WorldSpec['sessions'][number];
          const quizIndex = 'q0';
          const reply = await call('POST', 'addAnswers', {}, credentials[session.owner] as string, {
            sessionId: ids.sessions[`s${sessionIndex}`],
            answers: [
              {
                userId: userId(named),
                quizId: ids.quizzes[quizIndex],
                questionIndex: 0,
                answer: true,
              },
            ],
          });
          expect(reply.status).toBe(known[session.owner]?.has(named) ? 200 : 400);
        }
        for (const [owner, named] of spec.attendeeNamings) {
          const quizIndex = spec.quizzes.findIndex((quiz) => quiz.visibility === 'public');
          if (quizIndex < 0) continue;
          const reply = await call('POST', 'addSession', {}, credentials[owner] as string, {
            session: {
              title: `Named ${tag}`,
              quizIds: [ids.quizzes[`q${quizIndex}`]],
              attendeeIds: [userId(named)],
            },
          });
          expect(reply.status).toBe(known[owner]?.has(named) ? 200 : 400);
        }

        // Everything a requester can read that may carry a name, scanned for every user's.
        const requesters = [...credentials, anonymous];
        for (const [requester, asWho] of requesters.entries()) {
          const texts: string[] = [];
          const keep = (reply: { text: string }) => texts.push(reply.text);
          for (const index of spec.users.keys()) {
            keep(await call('GET', 'getUser', { userId: userId(index) }, asWho));
            for (const attributeName of ['firstName', 'lastName']) {
              keep(
                await call(
                  'GET',
                  'getUserAttribute',
                  { userId: userId(index), attributeName },
                  asWho,
                ),
              );
            }
          }
          const sets: Json[] = [];
          for (const sessionId of Object.values(ids.sessions)) {
            const set = await call('GET', 'getUserSet', { sessionId: sessionId as string }, asWho);
            keep(set);
            if (set.status === 200) sets.push(set.body);
            keep(await call('GET', 'getSession', { sessionId: sessionId as string }, asWho));
          }
          for (const quizId of Object.values(ids.quizzes)) {
            const set = await call('GET', 'getUserSet', { quizId: quizId as string }, asWho);
            keep(set);
            if (set.status === 200) sets.push(set.body);
          }
          const quizzes = await call('GET', 'getQuizSet', { tag }, asWho);
          keep(quizzes);
          for (const set of sets) {
            keep(
              await call(
                'GET',
                'exportDataSet',
                { dataSetId: String(set.dataSetId), format: 'csv' },
                asWho,
              ),
            );
          }
          // GraphQL reaches users through objects too: quiz authors, session owners, result users.
          const users = sets[0];
          if (users && quizzes.status === 200 && requester < credentials.length) {
            const reply = await graphql(
              app.url,
              `
                query ($u: ID!, $q: ID!) {
                  getResults(userSetId: $u, quizSetId: $q, includeQuizzes: all) {
                    items {
                      ... on ComputedResult {
                        user {
                          firstName
                        }
                        session {
                          owner {
                            firstName
                          }
                        }
                        quiz {
                          author {
                            firstName
                          }
                        }
                      }
                    }
                  }
                }
              `,
              { variables: { u: users.dataSetId, q: quizzes.body.dataSetId }, search: `?${asWho}` },
            );
            texts.push(JSON.stringify(reply.body));
          }
          const everything = texts.join('\n');
          const named = new Set(
            [...spec.users.keys()].filter(
              (index) =>
                everything.includes(firstName(index)) || everything.includes(lastName(index)),
            ),
          );
          expect({ requester, named: [...named].sort() }).toStrictEqual({
            requester,
            named: [...(known[requester] as Set<number>)].sort(),
          });
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
    // Some 300 requests a world: room for a busy machine.
  }, 600_000);
});

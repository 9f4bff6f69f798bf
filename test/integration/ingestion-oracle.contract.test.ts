import type { DataSource } from 'typeorm';
import { generateData } from '../../src/data/generate/synthetic-data';
import { loadData } from '../../src/data/import/bulk-loader';
import type {
  IdMap,
  ImportAnswer,
  ImportDocument,
  ImportQuiz,
  ImportSession,
} from '../../src/data/import/import-document';
import { Answer, Question, SessionAttendee } from '../../src/db/entities';
import { QUESTION_TYPES } from '../../src/domain/questions/question-types';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend } from '../helpers/database';
import { graphql } from '../helpers/graphql';
import { SeededRandom, describeSeed, runSeed } from '../helpers/seeded-random';

/**
 * Ingestion against the import (contract.md §9, §7): one generated classroom world is loaded
 * whole through the import into database A; into database B only its users, quizzes, groups and
 * flags are imported, and its sessions and answers are sent through the API as a classroom app
 * would: addSession with the start date and the attendees its owner knows (members of the
 * owner's groups, attendees of the owner's earlier sessions: contract.md §4, §9), every other
 * attendee joining with the session's join code, then addAnswers in batches of random sizes in
 * random order, half on REST and half on GraphQL, most by the session's owner and some by the
 * pupils themselves, with earlier answers that the later ones must replace and batches sent
 * twice. Then every stored answer, every attendee and every getResults page must read the
 * same on A and B (ids mapped through the refs of the world). The world and every draw come from
 * the run's seed (printed; INGEST_SEED replays a run).
 */

const SEED = runSeed();

/** Every generated date lies before it, so that every answeredAt is in the past. */
const WORLD_NOW = new Date(Date.UTC(2026, 5, 1));

/**
 * The world: 4 teachers and 116 pupils, 10 quizzes of 6 questions (every question type in each;
 * quiz 8 is a survey), 16 sessions, each (pupil, quiz) pair playing with probability 0.35.
 * addSession plays only quizzes its owner may see: a private or draft quiz of another teacher
 * that a session plays is made public, in the data both databases get.
 */
function world(seed: number): ImportDocument {
  const { source } = generateData({
    users: 120,
    quizzes: 10,
    questions: 6,
    sessions: 16,
    participation: 0.35,
    seed,
    now: WORLD_NOW,
  });
  const quizzes = [...(source.quizzes ?? [])];
  const sessions = [...(source.sessions ?? [])];
  const byRef = new Map(quizzes.map((quiz) => [quiz.ref, quiz]));
  for (const session of sessions) {
    for (const ref of session.quizzes ?? []) {
      const quiz = byRef.get(ref) as ImportQuiz;
      if (quiz.author !== session.owner) quiz.visibility = 'public';
    }
  }
  return {
    users: [...(source.users ?? [])],
    quizzes,
    groups: [...(source.groups ?? [])],
    sessions,
    answers: [...(source.answers ?? [])],
    flags: [...(source.flags ?? [])],
  };
}

type Json = Record<string, unknown>;
type Item = Record<string, unknown>;
type Wire = 'REST' | 'GraphQL';
type Section = 'users' | 'quizzes' | 'sessions';

const RESULT_TYPES = ['nbGoodAnswers', 'goodAnswersPercent', 'percentile', 'nbAnswers', 'duration'];
const FUNCTIONS = ['min', 'max', 'average', 'median', 'stddev', 'count'];
const EVERY_DATE = '2000-01-01 00:00:00,2099-12-31 23:59:59';

/** One database with its app, the ids its refs became and the credentials of its requesters. */
interface Side {
  name: 'A' | 'B';
  dataSource: DataSource;
  close: () => Promise<void>;
  app: TestApp;
  ids: IdMap;
  keySecret: string;
  keyId: number;
  tokens: Map<string, string>;
}

/** A value of the same question type that differs from `answer` (an answer to be replaced). */
function otherValue(type: string, propositions: number, answer: unknown): unknown {
  switch (type) {
    case 'MultipleChoicesOneGoodAnswer':
      return ((answer as number) + 1) % propositions;
    case 'MultipleChoicesSeveralGoodAnswers': {
      const indexes = answer as number[];
      return indexes.includes(0) ? indexes.filter((index) => index !== 0) : [0, ...indexes];
    }
    case 'TrueFalse':
      return answer !== true;
    case 'FreeAnswerText':
      return `${String(answer)} (draft)`;
    case 'FreeAnswerNumber':
      return Number(String(answer).replace(',', '.')) + 1;
    default:
      throw new Error(`no other value for a ${type} question`);
  }
}

const textAt = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
const msOf = (text: string) => Date.parse(`${text.replace(' ', 'T')}Z`);

beforeAll(() => {
  console.info(describeSeed('test/integration/ingestion-oracle.contract.test.ts', SEED));
});

describe.each(BACKENDS)('ingestion matches the import on %s', (backend) => {
  const random = new SeededRandom(SEED);
  const doc = world(SEED);
  const sessions = doc.sessions as ImportSession[];
  const answers = doc.answers as ImportAnswer[];
  const quizByRef = new Map((doc.quizzes as ImportQuiz[]).map((quiz) => [quiz.ref, quiz]));
  const teachers = [...new Set(sessions.map((session) => session.owner))].sort();
  let a: Side;
  let b: Side;
  /** What the sending did, for the assertions on its counts. */
  const sent = {
    calls: { REST: 0, GraphQL: 0 },
    byPupils: 0,
    received: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    earlier: 0,
    resent: 0,
    /** Attendees the owner named, known through a group or through an earlier session. */
    namedFromGroups: 0,
    namedFromSessions: 0,
    /** Attendees who joined with the code, and joins sent again. */
    joins: 0,
    joinedAgain: 0,
    /** addSession calls naming a stranger, refused. */
    strangersRefused: 0,
  };

  async function open(name: 'A' | 'B', data: ImportDocument): Promise<Side> {
    const { dataSource, close } = await openBackend(backend, `ingest_oracle_${name}`);
    const ids = await loadData(dataSource, data);
    const key = await createTestApiKey(dataSource, 'localhost');
    const app = await startTestApp(dataSource);
    return {
      name,
      dataSource,
      close,
      app,
      ids,
      keySecret: key.secret,
      keyId: key.id,
      tokens: new Map(),
    };
  }

  /** Query-string credentials of a user ref on a side (anonymous: the key alone). */
  async function credentials(side: Side, ref: string): Promise<string> {
    if (ref === 'anonymous') return `apiKey=${side.keySecret}`;
    let token = side.tokens.get(ref);
    if (!token) {
      token = await createTestToken(side.dataSource, Number(side.ids.users[ref]), side.keyId);
      side.tokens.set(ref, token);
    }
    return `apiKey=${side.keySecret}&accessToken=${token}`;
  }

  const idOf = (side: Side, section: Section, ref: string) => {
    const id = side.ids[section][ref];
    if (id === undefined) throw new Error(`no ${section} ${ref} on ${side.name}`);
    return id;
  };

  /** A's id of what `id` is on B, through the ref both sides gave it. */
  function toA(section: Section, id: unknown): unknown {
    if (id === null || id === undefined) return id;
    const ref = Object.entries(b.ids[section]).find(([, value]) => value === id)?.[0];
    if (ref === undefined) throw new Error(`B's ${section} ${String(id)} has no ref`);
    return idOf(a, section, ref);
  }

  const DOCUMENTS = {
    addSession:
      'mutation ($session: SessionInput!) { addSession(session: $session) { id nbAttendees joinCode } }',
    joinSession:
      'mutation ($joinCode: String!) { joinSession(joinCode: $joinCode) { id nbAttendees joinCode } }',
    addAnswers:
      'mutation ($sessionId: ID!, $answers: [AnswerInput!]!) { addAnswers(sessionId: $sessionId, answers: $answers) { sessionId received inserted updated unchanged } }',
  };

  /** An operation on B's app by `ref`, on one wire; the call must succeed. */
  async function write(
    wire: Wire,
    ref: string,
    operation: keyof typeof DOCUMENTS,
    args: Json,
  ): Promise<Json> {
    sent.calls[wire] += 1;
    const search = await credentials(b, ref);
    if (wire === 'REST') {
      const res = await fetch(`${b.app.url}/${operation}?${search}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(args),
      });
      const body = (await res.json()) as Json;
      expect({ operation, status: res.status, body }).toMatchObject({ operation, status: 200 });
      return body;
    }
    const gql = await graphql(b.app.url, DOCUMENTS[operation], {
      variables: args,
      search: `?${search}`,
    });
    expect({ operation, errors: gql.body.errors, status: gql.status }).toStrictEqual({
      operation,
      errors: undefined,
      status: 200,
    });
    return gql.body.data?.[operation] as Json;
  }

  /** The session's answers on B's ids, in a random order, with earlier answers to replace. */
  function queueOf(session: ImportSession): Json[] {
    const queue: Json[] = [];
    for (const answer of answers.filter((item) => item.session === session.ref)) {
      const item = {
        userId: idOf(b, 'users', answer.user),
        quizId: idOf(b, 'quizzes', answer.quiz),
        questionIndex: answer.question,
        answer: answer.answer,
        answeredAt: answer.answeredAt,
      };
      queue.push(item);
      if (random.chance(0.05)) {
        // A first answer, changed later: it must lose to the one above in whichever order.
        const question = quizByRef.get(answer.quiz)?.questions?.[answer.question];
        queue.push({
          ...item,
          answer: otherValue(
            question?.type as string,
            question?.propositions?.length ?? 0,
            answer.answer,
          ),
          answeredAt: textAt(msOf(answer.answeredAt) - random.int(1, 600) * 1000),
        });
        sent.earlier += 1;
      }
    }
    return random.shuffle(queue);
  }

  /**
   * Sends every session's queue: at each step a random session with answers left, a batch of
   * 1..500 (small ones often) by its owner, or by one of its pupils for their own answers, on a
   * random wire; after every 8th, a batch already sent is sent again.
   */
  async function sendAnswers(queues: Map<string, { owner: string; answers: Json[] }>) {
    const pupilOf = new Map(
      (doc.users ?? []).map((user) => [idOf(b, 'users', user.ref), user.ref]),
    );
    const done: [string, string, Json[]][] = [];
    for (;;) {
      const open = [...queues].filter(([, queue]) => queue.answers.length > 0);
      if (open.length === 0) break;
      const [sessionId, queue] = random.pick(open);
      const size = random.chance(0.5) ? random.int(1, 20) : random.int(1, 500);
      let writer = queue.owner;
      let batch: Json[];
      if (random.chance(0.25)) {
        // A pupil sends their own answers: those of the first pupil in the queue.
        const userId = queue.answers[0]?.userId as string;
        writer = pupilOf.get(userId) as string;
        batch = queue.answers.filter((item) => item.userId === userId).slice(0, size);
        queue.answers = queue.answers.filter((item) => !batch.includes(item));
        sent.byPupils += 1;
      } else {
        batch = queue.answers.splice(0, size);
      }
      const wire: Wire = random.chance(0.5) ? 'REST' : 'GraphQL';
      const counts = await write(wire, writer, 'addAnswers', { sessionId, answers: batch });
      expect(counts.sessionId).toBe(sessionId);
      expect(counts.received).toBe(batch.length);
      expect(
        (counts.inserted as number) + (counts.updated as number) + (counts.unchanged as number),
      ).toBe(batch.length);
      for (const name of ['received', 'inserted', 'updated', 'unchanged'] as const) {
        sent[name] += counts[name] as number;
      }
      done.push([sessionId, writer, batch]);
      if (done.length % 8 === 0) {
        // Every 8th batch, one already sent is sent again: every answer in it is decided.
        const [againId, againWriter, againBatch] = random.pick(done);
        const again = await write(
          random.chance(0.5) ? 'REST' : 'GraphQL',
          againWriter,
          'addAnswers',
          {
            sessionId: againId,
            answers: againBatch,
          },
        );
        expect(again).toMatchObject({
          received: againBatch.length,
          inserted: 0,
          updated: 0,
          unchanged: againBatch.length,
        });
        sent.resent += againBatch.length;
      }
    }
  }

  /** Whom a teacher knows on B so far (§4): their groups' members, their sessions' attendees. */
  interface Known {
    groups: Set<string>;
    sessions: Set<string>;
  }

  function knownAtStart(): Map<string, Known> {
    const known = new Map<string, Known>();
    for (const teacher of teachers) known.set(teacher, { groups: new Set(), sessions: new Set() });
    for (const group of doc.groups ?? []) {
      for (const member of group.members ?? []) known.get(group.owner)?.groups.add(member);
    }
    return known;
  }

  /**
   * Makes a session on B as its owner may (§9): the attendees the owner knows named, in a random
   * order; the others (strangers to the owner) join with the code the owner was shown, each on
   * a random wire, some twice. The first time a session has strangers, naming one of them is
   * tried first and must be refused, naming nobody.
   */
  async function makeSession(session: ImportSession, known: Known): Promise<string> {
    const refs = (session.attendees ?? []).map(({ user }) => user);
    const named = random.shuffle(
      refs.filter((ref) => known.groups.has(ref) || known.sessions.has(ref)),
    );
    const strangers = refs.filter((ref) => !named.includes(ref));
    sent.namedFromGroups += named.filter((ref) => known.groups.has(ref)).length;
    sent.namedFromSessions += named.filter((ref) => !known.groups.has(ref)).length;
    const payload = {
      title: session.title,
      quizIds: (session.quizzes ?? []).map((ref) => idOf(b, 'quizzes', ref)),
      startDate: session.startDate,
      attendeeIds: named.map((ref) => idOf(b, 'users', ref)),
    };
    if (strangers.length > 0 && sent.strangersRefused === 0) {
      const stranger = idOf(b, 'users', strangers[0] as string);
      const res = await fetch(`${b.app.url}/addSession?${await credentials(b, session.owner)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          session: { ...payload, attendeeIds: [...payload.attendeeIds, stranger] },
        }),
      });
      expect({ status: res.status, body: await res.json() }).toMatchObject({
        status: 400,
        body: {
          type: 'BadParameterException',
          parameterName: `session.attendeeIds[${payload.attendeeIds.length}]`,
        },
      });
      sent.strangersRefused += 1;
    }
    const wire = (): Wire => (random.chance(0.5) ? 'REST' : 'GraphQL');
    const made = await write(wire(), session.owner, 'addSession', { session: payload });
    expect(made.nbAttendees).toBe(named.length);
    const sessionId = made.id as string;
    const joinCode = made.joinCode as string;
    expect(joinCode).toMatch(/^[2-9A-HJKMNP-Z]{8}$/);
    for (const [index, ref] of strangers.entries()) {
      const joined = await write(wire(), ref, 'joinSession', { joinCode });
      // A pupil is shown the session, not its code.
      expect(joined).toMatchObject({ id: sessionId, nbAttendees: named.length + index + 1 });
      expect(joined.joinCode ?? null).toBeNull();
      sent.joins += 1;
      if (random.chance(0.1)) {
        const again = await write(wire(), ref, 'joinSession', { joinCode });
        expect(again.nbAttendees).toBe(named.length + index + 1);
        sent.joinedAgain += 1;
      }
    }
    for (const ref of refs) known.sessions.add(ref);
    return sessionId;
  }

  beforeAll(async () => {
    a = await open('A', doc);
    b = await open('B', {
      users: doc.users,
      quizzes: doc.quizzes,
      groups: doc.groups,
      flags: doc.flags,
    });
    b.ids.sessions = {};
    const known = knownAtStart();
    const queues = new Map<string, { owner: string; answers: Json[] }>();
    for (const session of sessions) {
      const sessionId = await makeSession(session, known.get(session.owner) as Known);
      b.ids.sessions[session.ref] = sessionId;
      queues.set(sessionId, { owner: session.owner, answers: queueOf(session) });
    }
    await sendAnswers(queues);
    // Two databases loaded and 16 classes played through the API, joins included: room for a
    // slow machine.
  }, 300_000);

  afterAll(async () => {
    for (const side of [a, b]) {
      await side?.app.close();
      await side?.close();
    }
  });

  it('covers what it compares: every question type, a survey, both wires, owners and pupils', () => {
    const types = new Set<string>();
    let surveyAnswers = 0;
    for (const answer of answers) {
      const quiz = quizByRef.get(answer.quiz) as ImportQuiz;
      types.add(quiz.questions?.[answer.question]?.type as string);
      if (quiz.survey) surveyAnswers += 1;
    }
    expect([...types].sort()).toStrictEqual([...QUESTION_TYPES].sort());
    expect(surveyAnswers).toBeGreaterThan(0);
    expect(answers.length).toBeGreaterThan(1000);
    expect(sessions).toHaveLength(16);
    expect(sent.calls.REST).toBeGreaterThan(5);
    expect(sent.calls.GraphQL).toBeGreaterThan(5);
    expect(sent.byPupils).toBeGreaterThan(0);
    expect(sent.earlier).toBeGreaterThan(0);
    expect(sent.resent).toBeGreaterThan(0);
    // Attendees took part each way: named through a group, named through an earlier session,
    // and joined with the code (some twice); a stranger named was refused.
    expect(sent.namedFromGroups).toBeGreaterThan(0);
    expect(sent.namedFromSessions).toBeGreaterThan(0);
    expect(sent.joins).toBeGreaterThan(0);
    expect(sent.joinedAgain).toBeGreaterThan(0);
    expect(sent.strangersRefused).toBe(1);
  });

  it('counted every answer once: inserted the rows, the earlier answers and resent ones not again', async () => {
    const rows = await b.dataSource.getRepository(Answer).count();
    expect(rows).toBe(answers.length);
    expect(sent.inserted).toBe(rows);
    expect(sent.received).toBe(answers.length + sent.earlier);
    // Each earlier answer was either stored then replaced (one update) or ignored (unchanged).
    expect(sent.updated + sent.unchanged).toBe(sent.earlier);
  });

  /** Every stored answer of a side, named by refs: session, user, quiz, question position. */
  async function storedAnswers(side: Side): Promise<string[]> {
    const refOf = (section: Section) =>
      new Map(Object.entries(side.ids[section]).map(([ref, id]) => [Number(id), ref]));
    const [users, quizzes, sessionRefs] = [refOf('users'), refOf('quizzes'), refOf('sessions')];
    const positions = new Map(
      (await side.dataSource.getRepository(Question).find()).map((question) => [
        question.id,
        question.position,
      ]),
    );
    return (await side.dataSource.getRepository(Answer).find())
      .map((row) =>
        JSON.stringify([
          sessionRefs.get(row.sessionId),
          users.get(row.userId),
          quizzes.get(row.quizId),
          positions.get(row.questionId),
          row.value,
          row.good,
          row.answeredAt.toISOString(),
        ]),
      )
      .sort();
  }

  it('stored the same answers, values, scores and times, and the same attendees', async () => {
    const [ofA, ofB] = [await storedAnswers(a), await storedAnswers(b)];
    expect(ofA).toHaveLength(answers.length);
    expect(ofB).toStrictEqual(ofA);
    const attendees = async (side: Side) => {
      const sessionRefs = new Map(Object.entries(side.ids.sessions).map(([ref, id]) => [id, ref]));
      const userRefs = new Map(Object.entries(side.ids.users).map(([ref, id]) => [id, ref]));
      return (await side.dataSource.getRepository(SessionAttendee).find())
        .map(
          (row) => `${sessionRefs.get(String(row.sessionId))}/${userRefs.get(String(row.userId))}`,
        )
        .sort();
    };
    expect(await attendees(b)).toStrictEqual(await attendees(a));
  });

  // -------------------------------------------------------------------------------------------
  // getResults on both sides

  async function getJson(side: Side, path: string): Promise<Json> {
    const res = await side.app.get(path);
    const body = (await res.json()) as Json;
    expect({ side: side.name, path, status: res.status }).toStrictEqual({
      side: side.name,
      path,
      status: 200,
    });
    return body;
  }

  /** Every item of the set `operation` makes, page after page. */
  async function allItems(
    side: Side,
    requester: string,
    operation: string,
    params: Record<string, string>,
  ): Promise<Item[]> {
    const search = await credentials(side, requester);
    const query = new URLSearchParams({ ...params, numberOfItemsPerPage: '1000' });
    const first = await getJson(side, `/${operation}?${search}&${query.toString()}`);
    const items = [...(first.items as Item[])];
    for (let page = 2; page <= (first.numberOfPages as number); page += 1) {
      const next = await getJson(
        side,
        `/getDataSetPage?${search}&dataSetId=${String(first.dataSetId)}&pageIndex=${page}`,
      );
      items.push(...(next.items as Item[]));
    }
    expect(items).toHaveLength(first.totalNumberOfItems as number);
    return items;
  }

  interface Sets {
    userSetId: string;
    quizSetId: string;
    users: unknown[];
  }

  /** A requester's user set and quiz set on a side, and the users in it (on A's ids). */
  async function setsOf(side: Side, requester: string, sessionRef?: string): Promise<Sets> {
    const set = async (operation: string, params: Record<string, string>) => {
      const search = await credentials(side, requester);
      const query = new URLSearchParams({ ...params, numberOfItemsPerPage: '1000' });
      return getJson(side, `/${operation}?${search}&${query.toString()}`);
    };
    let users: Json;
    if (sessionRef !== undefined) {
      users = await set('getUserSet', { sessionId: idOf(side, 'sessions', sessionRef) });
    } else if (requester === 'anonymous') {
      // A key alone reads no attendance (§6): the first attendees of the largest session, each
      // by id, in one set.
      const largest = [...sessions].sort(
        (x, y) => (y.attendees?.length ?? 0) - (x.attendees?.length ?? 0),
      )[0] as ImportSession;
      const [first, ...others] = (largest.attendees ?? []).slice(0, 4).map(({ user }) => user);
      users = await set('getUserSet', { userId: idOf(side, 'users', first as string) });
      for (const ref of others) {
        const one = await set('getUserSet', { userId: idOf(side, 'users', ref) });
        users = await set('computeDataSet', {
          dataSetId1: users.dataSetId as string,
          dataSetId2: one.dataSetId as string,
          operator: 'union',
        });
      }
    } else {
      const groups = await set('getUserGroupSet', {});
      expect((groups.items as Item[]).length).toBeGreaterThan(0);
      users = await set('getUserSet', { userGroupSetId: groups.dataSetId as string });
    }
    const quizzes = await set('getQuizSet', { creationDate: EVERY_DATE });
    const members = (users.items as Item[]).map((item) =>
      side === b ? toA('users', item.id) : item.id,
    );
    expect(members.length).toBeGreaterThan(0);
    expect((quizzes.items as Item[]).length).toBeGreaterThan(0);
    return {
      userSetId: users.dataSetId as string,
      quizSetId: quizzes.dataSetId as string,
      users: members.sort(),
    };
  }

  /** B's items on A's ids, without their place in the set, in one order. */
  function comparable(items: Item[], onB: boolean): string[] {
    return items
      .map(({ id: _id, ...item }) => {
        if (onB) {
          if ('userId' in item) item.userId = toA('users', item.userId);
          if ('quizId' in item) item.quizId = toA('quizzes', item.quizId);
          if ('sessionId' in item) item.sessionId = toA('sessions', item.sessionId);
        }
        return JSON.stringify(Object.entries(item).sort(([x], [y]) => x.localeCompare(y)));
      })
      .sort();
  }

  interface Combination {
    aggregationFunctions?: string;
    groupBy?: 'user' | 'quiz';
    includeQuizzes: 'answered' | 'all';
    /** Refs of the sessions the answers are restricted to. */
    sessions?: string[];
  }

  /** getResults for one combination on both sides: the same items; returns A's. */
  async function compare(
    requester: string,
    sets: { A: Sets; B: Sets },
    combination: Combination,
  ): Promise<Item[]> {
    const params = (side: Side): Record<string, string> => {
      const { sessions: refs, ...rest } = combination;
      return {
        userSetId: sets[side.name].userSetId,
        quizSetId: sets[side.name].quizSetId,
        resultTypes: RESULT_TYPES.join(','),
        ...rest,
        ...(refs ? { sessionIds: refs.map((ref) => idOf(side, 'sessions', ref)).join(',') } : {}),
      };
    };
    const ofA = await allItems(a, requester, 'getResults', params(a));
    const ofB = await allItems(b, requester, 'getResults', params(b));
    expect(ofA.map((item) => item.id)).toStrictEqual(ofA.map((_item, index) => String(index + 1)));
    expect(ofB.map((item) => item.id)).toStrictEqual(ofB.map((_item, index) => String(index + 1)));
    expect({ requester, combination, items: comparable(ofB, true) }).toStrictEqual({
      requester,
      combination,
      items: comparable(ofA, false),
    });
    return ofA;
  }

  const REQUESTERS = () => [...teachers, 'u20', 'anonymous'];

  it('getResults reads the same on A and B: detailed and aggregated, both groupings, both includeQuizzes', async () => {
    let compared = 0;
    let goodAttempts = 0;
    for (const requester of REQUESTERS()) {
      const sets = { A: await setsOf(a, requester), B: await setsOf(b, requester) };
      expect(sets.B.users).toStrictEqual(sets.A.users);
      for (const includeQuizzes of ['answered', 'all'] as const) {
        if (requester !== 'anonymous') {
          const detailed = await compare(requester, sets, { includeQuizzes });
          goodAttempts += detailed.filter(
            (item) => item.sessionId !== null && (item.nbGoodAnswers as number) > 0,
          ).length;
          compared += 1;
        }
        for (const groupBy of ['user', 'quiz'] as const) {
          const items = await compare(requester, sets, {
            aggregationFunctions: FUNCTIONS.join(','),
            groupBy,
            includeQuizzes,
          });
          expect(items.length).toBeGreaterThan(0);
          compared += 1;
        }
      }
    }
    expect(compared).toBe(REQUESTERS().length * 6 - 2);
    // The requesters saw attempts in detail, with good answers among them.
    expect(goodAttempts).toBeGreaterThan(0);
  });

  it('getResults reads the same for each aggregation function alone and for chosen sessions', async () => {
    const teacher = teachers[0] as string;
    const sets = { A: await setsOf(a, teacher), B: await setsOf(b, teacher) };
    // Each function alone, in both groupings, includeQuizzes taking turns.
    for (const [index, fn] of FUNCTIONS.entries()) {
      for (const [turn, groupBy] of (['user', 'quiz'] as const).entries()) {
        const includeQuizzes = (index + turn) % 2 === 0 ? 'answered' : 'all';
        const items = await compare(teacher, sets, {
          aggregationFunctions: fn,
          groupBy,
          includeQuizzes,
        });
        // One function: one item per member of the grouping set.
        if (groupBy === 'user') expect(items).toHaveLength(sets.A.users.length);
      }
    }
    const own = sessions.filter((session) => session.owner === teacher).map((s) => s.ref);
    const other = sessions.find((session) => session.owner !== teacher) as ImportSession;
    const chosen = [own[0] as string, other.ref];
    for (const includeQuizzes of ['answered', 'all'] as const) {
      const detailed = await compare(teacher, sets, { includeQuizzes, sessions: chosen });
      expect(detailed.length).toBeGreaterThan(0);
      await compare(teacher, sets, {
        aggregationFunctions: FUNCTIONS.join(','),
        groupBy: 'quiz',
        includeQuizzes,
        sessions: chosen,
      });
    }
  });

  it('getResults of the survey: answers counted, no score, on both sides', async () => {
    const survey = [...quizByRef.values()].find((quiz) => quiz.survey) as ImportQuiz;
    // A session whose attendees answered the survey, followed by its owner.
    const answered = answers.find((answer) => answer.quiz === survey.ref) as ImportAnswer;
    const session = sessions.find((s) => s.ref === answered.session) as ImportSession;
    const teacher = session.owner;
    const sets = {
      A: await setsOf(a, teacher, session.ref),
      B: await setsOf(b, teacher, session.ref),
    };
    const items = await compare(teacher, sets, {
      aggregationFunctions: 'max',
      groupBy: 'quiz',
      includeQuizzes: 'answered',
    });
    const ofSurvey = items.find((item) => item.quizId === idOf(a, 'quizzes', survey.ref));
    // A survey has no score (§7): its attempts count, their good answers are null.
    expect(ofSurvey).toMatchObject({ nbGoodAnswers: null });
    expect(ofSurvey?.nbAnswers as number).toBeGreaterThan(0);
  });
});

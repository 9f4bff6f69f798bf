import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap, ImportDocument, ImportQuiz } from '../../src/data/import/import-document';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, type Backend, openBackend } from '../helpers/database';
import { expectSetParity, type SetOperation } from '../helpers/parity';

/**
 * Every filter of getQuizSet, getUserSet and getUserGroupSet on a small hand-made classroom,
 * run on MariaDB and on SQLite: each case must give the expected members on both, and the two
 * dialects must agree case by case. Each case also runs on GraphQL in the same test, which must
 * give the same outcome as REST (expectSetParity): the same page and items (in their own set),
 * or the same error.
 *
 * T (Tina Turing) and U (Uma Unique) teach; P1..P3 are pupils; X is a stranger.
 * Sessions: S1 (T) plays q1, q3 to P1 (hand raised), P2; S2 (U) plays q2, q6 to P2 (hand
 * raised), P3; S3 (T) plays q5 to P3 (hand raised).
 */
type Quiz = Omit<ImportQuiz, 'ref' | 'survey'> & { ref: string };

const QUIZZES: Quiz[] = [
  {
    ref: 'q1',
    author: 'T',
    title: 'Fractions basics',
    visibility: 'public',
    tags: ['math', 'grade4'],
    creationDate: '2026-01-10 08:00:00',
    lastChangeDate: '2026-02-01 10:00:00',
    questions: [
      {
        title: 'Half of a dozen?',
        type: 'MultipleChoicesOneGoodAnswer',
        propositions: ['six', 'twelve'],
        goodAnswer: 0,
      },
    ],
  },
  {
    ref: 'q2',
    author: 'T',
    title: 'Volcano survey',
    visibility: 'public',
    tags: ['science', 'Geology'],
    creationDate: '2026-01-15 12:30:00',
    lastChangeDate: '2026-01-15 12:30:00',
    questions: [{ title: 'Is lava hot?', type: 'TrueFalse', goodAnswer: true }],
  },
  {
    ref: 'q3',
    author: 'T',
    title: 'Secret algebra',
    visibility: 'private',
    tags: ['math', 'hush'],
    creationDate: '2026-02-01 00:00:00',
    lastChangeDate: '2026-03-01 00:00:00',
    questions: [
      {
        title: 'Who proved it?',
        type: 'MultipleChoicesOneGoodAnswer',
        propositions: ['Pythagoras', 'Euclid'],
        goodAnswer: 0,
      },
    ],
  },
  {
    ref: 'q4',
    author: 'T',
    title: 'Draft history',
    visibility: 'draft',
    tags: ['history', 'wip'],
    creationDate: '2026-03-05 09:00:00',
    lastChangeDate: '2026-03-05 09:00:00',
  },
  {
    ref: 'q5',
    author: 'U',
    title: 'Reading 100% fun_time',
    visibility: 'public',
    tags: ['reading', 'literacy'],
    creationDate: '2026-01-10 23:59:59',
    lastChangeDate: '2026-01-20 00:00:00',
  },
  {
    ref: 'q6',
    author: 'U',
    title: 'Unseen private',
    visibility: 'private',
    tags: ['math', 'hidden'],
    creationDate: '2026-01-20 00:00:00',
    lastChangeDate: '2026-01-20 00:00:00',
  },
  {
    ref: 'q7',
    author: 'U',
    title: 'U draft',
    visibility: 'draft',
    tags: ['math', 'draftish'],
    creationDate: '2026-01-21 00:00:00',
    lastChangeDate: '2026-01-21 00:00:00',
  },
];

const user = (ref: string, firstName: string, lastName: string) => ({
  ref,
  email: `${ref.toLowerCase()}@school.example`,
  firstName,
  lastName,
});

const DOCUMENT: ImportDocument = {
  users: [
    user('T', 'Tina', 'Turing'),
    user('U', 'Uma', 'Unique'),
    user('P1', 'Paul', 'Pupil'),
    user('P2', 'Pia', 'Pupil'),
    user('P3', 'Pat', 'Pupil'),
    user('X', 'Xavier', 'Stranger'),
  ],
  quizzes: QUIZZES.map((quiz) => ({ survey: false, ...quiz })),
  groups: [
    { ref: 'G1', name: 'Class 4B', owner: 'T', members: ['P1', 'P2'] },
    { ref: 'G2', name: 'Class 5A', owner: 'T', members: ['P3'] },
    { ref: 'G3', name: 'Chess club', owner: 'U', members: ['P1', 'T'] },
    { ref: 'G4', name: 'Unrelated', owner: 'U', members: ['P3'] },
    { ref: 'G5', name: 'class_% odd', owner: 'T', members: [] },
  ],
  sessions: [
    {
      ref: 'S1',
      owner: 'T',
      title: 'Monday',
      startDate: '2026-02-02 09:00:00',
      quizzes: ['q1', 'q3'],
      attendees: [
        { user: 'P1', raisedHand: true },
        { user: 'P2', raisedHand: false },
      ],
    },
    {
      ref: 'S2',
      owner: 'U',
      title: 'Tuesday',
      startDate: '2026-02-03 09:00:00',
      quizzes: ['q2', 'q6'],
      attendees: [
        { user: 'P2', raisedHand: true },
        { user: 'P3', raisedHand: false },
      ],
    },
    {
      ref: 'S3',
      owner: 'T',
      title: 'Wednesday',
      startDate: '2026-02-04 09:00:00',
      quizzes: ['q5'],
      attendees: [{ user: 'P3', raisedHand: true }],
    },
  ],
};

type Requester = 'anonymous' | 'T' | 'U' | 'P1' | 'P2' | 'P3' | 'X';
const USERS: Exclude<Requester, 'anonymous'>[] = ['T', 'U', 'P1', 'P2', 'P3', 'X'];

/**
 * Parameters are written with refs between braces ({q1}, {S2}, {P1}, {G1} ...), replaced by
 * the ids each database gave them. `{set:...}` is a user group set made first (see below).
 */
interface Case {
  name: string;
  operation: 'getQuizSet' | 'getUserSet' | 'getUserGroupSet';
  requester: Requester;
  params: Record<string, string>;
  /** Member refs in id order, or the expected error. */
  expected: string[] | { status: number; type: string; parameterName?: string };
}

const quizCase = (
  name: string,
  requester: Requester,
  params: Record<string, string>,
  expected: Case['expected'],
): Case => ({ name, operation: 'getQuizSet', requester, params, expected });
const userCase = (
  name: string,
  requester: Requester,
  params: Record<string, string>,
  expected: Case['expected'],
): Case => ({ name, operation: 'getUserSet', requester, params, expected });
const groupCase = (
  name: string,
  requester: Requester,
  params: Record<string, string>,
  expected: Case['expected'],
): Case => ({ name, operation: 'getUserGroupSet', requester, params, expected });

const bad = (parameterName: string) => ({
  status: 400,
  type: 'BadParameterException',
  parameterName,
});
const QUIZ_FILTERS = 'keywords|quizId|tag|author|player|sessionId|creationDate|modificationDate';
const USER_FILTERS = 'userId|userGroupSetId|sessionId|quizId';

const needsToken = { status: 401, type: 'UnauthorizedOperationException' };
const denied = { status: 403, type: 'UnauthorizedOperationException' };

const CASES: Case[] = [
  // Visibility scope.
  quizCase('anonymous sees public quizzes only', 'anonymous', { tag: 'math' }, ['q1']),
  quizCase('a stranger sees public quizzes only', 'X', { tag: 'math' }, ['q1']),
  quizCase('an author sees their own private quiz', 'T', { tag: 'math' }, ['q1', 'q3']),
  quizCase('an author sees their own drafts and private quizzes', 'U', { tag: 'math' }, [
    'q1',
    'q6',
    'q7',
  ]),
  quizCase('an attendee sees private quizzes of their sessions', 'P1', { tag: 'math' }, [
    'q1',
    'q3',
  ]),
  quizCase('an attendee of two sessions sees both private quizzes', 'P2', { tag: 'math' }, [
    'q1',
    'q3',
    'q6',
  ]),
  quizCase("drafts are their author's alone", 'T', { keywords: 'draft' }, ['q4']),
  quizCase('anonymous sees no draft', 'anonymous', { keywords: 'draft' }, []),
  // quizId, tag, author, player, sessionId.
  quizCase('quizId', 'anonymous', { quizId: '{q2}' }, ['q2']),
  quizCase('quizId of a private quiz, anonymous', 'anonymous', { quizId: '{q3}' }, []),
  quizCase('quizId of a private quiz, its author', 'T', { quizId: '{q3}' }, ['q3']),
  quizCase('tag is case-insensitive', 'anonymous', { tag: 'GEOLOGY' }, ['q2']),
  quizCase('tag matches whole tags', 'anonymous', { tag: 'geo' }, []),
  quizCase('author', 'anonymous', { author: '{U}' }, ['q5']),
  quizCase('author, as that author', 'U', { author: '{U}' }, ['q5', 'q6', 'q7']),
  // Who played what is read within the requester scope (contract §6): sessions the requester
  // owns and the requester's own attendance; nothing for an anonymous requester.
  quizCase('player, anonymous: nothing', 'anonymous', { player: '{P3}' }, []),
  quizCase('player, as a fellow attendee: nothing', 'P2', { player: '{P3}' }, []),
  quizCase("player, as the owner of one of the pupil's sessions", 'T', { player: '{P3}' }, ['q5']),
  quizCase("player, as the owner of the pupil's other session", 'U', { player: '{P3}' }, [
    'q2',
    'q6',
  ]),
  quizCase('player, the pupil themself', 'P3', { player: '{P3}' }, ['q2', 'q5', 'q6']),
  quizCase('sessionId', 'anonymous', { sessionId: '{S1}' }, ['q1']),
  quizCase('sessionId, as an attendee', 'P1', { sessionId: '{S1}' }, ['q1', 'q3']),
  quizCase('unknown sessionId', 'anonymous', { sessionId: '2000000000' }, []),
  // keywords: each field kind, case, several words, LIKE wildcards taken literally.
  quizCase('keywords in a title', 'anonymous', { keywords: 'fractions' }, ['q1']),
  quizCase('keywords in a title, any case', 'anonymous', { keywords: 'FrAcTiOnS' }, ['q1']),
  quizCase('keywords in a tag', 'anonymous', { keywords: 'grade4' }, ['q1']),
  quizCase('keywords in a tag (substring)', 'anonymous', { keywords: 'liter' }, ['q5']),
  quizCase("keywords in the author's last name", 'anonymous', { keywords: 'turing' }, ['q1', 'q2']),
  quizCase("keywords in the author's first name", 'anonymous', { keywords: 'UMA' }, ['q5']),
  quizCase('keywords in a question title', 'anonymous', { keywords: 'lava' }, ['q2']),
  quizCase('keywords in a proposition', 'anonymous', { keywords: 'twelve' }, ['q1']),
  quizCase('keywords in a proposition of a private quiz', 'T', { keywords: 'pythagoras' }, ['q3']),
  quizCase('keywords: every word must match', 'anonymous', { keywords: 'math  fractions' }, ['q1']),
  quizCase(
    'keywords: words matching different quizzes',
    'anonymous',
    {
      keywords: 'fractions volcano',
    },
    [],
  ),
  quizCase('keywords: % is literal', 'anonymous', { keywords: '100%' }, ['q5']),
  quizCase('keywords: a lone % is literal', 'anonymous', { keywords: '%' }, ['q5']),
  quizCase('keywords: _ is literal', 'anonymous', { keywords: 's_c' }, []),
  quizCase('keywords: _ matches itself', 'anonymous', { keywords: 'n_t' }, ['q5']),
  // Dates: one day, one datetime, two values, day-only end.
  quizCase('creationDate one day', 'anonymous', { creationDate: '2026-01-10' }, ['q1', 'q5']),
  quizCase('creationDate one datetime', 'anonymous', { creationDate: '2026-01-10 08:00:00' }, [
    'q1',
  ]),
  quizCase('creationDate days', 'anonymous', { creationDate: '2026-01-11,2026-01-31' }, ['q2']),
  quizCase(
    'creationDate datetimes, end included',
    'anonymous',
    {
      creationDate: '2026-01-10 09:00:00,2026-01-15 12:30:00',
    },
    ['q2', 'q5'],
  ),
  quizCase(
    'creationDate datetime to day',
    'T',
    { creationDate: '2026-01-15 12:30:01,2026-02-01' },
    ['q3'],
  ),
  quizCase('modificationDate one day', 'T', { modificationDate: '2026-02-01' }, ['q1']),
  quizCase('modificationDate interval', 'T', { modificationDate: '2026-02-01,2026-03-01' }, [
    'q1',
    'q3',
  ]),
  // AND of filters.
  quizCase('tag and author', 'T', { tag: 'math', author: '{T}' }, ['q1', 'q3']),
  quizCase('author and creationDate', 'anonymous', { author: '{T}', creationDate: '2026-01-15' }, [
    'q2',
  ]),
  quizCase('sessionId and keywords', 'P1', { sessionId: '{S1}', keywords: 'secret' }, ['q3']),
  quizCase('player and tag', 'P2', { player: '{P2}', tag: 'science' }, ['q2']),
  // Refusals.
  quizCase(
    'no filter',
    'anonymous',
    {},
    {
      status: 400,
      type: 'MissingParameterException',
      parameterName: QUIZ_FILTERS,
    },
  ),
  // GraphQL has no argument colour: Apollo refuses the document (400 GRAPHQL_VALIDATION_FAILED);
  // the blank tag alone gives REST's answer there (expectSetParity asserts both).
  quizCase(
    'only unknown or blank parameters',
    'anonymous',
    { colour: 'red', tag: ' ' },
    {
      status: 400,
      type: 'MissingParameterException',
      parameterName: QUIZ_FILTERS,
    },
  ),
  quizCase('quizId not a number', 'anonymous', { quizId: 'abc' }, bad('quizId')),
  quizCase('author 0', 'anonymous', { author: '0' }, bad('author')),
  quizCase('player negative', 'anonymous', { player: '-3' }, bad('player')),
  quizCase('sessionId decimal', 'anonymous', { sessionId: '1.5' }, bad('sessionId')),
  quizCase(
    'creationDate month 13',
    'anonymous',
    { creationDate: '2026-13-01' },
    bad('creationDate'),
  ),
  quizCase(
    'creationDate 30 February',
    'anonymous',
    { creationDate: '2026-02-30' },
    bad('creationDate'),
  ),
  quizCase(
    'creationDate reversed',
    'anonymous',
    { creationDate: '2026-02-01,2026-01-01' },
    bad('creationDate'),
  ),
  quizCase(
    'modificationDate words',
    'anonymous',
    { modificationDate: 'yesterday' },
    bad('modificationDate'),
  ),

  // getUserSet.
  userCase('userId', 'anonymous', { userId: '{P1}' }, ['P1']),
  // A session's attendance: its owner and its attendees only (contract §6).
  userCase('sessionId, its owner', 'T', { sessionId: '{S1}' }, ['P1', 'P2']),
  userCase('sessionId, an attendee', 'P1', { sessionId: '{S1}' }, ['P1', 'P2']),
  userCase('sessionId, anonymous', 'anonymous', { sessionId: '{S1}' }, needsToken),
  userCase('sessionId, a stranger', 'X', { sessionId: '{S1}' }, denied),
  userCase("sessionId, another teacher's session", 'U', { sessionId: '{S1}' }, denied),
  userCase('sessionId unknown: as refused as a stranger', 'T', { sessionId: '2000000000' }, denied),
  userCase('raisedHand=true', 'T', { sessionId: '{S1}', raisedHand: 'true' }, ['P1']),
  userCase('raisedHand=1', 'U', { sessionId: '{S2}', raisedHand: '1' }, ['P2']),
  userCase('raisedHand=false', 'T', { sessionId: '{S1}', raisedHand: 'false' }, ['P2']),
  userCase('raisedHand=0, an attendee', 'P3', { sessionId: '{S2}', raisedHand: '0' }, ['P3']),
  userCase(
    'raisedHand, anonymous',
    'anonymous',
    { sessionId: '{S1}', raisedHand: '1' },
    needsToken,
  ),
  userCase('quizId: attendees of my sessions that played it', 'U', { quizId: '{q2}' }, [
    'P2',
    'P3',
  ]),
  userCase('quizId, anonymous: nobody', 'anonymous', { quizId: '{q2}' }, []),
  userCase("quizId played in another teacher's session: nobody", 'T', { quizId: '{q2}' }, []),
  userCase('quizId played in one session', 'T', { quizId: '{q1}' }, ['P1', 'P2']),
  userCase('quizId, a pupil: themself', 'P2', { quizId: '{q1}' }, ['P2']),
  userCase('sessionId and quizId', 'P2', { sessionId: '{S2}', quizId: '{q1}' }, ['P2']),
  userCase('userId and sessionId', 'U', { userId: '{P1}', sessionId: '{S2}' }, []),
  userCase('userGroupSetId: members of my groups', 'T', { userGroupSetId: '{set:T}' }, [
    'T',
    'P1',
    'P2',
    'P3',
  ]),
  userCase('userGroupSetId of a searched set', 'T', { userGroupSetId: '{set:T:class}' }, [
    'P1',
    'P2',
    'P3',
  ]),
  userCase(
    'userGroupSetId and sessionId',
    'T',
    {
      userGroupSetId: '{set:T:class}',
      sessionId: '{S1}',
    },
    ['P1', 'P2'],
  ),
  userCase('raisedHand without sessionId', 'anonymous', { raisedHand: 'true' }, bad('raisedHand')),
  // raisedHand is a Boolean on GraphQL: "yes" is none, so Apollo refuses it itself (400
  // BAD_USER_INPUT, no resolver run), asserted by expectSetParity. raisedHand 1 and 0 above are
  // true and false there.
  userCase(
    'raisedHand not a boolean',
    'anonymous',
    { sessionId: '{S1}', raisedHand: 'yes' },
    bad('raisedHand'),
  ),
  userCase(
    'no filter',
    'anonymous',
    {},
    {
      status: 400,
      type: 'MissingParameterException',
      parameterName: USER_FILTERS,
    },
  ),
  userCase('userId not a number', 'anonymous', { userId: 'x' }, bad('userId')),
  userCase('sessionId 0', 'anonymous', { sessionId: '0' }, bad('sessionId')),
  userCase('quizId too large', 'anonymous', { quizId: '99999999999' }, bad('quizId')),
  userCase('userGroupSetId not a number', 'T', { userGroupSetId: 'g' }, bad('userGroupSetId')),
  userCase(
    'userGroupSetId unknown',
    'T',
    { userGroupSetId: '2000000000' },
    {
      status: 404,
      type: 'BadParameterException',
      parameterName: 'userGroupSetId',
    },
  ),
  userCase(
    "userGroupSetId of another user's set",
    'U',
    { userGroupSetId: '{set:T}' },
    {
      status: 403,
      type: 'UnauthorizedOperationException',
    },
  ),
  userCase(
    'userGroupSetId naming a quiz set',
    'T',
    { userGroupSetId: '{quizset:T}' },
    bad('userGroupSetId'),
  ),

  // getUserGroupSet.
  groupCase(
    'needs a token',
    'anonymous',
    {},
    {
      status: 401,
      type: 'UnauthorizedOperationException',
    },
  ),
  groupCase('groups owned or joined (owner and member)', 'T', {}, ['G1', 'G2', 'G3', 'G5']),
  groupCase('groups owned', 'U', {}, ['G3', 'G4']),
  groupCase('groups joined', 'P1', {}, ['G1', 'G3']),
  groupCase('groups joined elsewhere', 'P3', {}, ['G2', 'G4']),
  groupCase('no group', 'X', {}, []),
  groupCase('search is a case-insensitive prefix', 'T', { search: 'class' }, ['G1', 'G2', 'G5']),
  groupCase('search with a space', 'T', { search: 'Class 4' }, ['G1']),
  groupCase('search: _ is literal', 'T', { search: 'class_' }, ['G5']),
  groupCase('search: % is literal', 'T', { search: '%' }, []),
  groupCase('search is a prefix, not a substring', 'T', { search: 'club' }, []),
];

type Outcome = string[] | { status: number; type: unknown; parameterName?: unknown };

/** What each backend answered, by case name, for the cross-dialect comparison at the end. */
const outcomes: Record<Backend, Map<string, Outcome>> = {
  MariaDB: new Map(),
  SQLite: new Map(),
};

describe.each(BACKENDS)('set filters on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let ids: IdMap;
  const credentials = {} as Record<Requester, string>;
  /** `{set:T}`, `{set:T:class}`, `{quizset:T}`: sets made by T before the cases run. */
  const sets: Record<string, string> = {};
  /** id → ref, per kind of item. */
  const refOf = {
    user: new Map<string, string>(),
    quiz: new Map<string, string>(),
    userGroup: new Map<string, string>(),
  };

  async function get(
    operation: SetOperation,
    requester: Requester,
    params: Record<string, string>,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await app.get(
      `/${operation}?${credentials[requester]}&${new URLSearchParams(params).toString()}`,
    );
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  /** `get`, then the same call on GraphQL, which must agree (see expectSetParity). */
  async function both(
    operation: SetOperation,
    requester: Requester,
    params: Record<string, string>,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const reply = await get(operation, requester, params);
    await expectSetParity(app.url, operation, params, credentials[requester], reply);
    return reply;
  }

  function resolve(value: string): string {
    return value.replace(/\{([^}]+)\}/g, (_match, ref: string) => {
      if (ref.includes('set:')) return sets[ref];
      const id = ids.quizzes[ref] ?? ids.sessions[ref] ?? ids.users[ref] ?? ids.groups[ref];
      if (id === undefined) throw new Error(`unknown ref ${ref}`);
      return id;
    });
  }

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'set_filters'));
    ids = await loadData(dataSource, DOCUMENT);
    for (const [ref, id] of Object.entries(ids.users)) refOf.user.set(id, ref);
    for (const [ref, id] of Object.entries(ids.quizzes)) refOf.quiz.set(id, ref);
    for (const [ref, id] of Object.entries(ids.groups)) refOf.userGroup.set(id, ref);
    const key = await createTestApiKey(dataSource, 'localhost');
    credentials.anonymous = `apiKey=${key.secret}`;
    for (const ref of USERS) {
      const token = await createTestToken(dataSource, Number(ids.users[ref]), key.id);
      credentials[ref] = `apiKey=${key.secret}&accessToken=${token}`;
    }
    app = await startTestApp(dataSource);
    const made = async (operation: SetOperation, params: Record<string, string>) => {
      const reply = await get(operation, 'T', params);
      expect(reply.status).toBe(200);
      return String(reply.body.dataSetId);
    };
    sets['set:T'] = await made('getUserGroupSet', {});
    sets['set:T:class'] = await made('getUserGroupSet', { search: 'class' });
    sets['quizset:T'] = await made('getQuizSet', { tag: 'math' });
  });

  afterAll(async () => {
    await app?.close();
    await close?.();
  });

  it.each(CASES.map((c) => [`${c.operation}: ${c.name}`, c] as const))('%s', async (label, c) => {
    const params = Object.fromEntries(
      Object.entries(c.params).map(([name, value]) => [name, resolve(value)]),
    );
    const reply = await both(c.operation, c.requester, params);
    let outcome: Outcome;
    if (reply.status === 200) {
      const itemType = reply.body.itemType as keyof typeof refOf;
      expect(itemType).toBe(
        { getQuizSet: 'quiz', getUserSet: 'user', getUserGroupSet: 'userGroup' }[c.operation],
      );
      const items = reply.body.items as { id: string }[];
      // Every member fits in the first page here, so the page is the whole set.
      expect(reply.body.totalNumberOfItems).toBe(items.length);
      outcome = items.map((item) => refOf[itemType].get(item.id) ?? `unknown id ${item.id}`);
    } else {
      outcome = {
        status: reply.status,
        type: reply.body.type,
        ...(reply.body.parameterName !== undefined && {
          parameterName: reply.body.parameterName,
        }),
      };
      expect(reply.body.operation).toBe(c.operation);
    }
    outcomes[backend].set(label, outcome);
    expect(outcome).toEqual(c.expected);
  });

  it('shows groups as {id, name, nbMembers} with string ids', async () => {
    const reply = await both('getUserGroupSet', 'T', { search: 'Class 4' });
    expect(reply.body.items).toEqual([{ id: ids.groups.G1, name: 'Class 4B', nbMembers: 2 }]);
  });

  it('shows quizzes in full and users with the details the policy allows', async () => {
    const quizzes = await both('getQuizSet', 'anonymous', { quizId: ids.quizzes.q1 });
    const [quiz] = quizzes.body.items as Record<string, unknown>[];
    expect(quiz).toMatchObject({
      id: ids.quizzes.q1,
      title: 'Fractions basics',
      visibility: 'public',
      tags: ['math', 'grade4'],
      creationDate: '2026-01-10 08:00:00',
      nbQuestions: 1,
      // The author of a public quiz has a public profile.
      author: { id: ids.users.T, firstName: 'Tina', lastName: 'Turing' },
    });
    expect(quiz).not.toHaveProperty('favorite');
    // A fellow attendee sees the others' ids only; their teacher knows them.
    const asAttendee = await both('getUserSet', 'P1', { sessionId: ids.sessions.S1 });
    expect(asAttendee.body.items).toEqual([
      { id: ids.users.P1, firstName: 'Paul', lastName: 'Pupil', pictureURL: null },
      { id: ids.users.P2 },
    ]);
    const asTeacher = await both('getUserSet', 'T', { sessionId: ids.sessions.S1 });
    expect(asTeacher.body.items).toEqual([
      { id: ids.users.P1, firstName: 'Paul', lastName: 'Pupil', pictureURL: null },
      { id: ids.users.P2, firstName: 'Pia', lastName: 'Pupil', pictureURL: null },
    ]);
  });
});

describe('set filters across dialects', () => {
  it('MariaDB and SQLite answered every case identically', () => {
    expect(outcomes.MariaDB.size).toBe(CASES.length);
    expect(outcomes.SQLite.size).toBe(CASES.length);
    expect(Object.fromEntries(outcomes.SQLite)).toEqual(Object.fromEntries(outcomes.MariaDB));
  });
});

import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap, ImportDocument } from '../../src/data/import/import-document';
import { QUIZ_FIELDS, QUIZ_PUBLIC_FIELDS } from '../../src/services/attributes/item-attribute';
import { getQuizAttribute } from '../../src/services/attributes/quiz-attribute.service';
import { getUserAttribute } from '../../src/services/attributes/user-attribute.service';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openSqliteTestDatabase, openTestDatabase } from '../helpers/database';
import { graphql } from '../helpers/graphql';
import { badParameterBody, missingParameterBody, unauthorizedBody } from '../helpers/exceptions';
import { expectParity, PARITY_QUERIES, type ParityOperation } from '../helpers/parity';
import { serviceContext } from '../helpers/service-context';

/**
 * Who is who:
 * - T (teacher): authors the public quiz `pub`, the private `priv` and the draft `draft`; owns
 *   sessions S1 and S2 and the group G (member M). Her profile is public through `pub`.
 * - P (teacher): private profile, authors only the private quiz `p2`; owns session S3.
 * - A, B, C: pupils. A attends S1, S2, S3; B attends S1; C attends S1, S2, S3.
 * - M: member of T's group, attended nothing, no picture.
 * - X: a stranger with a public profile. Y: a stranger with a private profile.
 */
const DOCUMENT: ImportDocument = {
  users: [
    {
      ref: 'T',
      email: 't@school.example',
      firstName: 'Tess',
      lastName: 'Teacher',
      pictureURL: 'https://school.example/t.png',
      canCreatePrivateQuizzes: true,
    },
    {
      ref: 'P',
      email: 'p@school.example',
      firstName: 'Paul',
      lastName: 'Prof',
      pictureURL: 'https://school.example/p.png',
      canCreatePrivateQuizzes: true,
    },
    {
      ref: 'A',
      email: 'a@school.example',
      firstName: 'Ann',
      lastName: 'Able',
      pictureURL: 'https://school.example/a.png',
    },
    { ref: 'B', email: 'b@school.example', firstName: 'Bea', lastName: 'Baker' },
    { ref: 'C', email: 'c@school.example', firstName: 'Cid', lastName: 'Cole' },
    { ref: 'M', email: 'm@school.example', firstName: 'Mia', lastName: 'Member' },
    {
      ref: 'X',
      email: 'x@school.example',
      firstName: 'Xena',
      lastName: 'Open',
      pictureURL: 'https://school.example/x.png',
      publicProfile: true,
    },
    { ref: 'Y', email: 'y@school.example', firstName: 'Yann', lastName: 'Closed' },
  ],
  groups: [{ ref: 'G', name: 'Class 4B', owner: 'T', members: ['M'] }],
  quizzes: [
    {
      ref: 'pub',
      author: 'T',
      title: 'Fractions',
      visibility: 'public',
      survey: false,
      tags: ['math', 'grade4'],
      defaultDuration: '10:00',
      creationDate: '2026-09-01 08:00:00',
      lastChangeDate: '2026-09-02 08:30:15',
      questions: [
        { title: '0.5 is 1/2', type: 'TrueFalse', goodAnswer: true },
        {
          title: '1/2 + 1/4 = ?',
          type: 'MultipleChoicesOneGoodAnswer',
          propositions: ['3/4', '2/6'],
          goodAnswer: 0,
        },
      ],
    },
    {
      ref: 'priv',
      author: 'T',
      title: 'Private checks',
      visibility: 'private',
      survey: false,
      tags: ['math', 'check'],
      creationDate: '2026-09-03 10:00:00',
      lastChangeDate: '2026-09-03 10:00:00',
      questions: [{ title: 'Ready?', type: 'TrueFalse', goodAnswer: true }],
    },
    {
      ref: 'draft',
      author: 'T',
      title: 'Work in progress',
      visibility: 'draft',
      survey: false,
      tags: ['draft', 'math'],
      questions: [{ title: 'Soon?', type: 'TrueFalse', goodAnswer: true }],
    },
    {
      ref: 'p2',
      author: 'P',
      title: 'Paul private',
      visibility: 'private',
      survey: false,
      tags: ['physics', 'check'],
      questions: [{ title: 'Gravity pulls?', type: 'TrueFalse', goodAnswer: true }],
    },
  ],
  sessions: [
    {
      ref: 'S1',
      owner: 'T',
      title: 'Monday',
      startDate: '2026-09-07 09:00:00',
      quizzes: ['pub', 'priv'],
      attendees: [{ user: 'A' }, { user: 'B' }, { user: 'C' }],
    },
    {
      ref: 'S2',
      owner: 'T',
      title: 'Tuesday',
      startDate: '2026-09-08 09:00:00',
      quizzes: ['pub'],
      attendees: [{ user: 'A' }, { user: 'C' }],
    },
    {
      ref: 'S3',
      owner: 'P',
      title: 'Physics',
      startDate: '2026-09-09 09:00:00',
      quizzes: ['pub', 'p2'],
      attendees: [{ user: 'A' }, { user: 'C' }],
    },
  ],
  answers: [
    // S1: A and B play pub, A and C play priv.
    {
      session: 'S1',
      user: 'A',
      quiz: 'pub',
      question: 0,
      answer: true,
      answeredAt: '2026-09-07 09:01:00',
    },
    {
      session: 'S1',
      user: 'A',
      quiz: 'pub',
      question: 1,
      answer: 0,
      answeredAt: '2026-09-07 09:02:00',
    },
    {
      session: 'S1',
      user: 'B',
      quiz: 'pub',
      question: 0,
      answer: false,
      answeredAt: '2026-09-07 09:01:30',
    },
    {
      session: 'S1',
      user: 'A',
      quiz: 'priv',
      question: 0,
      answer: true,
      answeredAt: '2026-09-07 09:10:00',
    },
    {
      session: 'S1',
      user: 'C',
      quiz: 'priv',
      question: 0,
      answer: false,
      answeredAt: '2026-09-07 09:10:30',
    },
    // S2: A plays pub again, C plays it too.
    {
      session: 'S2',
      user: 'A',
      quiz: 'pub',
      question: 0,
      answer: true,
      answeredAt: '2026-09-08 09:01:00',
    },
    {
      session: 'S2',
      user: 'C',
      quiz: 'pub',
      question: 1,
      answer: 1,
      answeredAt: '2026-09-08 09:02:00',
    },
    // S3 (P's session): C plays p2 and pub, A plays only pub.
    {
      session: 'S3',
      user: 'C',
      quiz: 'p2',
      question: 0,
      answer: true,
      answeredAt: '2026-09-09 09:01:00',
    },
    {
      session: 'S3',
      user: 'C',
      quiz: 'pub',
      question: 0,
      answer: true,
      answeredAt: '2026-09-09 09:05:00',
    },
    {
      session: 'S3',
      user: 'A',
      quiz: 'pub',
      question: 0,
      answer: true,
      answeredAt: '2026-09-09 09:05:10',
    },
  ],
  flags: [
    { user: 'A', quiz: 'pub', favorite: true, imported: false },
    { user: 'B', quiz: 'pub', favorite: true, imported: true },
    { user: 'C', quiz: 'pub', favorite: false, imported: true },
    { user: 'A', quiz: 'priv', favorite: true },
  ],
};

/**
 * The computed attributes, counted by hand from the document above.
 * - popularity(T): A, B, C answered pub or priv (A both, A and C in several sessions) → 3.
 * - popularity(P): only C answered p2; A answered in P's session but not P's quiz → 1.
 * - influence: T hosted S1, S2 → 2; P hosted S3 → 1; a pupil hosted none → 0.
 * - pub: played in S1, S2, S3; answered by A, B, C; favorite of A and B (C's flag is not a favorite).
 * - priv: played in S1; answered by A and C; favorite of A.
 * - p2: played in S3; answered by C; no flag. draft: never played, answered or flagged.
 */
const POPULARITY = { T: 3, P: 1, A: 0 };
const INFLUENCE = { T: 2, P: 1, A: 0 };
const QUIZ_COUNTS = {
  pub: { nbSessions: 3, nbPlayers: 3, nbFavorites: 2 },
  priv: { nbSessions: 1, nbPlayers: 2, nbFavorites: 1 },
  p2: { nbSessions: 1, nbPlayers: 1, nbFavorites: 0 },
  draft: { nbSessions: 0, nbPlayers: 0, nbFavorites: 0 },
};

type Requester = 'anonymous' | 'T' | 'P' | 'A' | 'C' | 'Y';
type Json = Record<string, unknown>;

describe('getUser, getUserAttribute, getQuizAttribute (REST and GraphQL)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let ids: IdMap;
  const credentials = {} as Record<Requester, string>;

  const user = (ref: string): string => ids.users[ref];
  const quiz = (ref: string): string => ids.quizzes[ref];

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDatabase('users_attributes'));
    ids = await loadData(dataSource, DOCUMENT);
    const key = await createTestApiKey(dataSource, 'localhost');
    credentials.anonymous = `apiKey=${encodeURIComponent(key.secret)}`;
    for (const ref of ['T', 'P', 'A', 'C', 'Y'] as const) {
      const token = await createTestToken(dataSource, Number(user(ref)), key.id);
      credentials[ref] = `${credentials.anonymous}&accessToken=${encodeURIComponent(token)}`;
    }
    app = await startTestApp(dataSource);
  });

  afterAll(async () => {
    await app?.close();
    await close?.();
  });

  async function call(
    operation: string,
    params: Record<string, string>,
    as: Requester,
  ): Promise<{ status: number; body: Json }> {
    const query = new URLSearchParams(params).toString();
    const res = await app.get(`/${operation}?${query}&${credentials[as]}`);
    return { status: res.status, body: (await res.json()) as Json };
  }

  /** The REST call, plus the same query on GraphQL with the same credentials: same outcome. */
  const both = (operation: ParityOperation, params: Record<string, string>, as: Requester) =>
    expectParity(app.url, operation, params, credentials[as]);

  /**
   * A missing parameter cannot reach a GraphQL resolver: the arguments are typed and required
   * (ID!, String!), so Apollo itself refuses the request (HTTP 400, no `data`, no resolver run),
   * with its own codes instead of MissingParameterException.
   */
  async function expectGraphQLRequires(
    operation: ParityOperation,
    params: Record<string, string>,
    missing: string,
    as: Requester,
  ): Promise<void> {
    const type = missing === 'attributeName' ? 'String' : 'ID';
    const search = `?${credentials[as]}`;
    // The variable not given: BAD_USER_INPUT.
    const unset = await graphql(app.url, PARITY_QUERIES[operation], { variables: params, search });
    expect(unset.status).toBe(400);
    expect(unset.body).not.toHaveProperty('data');
    expect(unset.body.errors).toHaveLength(1);
    expect(unset.body.errors?.[0]).toMatchObject({
      message: `Variable "$${missing}" of required type "${type}!" was not provided.`,
      extensions: { code: 'BAD_USER_INPUT' },
    });
    // The argument left out of the document: GRAPHQL_VALIDATION_FAILED.
    const args = Object.entries(params).map(([name, value]) => `${name}: ${JSON.stringify(value)}`);
    const document = `{ ${operation}${args.length ? `(${args.join(', ')})` : ''} { __typename } }`;
    const omitted = await graphql(app.url, document, { search });
    expect(omitted.status).toBe(400);
    expect(omitted.body).not.toHaveProperty('data');
    expect(omitted.body.errors).toHaveLength(1);
    expect(omitted.body.errors?.[0]).toMatchObject({
      message: `Field "${operation}" argument "${missing}" of type "${type}!" is required, but it was not provided.`,
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
  }

  const details = (ref: string): Json => {
    const record = DOCUMENT.users?.find((candidate) => candidate.ref === ref);
    return {
      id: user(ref),
      firstName: record?.firstName,
      lastName: record?.lastName,
      pictureURL: record?.pictureURL ?? null,
    };
  };

  describe('getUser', () => {
    it('shows the details of a public author to an anonymous requester', async () => {
      const { status, body } = await both('getUser', { userId: user('T') }, 'anonymous');
      expect(status).toBe(200);
      expect(body).toStrictEqual({
        id: user('T'),
        firstName: 'Tess',
        lastName: 'Teacher',
        pictureURL: 'https://school.example/t.png',
      });
    });

    it('shows only the id of a private profile to an anonymous requester', async () => {
      const { status, body } = await both('getUser', { userId: user('A') }, 'anonymous');
      expect(status).toBe(200);
      expect(body).toStrictEqual({ id: user('A') });
    });

    // requester, target, sees the details
    const visibility: [Requester, string, boolean, string][] = [
      ['Y', 'Y', true, 'self'],
      ['T', 'A', true, 'an attendee of a session the requester owns'],
      ['T', 'B', true, 'an attendee of a session the requester owns'],
      ['T', 'M', true, 'a member of a group the requester owns'],
      ['P', 'C', true, 'an attendee of a session the requester owns'],
      ['Y', 'X', true, 'a public profile'],
      ['Y', 'T', true, 'the author of a public quiz'],
      ['T', 'Y', false, 'a stranger'],
      ['Y', 'A', false, 'a stranger'],
      ['Y', 'P', false, 'a stranger who authored only a private quiz'],
      ['A', 'P', false, 'the owner of a session the requester attended (not the other way round)'],
      ['P', 'B', false, 'an attendee of another teacher’s session'],
      ['T', 'P', false, 'a colleague sharing attendees'],
    ];

    it.each(visibility)('%s looking at %s sees details: %s (%s)', async (as, target, sees) => {
      const { status, body } = await both('getUser', { userId: user(target) }, as);
      expect(status).toBe(200);
      // Hidden fields are absent, not null.
      expect(body).toStrictEqual(sees ? details(target) : { id: user(target) });
    });

    it('gives pictureURL null to a visible user who has no picture', async () => {
      const { body } = await both('getUser', { userId: user('M') }, 'T');
      expect(body).toStrictEqual({
        id: user('M'),
        firstName: 'Mia',
        lastName: 'Member',
        pictureURL: null,
      });
    });

    it('refuses a missing userId', async () => {
      const { status, body } = await call('getUser', {}, 'anonymous');
      expect(status).toBe(400);
      expect(body).toStrictEqual(missingParameterBody('getUser', 'userId'));
      // Cannot exist on GraphQL (userId: ID! is required): Apollo's own refusal applies.
      await expectGraphQLRequires('getUser', {}, 'userId', 'anonymous');
    });

    it('refuses a userId that is not an identifier', async () => {
      const { status, body } = await both('getUser', { userId: 'abc' }, 'anonymous');
      expect(status).toBe(400);
      expect(body).toStrictEqual(
        badParameterBody('getUser', 'userId', 'abc', 'must be a positive integer identifier'),
      );
    });

    it('answers 404 on an unknown userId', async () => {
      const { status, body } = await both('getUser', { userId: '999999' }, 'T');
      expect(status).toBe(404);
      expect(body).toStrictEqual(
        badParameterBody('getUser', 'userId', '999999', 'user 999999 does not exist'),
      );
    });
  });

  describe('getUserAttribute', () => {
    it('returns a detail the requester may see', async () => {
      const { status, body } = await both(
        'getUserAttribute',
        { userId: user('A'), attributeName: 'firstName' },
        'T',
      );
      expect(status).toBe(200);
      expect(body).toStrictEqual({
        itemType: 'user',
        itemId: user('A'),
        itemName: 'firstName',
        itemValue: 'Ann',
      });
    });

    it.each([
      ['Y', 'Y', 'lastName', 'Closed'],
      ['T', 'M', 'lastName', 'Member'],
      ['T', 'M', 'pictureURL', null],
      ['Y', 'X', 'pictureURL', 'https://school.example/x.png'],
      ['A', 'T', 'pictureURL', 'https://school.example/t.png'],
    ] as [Requester, string, string, string | null][])(
      '%s reads %s.%s',
      async (as, target, attributeName, itemValue) => {
        const { status, body } = await both(
          'getUserAttribute',
          { userId: user(target), attributeName },
          as,
        );
        expect(status).toBe(200);
        expect(body).toStrictEqual({
          itemType: 'user',
          itemId: user(target),
          itemName: attributeName,
          itemValue,
        });
      },
    );

    it.each(Object.entries(POPULARITY))('popularity of %s is %i', async (ref, value) => {
      // Y knows nobody: computed attributes need a token, not the right to see details.
      const { status, body } = await both(
        'getUserAttribute',
        { userId: user(ref), attributeName: 'popularity' },
        'Y',
      );
      expect(status).toBe(200);
      expect(body).toStrictEqual({
        itemType: 'user',
        itemId: user(ref),
        itemName: 'popularity',
        itemValue: value,
      });
    });

    it.each(Object.entries(INFLUENCE))('influence of %s is %i', async (ref, value) => {
      const { status, body } = await both(
        'getUserAttribute',
        { userId: user(ref), attributeName: 'influence' },
        'Y',
      );
      expect(status).toBe(200);
      expect(body).toStrictEqual({
        itemType: 'user',
        itemId: user(ref),
        itemName: 'influence',
        itemValue: value,
      });
    });

    it.each(['firstName', 'popularity'])(
      'needs an access token, even for %s',
      async (attributeName) => {
        const { status, body } = await both(
          'getUserAttribute',
          { userId: user('T'), attributeName },
          'anonymous',
        );
        expect(status).toBe(401);
        expect(body).toStrictEqual(
          unauthorizedBody('getUserAttribute', 'an access token is required'),
        );
      },
    );

    it.each([
      ['T', 'Y', 'firstName'],
      ['Y', 'A', 'lastName'],
      ['A', 'P', 'pictureURL'],
    ] as [Requester, string, string][])(
      '%s may not read the details of %s (%s): 403',
      async (as, target, attributeName) => {
        const { status, body } = await both(
          'getUserAttribute',
          { userId: user(target), attributeName },
          as,
        );
        const reason = `the details of user ${user(target)} are not visible to the requester`;
        expect(status).toBe(403);
        expect(body).toStrictEqual(unauthorizedBody('getUserAttribute', reason));
      },
    );

    it.each(['userId', 'attributeName'])('refuses a missing %s', async (parameterName) => {
      const params: Record<string, string> = { userId: user('A'), attributeName: 'firstName' };
      delete params[parameterName];
      const { status, body } = await call('getUserAttribute', params, 'T');
      expect(status).toBe(400);
      expect(body).toStrictEqual(missingParameterBody('getUserAttribute', parameterName));
      // Cannot exist on GraphQL (the argument is required): Apollo's own refusal applies.
      await expectGraphQLRequires('getUserAttribute', params, parameterName, 'T');
    });

    it('refuses an unknown attributeName', async () => {
      const { status, body } = await both(
        'getUserAttribute',
        { userId: user('A'), attributeName: 'email' },
        'T',
      );
      const reason = 'must be one of firstName, lastName, pictureURL, popularity, influence';
      expect(status).toBe(400);
      expect(body).toStrictEqual(
        badParameterBody('getUserAttribute', 'attributeName', 'email', reason),
      );
    });

    it('refuses a userId that is not an identifier', async () => {
      const { status, body } = await both(
        'getUserAttribute',
        { userId: '-3', attributeName: 'firstName' },
        'T',
      );
      expect(status).toBe(400);
      expect(body).toMatchObject({
        type: 'BadParameterException',
        operation: 'getUserAttribute',
        parameterName: 'userId',
        providedValue: '-3',
      });
    });

    it('answers 404 on an unknown userId', async () => {
      const { status, body } = await both(
        'getUserAttribute',
        { userId: '999999', attributeName: 'influence' },
        'T',
      );
      expect(status).toBe(404);
      expect(body).toStrictEqual(
        badParameterBody('getUserAttribute', 'userId', '999999', 'user 999999 does not exist'),
      );
    });
  });

  describe('getQuizAttribute', () => {
    const attribute = (ref: string, itemName: string, itemValue: unknown): Json => ({
      itemType: 'quiz',
      itemId: quiz(ref),
      itemName,
      itemValue,
    });

    it.each([
      ['anonymous', 'title', 'Fractions'],
      ['anonymous', 'visibility', 'public'],
      ['anonymous', 'survey', false],
      ['anonymous', 'tags', ['math', 'grade4']],
      ['anonymous', 'creationDate', '2026-09-01 08:00:00'],
      ['anonymous', 'lastChangeDate', '2026-09-02 08:30:15'],
      ['anonymous', 'nbQuestions', 2],
      ['A', 'defaultDuration', '10:00'],
      ['A', 'favorite', true],
      ['A', 'imported', false],
      ['C', 'favorite', false],
      ['C', 'imported', true],
      ['Y', 'favorite', false],
    ] as [Requester, string, unknown][])(
      '%s reads pub.%s',
      async (as, attributeName, itemValue) => {
        const { status, body } = await both(
          'getQuizAttribute',
          { quizId: quiz('pub'), attributeName },
          as,
        );
        expect(status).toBe(200);
        expect(body).toStrictEqual(attribute('pub', attributeName, itemValue));
      },
    );

    it('gives the id as a string and the author as a User', async () => {
      const id = await both('getQuizAttribute', { quizId: quiz('pub'), attributeName: 'id' }, 'A');
      expect(id.body).toStrictEqual(attribute('pub', 'id', quiz('pub')));
      const author = await both(
        'getQuizAttribute',
        { quizId: quiz('priv'), attributeName: 'author' },
        'C',
      );
      expect(author.status).toBe(200);
      expect(author.body).toStrictEqual(attribute('priv', 'author', details('T')));
    });

    it('shows questions as getQuiz does: good answers to the author only', async () => {
      const asAuthor = await both(
        'getQuizAttribute',
        { quizId: quiz('pub'), attributeName: 'questions' },
        'T',
      );
      expect(asAuthor.body).toStrictEqual(
        attribute('pub', 'questions', [
          { title: '0.5 is 1/2', type: 'TrueFalse', goodAnswer: true },
          {
            title: '1/2 + 1/4 = ?',
            type: 'MultipleChoicesOneGoodAnswer',
            propositions: ['3/4', '2/6'],
            goodAnswer: 0,
          },
        ]),
      );
      const asPupil = await both(
        'getQuizAttribute',
        { quizId: quiz('pub'), attributeName: 'questions' },
        'A',
      );
      expect(asPupil.body).toStrictEqual(
        attribute('pub', 'questions', [
          { title: '0.5 is 1/2', type: 'TrueFalse' },
          {
            title: '1/2 + 1/4 = ?',
            type: 'MultipleChoicesOneGoodAnswer',
            propositions: ['3/4', '2/6'],
          },
        ]),
      );
    });

    it('gives defaultDuration null where the quiz has none (getQuiz leaves it out)', async () => {
      const { status, body } = await both(
        'getQuizAttribute',
        { quizId: quiz('priv'), attributeName: 'defaultDuration' },
        'T',
      );
      expect(status).toBe(200);
      expect(body).toStrictEqual(attribute('priv', 'defaultDuration', null));
    });

    // Every field, for requesters who see it, equals the field getQuiz returns to them.
    const sameAsGetQuiz: [Requester, string, readonly string[]][] = [
      ['anonymous', 'pub', QUIZ_PUBLIC_FIELDS],
      ['T', 'pub', QUIZ_FIELDS],
      ['A', 'pub', QUIZ_FIELDS],
      ['T', 'priv', QUIZ_FIELDS],
      ['C', 'priv', QUIZ_FIELDS],
      ['T', 'draft', QUIZ_FIELDS],
    ];

    it.each(sameAsGetQuiz)('as %s, every field of %s equals getQuiz', async (as, ref, fields) => {
      const whole = await call('getQuiz', { quizId: quiz(ref) }, as);
      expect(whole.status).toBe(200);
      for (const field of fields) {
        const { status, body } = await both(
          'getQuizAttribute',
          { quizId: quiz(ref), attributeName: field },
          as,
        );
        expect(status).toBe(200);
        expect(body).toStrictEqual(attribute(ref, field, whole.body[field] ?? null));
      }
    });

    const counts = Object.entries(QUIZ_COUNTS).flatMap(([ref, values]) =>
      Object.entries(values).map(([name, value]) => [ref, name, value] as const),
    );

    it.each(counts)('%s.%s is %i', async (ref, attributeName, value) => {
      // The author reads every quiz, draft included.
      const as: Requester = ref === 'p2' ? 'P' : 'T';
      const { status, body } = await both(
        'getQuizAttribute',
        { quizId: quiz(ref), attributeName },
        as,
      );
      expect(status).toBe(200);
      expect(body).toStrictEqual(attribute(ref, attributeName, value));
    });

    it('computes counts of a public quiz for an anonymous requester', async () => {
      const { status, body } = await both(
        'getQuizAttribute',
        { quizId: quiz('pub'), attributeName: 'nbPlayers' },
        'anonymous',
      );
      expect(status).toBe(200);
      expect(body).toStrictEqual(attribute('pub', 'nbPlayers', 3));
    });

    it('lets an attendee of a session that played a private quiz read it', async () => {
      const { status, body } = await both(
        'getQuizAttribute',
        { quizId: quiz('priv'), attributeName: 'title' },
        'A',
      );
      expect(status).toBe(200);
      expect(body).toStrictEqual(attribute('priv', 'title', 'Private checks'));
    });

    it.each(['title', 'nbSessions'])(
      'refuses %s of a private quiz to an anonymous requester: 401',
      async (attributeName) => {
        const { status, body } = await both(
          'getQuizAttribute',
          { quizId: quiz('priv'), attributeName },
          'anonymous',
        );
        const reason = `access to quiz ${quiz('priv')} is denied`;
        expect(status).toBe(401);
        expect(body).toStrictEqual(unauthorizedBody('getQuizAttribute', reason));
      },
    );

    it.each([
      ['Y', 'priv'],
      ['P', 'priv'],
      ['A', 'draft'],
      ['T', 'p2'],
    ] as [Requester, string][])('refuses a quiz %s may not read (%s): 403', async (as, ref) => {
      const { status, body } = await both(
        'getQuizAttribute',
        { quizId: quiz(ref), attributeName: 'nbPlayers' },
        as,
      );
      const reason = `access to quiz ${quiz(ref)} is denied`;
      expect(status).toBe(403);
      expect(body).toStrictEqual(unauthorizedBody('getQuizAttribute', reason));
    });

    it.each(['defaultDuration', 'imported', 'favorite'])(
      'refuses %s of a public quiz to an anonymous requester: 401',
      async (attributeName) => {
        const { status, body } = await both(
          'getQuizAttribute',
          { quizId: quiz('pub'), attributeName },
          'anonymous',
        );
        const reason = `an access token is required to read attribute ${attributeName}`;
        expect(status).toBe(401);
        expect(body).toStrictEqual(unauthorizedBody('getQuizAttribute', reason));
      },
    );

    it.each(['quizId', 'attributeName'])('refuses a missing %s', async (parameterName) => {
      const params: Record<string, string> = { quizId: quiz('pub'), attributeName: 'title' };
      delete params[parameterName];
      const { status, body } = await call('getQuizAttribute', params, 'anonymous');
      expect(status).toBe(400);
      expect(body).toStrictEqual(missingParameterBody('getQuizAttribute', parameterName));
      // Cannot exist on GraphQL (the argument is required): Apollo's own refusal applies.
      await expectGraphQLRequires('getQuizAttribute', params, parameterName, 'anonymous');
    });

    it('refuses an empty attributeName as missing', async () => {
      const { status, body } = await both(
        'getQuizAttribute',
        { quizId: quiz('pub'), attributeName: '' },
        'anonymous',
      );
      expect(status).toBe(400);
      expect(body).toMatchObject({
        type: 'MissingParameterException',
        parameterName: 'attributeName',
      });
    });

    it('refuses an unknown attributeName', async () => {
      const { status, body } = await both(
        'getQuizAttribute',
        { quizId: quiz('pub'), attributeName: 'popularity' },
        'T',
      );
      const reason =
        'must be one of id, title, visibility, survey, tags, creationDate, lastChangeDate, ' +
        'author, nbQuestions, questions, defaultDuration, imported, favorite, nbSessions, ' +
        'nbPlayers, nbFavorites';
      expect(status).toBe(400);
      expect(body).toStrictEqual(
        badParameterBody('getQuizAttribute', 'attributeName', 'popularity', reason),
      );
    });

    it('refuses a quizId that is not an identifier', async () => {
      const { status, body } = await both(
        'getQuizAttribute',
        { quizId: '12ab', attributeName: 'title' },
        'anonymous',
      );
      expect(status).toBe(400);
      expect(body).toStrictEqual(
        badParameterBody(
          'getQuizAttribute',
          'quizId',
          '12ab',
          'must be a positive integer identifier',
        ),
      );
    });

    it('answers 404 on an unknown quizId', async () => {
      const { status, body } = await both(
        'getQuizAttribute',
        { quizId: '999999', attributeName: 'nbSessions' },
        'anonymous',
      );
      expect(status).toBe(404);
      expect(body).toStrictEqual(
        badParameterBody('getQuizAttribute', 'quizId', '999999', 'quiz 999999 does not exist'),
      );
    });
  });

  it('answers 405 to a POST on these operations', async () => {
    for (const operation of ['getUser', 'getUserAttribute', 'getQuizAttribute']) {
      const res = await app.get(`/${operation}?${credentials.anonymous}`, { method: 'POST' });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET');
    }
    // No GraphQL counterpart: the three are queries, which GraphQL takes by POST (as every case
    // above sends them) or GET. What applies is the refusal of any other method on /graphql, in
    // the GraphQL shape of contract.md §11.
    const res = await app.get(`/graphql?${credentials.anonymous}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: PARITY_QUERIES.getUser, variables: { userId: user('T') } }),
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST');
    const refused = (await res.json()) as { data?: unknown; errors?: { extensions?: Json }[] };
    expect(refused).not.toHaveProperty('data');
    expect(refused.errors?.[0]?.extensions).toMatchObject({
      code: 'METHOD_NOT_ALLOWED',
      type: 'UnsupportedRequestException',
      operation: 'graphql',
    });
  });
});

describe('computed attributes on SQLite (same statements, other dialect)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let ids: IdMap;

  beforeAll(async () => {
    ({ dataSource, close } = await openSqliteTestDatabase());
    ids = await loadData(dataSource, DOCUMENT);
  });

  afterAll(async () => {
    await close?.();
  });

  /** A service context for an authenticated user, as a transport would build it. */
  const contextOf = (operation: string, ref: string) =>
    serviceContext(dataSource, operation, {
      kind: 'user',
      apiKeyId: 0,
      userId: Number(ids.users[ref]),
    });

  it('computes popularity and influence', async () => {
    for (const [ref, value] of Object.entries(POPULARITY)) {
      const userId = Number(ids.users[ref]);
      const ctx = contextOf('getUserAttribute', 'Y');
      expect(await getUserAttribute(ctx, userId, 'popularity')).toStrictEqual({
        itemType: 'user',
        itemId: userId,
        itemName: 'popularity',
        itemValue: value,
      });
      expect((await getUserAttribute(ctx, userId, 'influence')).itemValue).toBe(
        INFLUENCE[ref as keyof typeof INFLUENCE],
      );
    }
  });

  it('computes nbSessions, nbPlayers and nbFavorites', async () => {
    for (const [ref, values] of Object.entries(QUIZ_COUNTS)) {
      const quizId = Number(ids.quizzes[ref]);
      const ctx = contextOf('getQuizAttribute', ref === 'p2' ? 'P' : 'T');
      for (const [name, value] of Object.entries(values)) {
        expect(await getQuizAttribute(ctx, quizId, name)).toStrictEqual({
          itemType: 'quiz',
          itemId: quizId,
          itemName: name,
          itemValue: value,
        });
      }
    }
  });
});

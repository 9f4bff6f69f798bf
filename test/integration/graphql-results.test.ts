import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap, ImportDocument } from '../../src/data/import/import-document';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';
import { requestStatements, StatementCounter } from '../helpers/statement-counter';
import { graphql } from '../helpers/graphql';

const PUPILS = Array.from({ length: 25 }, (_, i) => `p${i}`);
/** Session A: 3 pupils; session B: all 25. Pupil i answers true to the first question only if i is even. */
const DOCUMENT: ImportDocument = {
  users: [
    { ref: 'T', email: 't@school.example', firstName: 'Tina', lastName: 'Teacher' },
    ...PUPILS.map((ref, i) => ({
      ref,
      email: `${ref}@school.example`,
      firstName: `Pupil${i}`,
      lastName: 'P',
    })),
  ],
  quizzes: ['q1', 'q2'].map((ref) => ({
    ref,
    author: 'T',
    title: `Quiz ${ref}`,
    visibility: 'public' as const,
    survey: false,
    tags: ['results', ref],
    questions: [
      { title: 'First', type: 'TrueFalse', goodAnswer: true },
      { title: 'Second', type: 'TrueFalse', goodAnswer: true },
    ],
  })),
  sessions: [
    {
      ref: 'A',
      owner: 'T',
      title: 'Small class',
      startDate: '2026-10-01 09:00:00',
      quizzes: ['q1', 'q2'],
      attendees: PUPILS.slice(0, 3).map((user) => ({ user })),
    },
    {
      ref: 'B',
      owner: 'T',
      title: 'Whole year',
      startDate: '2026-10-02 09:00:00',
      quizzes: ['q1', 'q2'],
      attendees: PUPILS.map((user) => ({ user })),
    },
  ],
  answers: (['A', 'B'] as const).flatMap((session) =>
    (session === 'A' ? PUPILS.slice(0, 3) : PUPILS).flatMap((user, i) =>
      ['q1', 'q2'].flatMap((quiz) => [
        {
          session,
          user,
          quiz,
          question: 0,
          answer: i % 2 === 0,
          answeredAt: `2026-10-0${session === 'A' ? 1 : 2} 09:05:00`,
        },
        {
          session,
          user,
          quiz,
          question: 1,
          answer: true,
          answeredAt: `2026-10-0${session === 'A' ? 1 : 2} 09:06:30`,
        },
      ]),
    ),
  ),
};

const FLOW = `query ($sessionId: ID!) {
  getSessionResults(sessionId: $sessionId, resultTypes: [nbGoodAnswers, duration], numberOfItemsPerPage: 100) {
    userSet { totalNumberOfItems items { ... on User { id firstName } } }
    quizSet { totalNumberOfItems items { ... on Quiz { id title } } }
    results {
      itemType totalNumberOfItems
      items { ... on ComputedResult { userId quizId sessionId nbGoodAnswers duration percentile user { firstName } quiz { title author { firstName } } session { title } } }
    }
  }
}`;

describe('GraphQL results', () => {
  const logger = new StatementCounter();
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let ids: IdMap;
  let credentials: string;

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDatabase('gql_results', { logger }));
    ids = await loadData(dataSource, DOCUMENT);
    const key = await createTestApiKey(dataSource, 'localhost');
    credentials = `apiKey=${key.secret}&accessToken=${await createTestToken(dataSource, Number(ids.users.T), key.id)}`;
    app = await startTestApp(dataSource);
    // The credentials cache serves once a read of credential changes confirmed it (a request
    // starts the watch): no lookup then falls into a count by chance.
    await app.get(`/getUser?userId=${ids.users.T}&${credentials}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  });

  afterAll(async () => {
    await app.close();
    await close();
  });

  it('runs the typical flow of the spec in one request, with nested names', async () => {
    const { status, body } = await graphql(app.url, FLOW, {
      variables: { sessionId: ids.sessions.A },
      search: `?${credentials}`,
    });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const flow = body.data?.getSessionResults as Record<
      string,
      { totalNumberOfItems: number; items: Record<string, unknown>[] }
    >;
    expect(flow.userSet.totalNumberOfItems).toBe(3);
    expect(flow.quizSet.items.map((quiz) => quiz.title)).toEqual(['Quiz q1', 'Quiz q2']);
    expect(flow.results.totalNumberOfItems).toBe(6);
    const results = flow.results.items;
    // Ordered by (user, quiz, session); pupils 0 and 2 got both right, pupil 1 one of two.
    expect(
      results.map((r) => [
        r.user && (r.user as { firstName: string }).firstName,
        (r.quiz as { title: string }).title,
        r.nbGoodAnswers,
      ]),
    ).toEqual([
      ['Pupil0', 'Quiz q1', 2],
      ['Pupil0', 'Quiz q2', 2],
      ['Pupil1', 'Quiz q1', 1],
      ['Pupil1', 'Quiz q2', 1],
      ['Pupil2', 'Quiz q1', 2],
      ['Pupil2', 'Quiz q2', 2],
    ]);
    for (const result of results) {
      expect(result.sessionId).toBe(ids.sessions.A);
      expect(result.duration).toBe(90);
      // Not asked for: null.
      expect(result.percentile).toBeNull();
      expect(result.session).toEqual({ title: 'Small class' });
      expect(result.quiz).toMatchObject({ author: { firstName: 'Tina' } });
    }
  });

  it('gives the same results as the same flow over REST', async () => {
    const rest = async (path: string) =>
      (await (await app.get(`${path}&${credentials}`)).json()) as Record<string, unknown>;
    const userSet = await rest(`/getUserSet?sessionId=${ids.sessions.A}`);
    const quizSet = await rest(`/getQuizSet?sessionId=${ids.sessions.A}`);
    const results = await rest(
      `/getResults?userSetId=${String(userSet.dataSetId)}&quizSetId=${String(quizSet.dataSetId)}&sessionId=${ids.sessions.A}&resultTypes=nbGoodAnswers,duration&numberOfItemsPerPage=100`,
    );
    const { body } = await graphql(app.url, FLOW, {
      variables: { sessionId: ids.sessions.A },
      search: `?${credentials}`,
    });
    const graph = (
      body.data?.getSessionResults as { results: { items: Record<string, unknown>[] } }
    ).results.items;
    expect(
      graph.map(({ userId, quizId, sessionId, nbGoodAnswers, duration }) => ({
        userId,
        quizId,
        sessionId,
        nbGoodAnswers,
        duration,
      })),
    ).toEqual(
      (results.items as Record<string, unknown>[]).map(
        ({ userId, quizId, sessionId, nbGoodAnswers, duration }) => ({
          userId,
          quizId,
          sessionId,
          nbGoodAnswers,
          duration,
        }),
      ),
    );
  });

  it('reads a results page of 6 and one of 50, with nested users and quizzes, in the same number of statements', async () => {
    const cost = async (session: string) => {
      const sessionId = ids.sessions[session];
      logger.statements = [];
      logger.counting = true;
      try {
        const { body } = await graphql(app.url, FLOW, {
          variables: { sessionId },
          search: `?${credentials}`,
        });
        expect(body.errors).toBeUndefined();
        const results = (
          body.data?.getSessionResults as { results: { items: Record<string, unknown>[] } }
        ).results.items;
        return { results, statements: requestStatements(logger.statements).length };
      } finally {
        logger.counting = false;
      }
    };
    const small = await cost('A');
    const large = await cost('B');
    expect(small.results).toHaveLength(6);
    expect(large.results).toHaveLength(50);
    expect(
      large.results.every((r) => (r.user as { firstName: string }).firstName.startsWith('Pupil')),
    ).toBe(true);
    expect(large.statements).toBe(small.statements);
  });

  it('refuses detailed results without a token, as REST does, before writing any set', async () => {
    const key = credentials.split('&')[0];
    const sets = async () =>
      Number(
        ((await dataSource.query('SELECT COUNT(*) AS n FROM data_sets')) as { n: unknown }[])[0].n,
      );
    const before = await sets();
    const { body } = await graphql(app.url, FLOW, {
      variables: { sessionId: ids.sessions.A },
      search: `?${key}`,
    });
    // The root field's name (contract.md §11), for whichever of its steps refused.
    expect(body.errors?.[0]?.extensions).toMatchObject({
      type: 'UnauthorizedOperationException',
      operation: 'getSessionResults',
      code: 'UNAUTHENTICATED',
    });
    expect(body.data).toEqual({ getSessionResults: null });
    expect(await sets()).toBe(before);
  });

  describe('getResults errors read the same on REST and GraphQL', () => {
    const RESULTS = `query ($u: ID!, $q: ID!, $f: [AggregationFunction!], $g: GroupBy, $s: ID, $ss: [ID!]) {
      getResults(userSetId: $u, quizSetId: $q, aggregationFunctions: $f, groupBy: $g, sessionId: $s, sessionIds: $ss) { dataSetId }
    }`;
    let userSet: string;
    let quizSet: string;
    let otherUsersSet: string;

    beforeAll(async () => {
      const make = async (path: string, query = credentials) =>
        String(
          ((await (await app.get(`${path}&${query}`)).json()) as { dataSetId: string }).dataSetId,
        );
      userSet = await make(`/getUserSet?sessionId=${ids.sessions.A}`);
      quizSet = await make(`/getQuizSet?sessionId=${ids.sessions.A}`);
      const key = await createTestApiKey(dataSource, 'localhost');
      const pupil = `apiKey=${key.secret}&accessToken=${await createTestToken(dataSource, Number(ids.users.p0), key.id)}`;
      otherUsersSet = await make(`/getUserSet?sessionId=${ids.sessions.A}`, pupil);
    });

    const cases: [
      string,
      () => Record<string, string>,
      () => Record<string, unknown>,
      number,
      string,
      string,
    ][] = [
      [
        'an unknown user set',
        () => ({ userSetId: '999999', quizSetId: quizSet }),
        () => ({ u: '999999', q: quizSet }),
        404,
        'BadParameterException',
        'userSetId',
      ],
      [
        'a quiz set given as the user set',
        () => ({ userSetId: quizSet, quizSetId: quizSet }),
        () => ({ u: quizSet, q: quizSet }),
        400,
        'BadParameterException',
        'userSetId',
      ],
      [
        "another requester's set",
        () => ({ userSetId: otherUsersSet, quizSetId: quizSet }),
        () => ({ u: otherUsersSet, q: quizSet }),
        403,
        'UnauthorizedOperationException',
        '',
      ],
      [
        'aggregation without groupBy',
        () => ({ userSetId: userSet, quizSetId: quizSet, aggregationFunctions: 'average' }),
        () => ({ u: userSet, q: quizSet, f: ['average'] }),
        400,
        'MissingParameterException',
        'groupBy',
      ],
      [
        'groupBy without aggregation',
        () => ({ userSetId: userSet, quizSetId: quizSet, groupBy: 'user' }),
        () => ({ u: userSet, q: quizSet, g: 'user' }),
        400,
        'BadParameterException',
        'groupBy',
      ],
      [
        'sessionId and sessionIds together',
        () => ({
          userSetId: userSet,
          quizSetId: quizSet,
          sessionId: ids.sessions.A,
          sessionIds: ids.sessions.B,
        }),
        () => ({ u: userSet, q: quizSet, s: ids.sessions.A, ss: [ids.sessions.B] }),
        400,
        'BadParameterException',
        'sessionIds',
      ],
    ];

    it.each(cases)('%s', async (_label, restParams, variables, status, type, parameterName) => {
      const query = new URLSearchParams(restParams()).toString();
      const rest = await app.get(`/getResults?${query}&${credentials}`);
      const body = (await rest.json()) as Record<string, unknown>;
      expect(rest.status).toBe(status);
      expect(body.type).toBe(type);
      if (parameterName) expect(body.parameterName).toBe(parameterName);
      const gql = await graphql(app.url, RESULTS, {
        variables: variables(),
        search: `?${credentials}`,
      });
      expect(gql.status).toBe(200);
      const { message, ...fields } = body;
      expect(gql.body.errors?.[0]?.message).toBe(message);
      expect(gql.body.errors?.[0]?.extensions).toEqual({
        ...fields,
        code: { 400: 'BAD_USER_INPUT', 401: 'UNAUTHENTICATED', 403: 'FORBIDDEN', 404: 'NOT_FOUND' }[
          status
        ],
      });
    });

    it('refuses an unknown result type or function: REST by its exception, GraphQL by its enum types', async () => {
      for (const [name, value] of [
        ['resultTypes', 'score'],
        ['aggregationFunctions', 'mode'],
      ]) {
        const rest = await app.get(
          `/getResults?userSetId=${userSet}&quizSetId=${quizSet}&groupBy=user&${name}=${value}&${credentials}`,
        );
        expect(rest.status).toBe(400);
        expect(await rest.json()).toMatchObject({
          type: 'BadParameterException',
          parameterName: name,
        });
        const gql = await graphql(
          app.url,
          `query { getResults(userSetId: "${userSet}", quizSetId: "${quizSet}", groupBy: user, ${name}: [${value}]) { dataSetId } }`,
          { search: `?${credentials}` },
        );
        expect(gql.status).toBe(400);
        expect(gql.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
      }
    });
  });
});

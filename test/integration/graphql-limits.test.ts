import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openDatabase } from '../../src/db/data-source';
import { openTestDatabase, type TestDatabase } from '../helpers/database';
import { graphql, type GraphQLErrorBody } from '../helpers/graphql';

/**
 * The limits of one GraphQL document (contract.md §11): each at its edge, where the limit
 * passes and one more refuses before anything runs or is written; and every GraphQL error in
 * the contract's shape, with partial answers for failing root fields.
 */

const range = (count: number) => Array.from({ length: count }, (_item, index) => index);

function expectTooComplex(
  answer: Awaited<ReturnType<typeof graphql>>,
  limit: number,
  actual: number,
): void {
  expect(answer.status).toBe(400);
  expect(answer.body).not.toHaveProperty('data');
  expect(answer.body.errors?.map((error) => error.extensions)).toContainEqual({
    code: 'BAD_USER_INPUT',
    type: 'QueryTooComplexException',
    operation: 'graphql',
    reason: expect.stringContaining(`${actual}, over the limit of ${limit}`),
    limit,
    actual,
  });
}

describe('GraphQL document limits', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let search: string;
  let userId: string;
  let quizId: string;

  const count = async (table: string) =>
    Number(
      ((await dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`)) as { n: unknown }[])[0].n,
    );
  const run = (query: string, variables?: Record<string, unknown>) =>
    graphql(app.url, query, { search, variables });

  beforeAll(async () => {
    ({ db, dataSource, close } = await openTestDatabase('gql_limits'));
    const ids = await loadData(dataSource, {
      users: [
        {
          ref: 't',
          email: 't@school.example',
          firstName: 'Tess',
          lastName: 'Teacher',
          publicProfile: true,
        },
      ],
      quizzes: [
        {
          ref: 'q',
          author: 't',
          title: 'Fractions',
          visibility: 'public',
          survey: false,
          tags: ['math', 'grade4'],
          questions: [{ title: 'Half?', type: 'TrueFalse', goodAnswer: true }],
        },
      ],
    });
    userId = String(ids.users.t);
    quizId = String(ids.quizzes.q);
    const key = await createTestApiKey(dataSource, 'localhost');
    search = `?apiKey=${key.secret}&accessToken=${await createTestToken(dataSource, Number(userId), key.id)}`;
    app = await startTestApp(dataSource);
  });

  afterAll(async () => {
    await app.close();
    await close();
  });

  it('passes a depth of 10 and refuses 11', async () => {
    // __type 1, fields 2, type 3, then ofType levels, name last.
    const nested = (ofTypes: number) =>
      `{ __type(name: "Query") { fields { type { ${'ofType { '.repeat(ofTypes)}name${' }'.repeat(ofTypes)} } } } }`;
    const atLimit = await run(nested(6));
    expect(atLimit.status).toBe(200);
    expect(atLimit.body.errors).toBeUndefined();
    expect(atLimit.body.data?.__type).toMatchObject({ fields: expect.any(Array) });
    expectTooComplex(await run(nested(7)), 10, 11);
  });

  it('passes 30 aliases and refuses 31', async () => {
    const aliased = (aliases: number) =>
      `{ ${range(aliases)
        .map((index) => `u${index}: getUser(userId: "${userId}") { id }`)
        .join(' ')} }`;
    const atLimit = await run(aliased(30));
    expect(atLimit.status).toBe(200);
    expect(Object.keys(atLimit.body.data ?? {})).toHaveLength(30);
    expect(atLimit.body.data?.u29).toEqual({ id: userId });
    expectTooComplex(await run(aliased(31)), 30, 31);
  });

  it('passes 10 set-writing root fields, refuses 11, and writes no set when it refuses', async () => {
    const sets = (fields: number) =>
      `{ ${range(fields)
        .map((index) => `s${index}: getUserSet(userId: "${userId}") { dataSetId }`)
        .join(' ')} }`;
    const before = await count('data_sets');
    const atLimit = await run(sets(10));
    expect(atLimit.status).toBe(200);
    expect(atLimit.body.errors).toBeUndefined();
    expect(await count('data_sets')).toBe(before + 10);

    expectTooComplex(await run(sets(11)), 10, 11);
    // getSessionResults writes three sets.
    const sessions = `{ ${range(4)
      .map((index) => `r${index}: getSessionResults(sessionId: "1") { results { dataSetId } }`)
      .join(' ')} }`;
    expectTooComplex(await run(sessions), 10, 12);
    expect(await count('data_sets')).toBe(before + 10);
  });

  it('refuses 11 addQuiz mutations in one document and writes no quiz', async () => {
    const before = await count('quizzes');
    const mutation = `mutation ($quiz: QuizInput!) { ${range(11)
      .map((index) => `a${index}: addQuiz(quiz: $quiz) { id }`)
      .join(' ')} }`;
    const quiz = { title: 'Copies', visibility: 'public', survey: false, tags: ['a', 'b'] };
    expectTooComplex(await run(mutation, { quiz }), 10, 11);
    expect(await count('quizzes')).toBe(before);
  });

  it('refuses 1,000 aliases of getUserSet without writing a set', async () => {
    const before = await count('data_sets');
    const query = `{ ${range(1000)
      .map((index) => `s${index}: getUserSet(userId: "${userId}") { dataSetId }`)
      .join(' ')} }`;
    const refused = await run(query);
    expect(refused.status).toBe(400);
    expect(refused.body).not.toHaveProperty('data');
    // Parsing stops at the token limit before the document is even complete.
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({
      type: 'QueryTooComplexException',
      operation: 'graphql',
      limit: 1000,
    });
    expect(await count('data_sets')).toBe(before);
  });

  it('passes a document of 1,000 tokens and refuses 1,001', async () => {
    // `{ getUser ( userId : "…" ) { id firstName lastName } … }` is 13 tokens; each `tN: __typename`
    // adds 3 (GraphQL Armor does not count aliases of __typename).
    const tokens = (typenames: number, extra = '') =>
      `{ getUser(userId: "${userId}") { id firstName lastName${extra} } ${range(typenames)
        .map((index) => `t${index}: __typename`)
        .join(' ')} }`;
    const atLimit = await run(tokens(329));
    expect(atLimit.status).toBe(200);
    expect(atLimit.body.data?.getUser).toEqual({
      id: userId,
      firstName: 'Tess',
      lastName: 'Teacher',
    });
    expect(atLimit.body.data?.t328).toBe('Query');
    const over = await run(tokens(329, ' pictureURL'));
    expect(over.status).toBe(400);
    expect(over.body.errors?.[0]?.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      type: 'QueryTooComplexException',
      operation: 'graphql',
      reason: 'the document has more than 1000 tokens',
      limit: 1000,
      actual: 1001,
    });
  });

  describe('cost', () => {
    let costly: TestApp;

    beforeAll(async () => {
      // A data source of its own: closing an app closes its data source.
      costly = await startTestApp(await openDatabase(db.config), { GRAPHQL_MAX_COST: '51' });
    });

    afterAll(async () => {
      await costly.close();
    });

    const page = (fields: string) =>
      `query ($size: Int) { getUserSet(userId: "${userId}", numberOfItemsPerPage: $size) { ${fields} items { id firstName } } }`;

    it('passes a document at GRAPHQL_MAX_COST and refuses one over it', async () => {
      // Leaves are free: 50 items of 1 object each; the root field costs 1 + 50 × 50 / 50 = 51 at
      // the default page size, whatever scalars the page and its items select.
      const atLimit = await graphql(
        costly.url,
        page('dataSetId totalNumberOfItems numberOfPages itemType'),
        { search },
      );
      expect(atLimit.status).toBe(200);
      expect(atLimit.body.errors).toBeUndefined();
      // A page of 51 items: 1 + 50 × 51 / 50 = 52.
      expectTooComplex(
        await graphql(costly.url, page('dataSetId'), { search, variables: { size: 51 } }),
        51,
        52,
      );
      // A page of 100 items counts twice the default: 1 + 50 × 100 / 50 = 101.
      expectTooComplex(
        await graphql(costly.url, page('dataSetId'), { search, variables: { size: 100 } }),
        51,
        101,
      );
    });
  });

  it('answers each failing root field with its own error, named by its operation, beside the others’ data', async () => {
    const answer = await run(
      `{ missing: getQuiz(quizId: "999999") { id } found: getQuiz(quizId: "${quizId}") { title } nobody: getUser(userId: "999999") { id } }`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({
      missing: null,
      found: { title: 'Fractions' },
      nobody: null,
    });
    const errors = answer.body.errors as GraphQLErrorBody[];
    expect(
      errors.map((error) => [error.path, error.extensions?.operation, error.extensions?.type]),
    ).toEqual(
      expect.arrayContaining([
        [['missing'], 'getQuiz', 'BadParameterException'],
        [['nobody'], 'getUser', 'BadParameterException'],
      ]),
    );
    expect(errors).toHaveLength(2);
  });

  it.each([
    ['a syntax error', '{ getQuiz(', undefined, 'GRAPHQL_PARSE_FAILED', 'query'],
    ['an unknown field', '{ nothing }', undefined, 'GRAPHQL_VALIDATION_FAILED', 'query'],
    [
      'a variable of the wrong type',
      'query ($id: ID!) { getQuiz(quizId: $id) { id } }',
      { id: { not: 'an id' } },
      'BAD_USER_INPUT',
      'variables.id',
    ],
  ])(
    'gives %s the contract fields: type, operation and reason',
    async (_label, query, variables, code, parameterName) => {
      const answer = await run(query, variables);
      expect(answer.status).toBe(400);
      expect(answer.body.errors?.[0]?.extensions).toEqual({
        code,
        type: 'BadParameterException',
        operation: 'graphql',
        reason: expect.any(String),
        parameterName,
        providedValue: '',
      });
    },
  );

  it('keeps the introspection query of GraphQL IDEs within every limit', async () => {
    const { getIntrospectionQuery } = await import('graphql');
    const answer = await run(getIntrospectionQuery({ descriptions: true }));
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
  });
});

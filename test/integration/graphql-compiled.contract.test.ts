import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import { compiledOperationCount } from '../../src/api/graphql/execution/compiled.executor';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';
import { graphql } from '../helpers/graphql';

/**
 * GraphQL documents run on graphql-js the first time and compiled by graphql-jit from the second
 * (compiled.executor.ts): each document here is sent three times, and the compiled answers,
 * status and body, are those graphql-js gave, for interfaces, unions, variables, an operation
 * chosen by name, partial answers with domain errors, a mutation's refusal and bad variables.
 */
describe('GraphQL compiled documents answer as graphql-js does', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let search: string;
  let quizId: string;
  let userId: string;
  let quizSetId: string;

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDatabase('gql_compiled'));
    const ids = await loadData(dataSource, {
      users: [{ ref: 't', email: 't@school.example', firstName: 'Tess', lastName: 'Teacher' }],
      quizzes: [
        {
          ref: 'q',
          author: 't',
          title: 'Fractions',
          visibility: 'public',
          survey: false,
          tags: ['math', 'grade4'],
          questions: [
            { title: 'Half?', type: 'TrueFalse', goodAnswer: true },
            {
              title: 'Which?',
              type: 'MultipleChoicesOneGoodAnswer',
              propositions: ['a', 'b'],
              goodAnswer: 1,
            },
            { title: 'How many?', type: 'FreeAnswerNumber', goodAnswer: 3, tolerance: 5 },
          ],
        },
      ],
    });
    quizId = String(ids.quizzes.q);
    userId = String(ids.users.t);
    const key = await createTestApiKey(dataSource, 'localhost');
    search = `?apiKey=${key.secret}&accessToken=${await createTestToken(dataSource, Number(userId), key.id)}`;
    app = await startTestApp(dataSource);
    const made = await graphql(app.url, `{ getQuizSet(author: "${userId}") { dataSetId } }`, {
      search,
    });
    quizSetId = String((made.body.data?.getQuizSet as { dataSetId: string }).dataSetId);
  });

  afterAll(async () => {
    await app.close();
    await close();
  });

  /** The three answers of one document, without what changes from run to run. */
  async function thrice(
    query: string,
    variables?: Record<string, unknown>,
    operationName?: string,
  ) {
    const answers = [];
    for (let run = 0; run < 3; run += 1) {
      const answer = await graphql(app.url, query, { search, variables, operationName });
      answers.push({ status: answer.status, body: answer.body });
    }
    return answers;
  }

  /** [name, document, whether it answers data without errors] */
  const cases: [string, string, boolean][] = [
    [
      'a quiz with questions of three object types behind an interface',
      `query ($id: ID!) { getQuiz(quizId: $id) { id title tags nbQuestions author { id firstName }
         questions { __typename position type title
           ... on MultipleChoicesOneGoodAnswerQuestion { propositions choice: goodAnswer }
           ... on FreeAnswerNumberQuestion { tolerance number: goodAnswer }
           ... on TrueFalseQuestion { truth: goodAnswer } } } }`,
      true,
    ],
    [
      'a set page behind the DataSet interface, its items behind the DataSetItem union',
      `query ($set: ID!) { getDataSetPage(dataSetId: $set) { __typename dataSetId totalNumberOfItems
         ... on QuizPage { items { id title } }
         ... on DataSet { currentPageIndex anyItems: items { __typename ... on Quiz { id tags } } } } }`,
      true,
    ],
    [
      'partial answers: two root fields fail with domain errors beside one with data',
      `{ missing: getQuiz(quizId: "999999") { id } found: getQuiz(quizId: "QUIZ") { title }
         nobody: getUser(userId: "999999") { id } }`,
      false,
    ],
    [
      'a mutation refused by the service',
      `mutation { addQuiz(quiz: { title: "x", visibility: public, survey: false, tags: [], questions: [] }) { id } }`,
      false,
    ],
  ];

  it.each(cases)('%s', async (_name, text, clean) => {
    const query = text.replace('QUIZ', quizId);
    const before = compiledOperationCount();
    const [first, second, third] = await thrice(query, { id: quizId, set: quizSetId });
    // Only the second compiles; the third runs what it compiled.
    expect(compiledOperationCount()).toBe(before + 1);
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    // Each ran: data, or the service's own refusals (never a validation error).
    if (clean) expect(first.body.errors).toBeUndefined();
    else expect(first.body.errors?.length).toBeGreaterThan(0);
    expect(first.body.errors?.every((error) => error.extensions?.type !== undefined) ?? true).toBe(
      true,
    );
    expect(first.body.data).toBeDefined();
  });

  it('chooses the operation named, and refuses bad variables and an unknown name as graphql-js does', async () => {
    const document = `query A($id: ID!) { getQuiz(quizId: $id) { id } } query B { __typename }`;
    const [a1, a2, a3] = await thrice(document, { id: quizId }, 'A');
    expect(a1.body.data).toEqual({ getQuiz: { id: quizId } });
    expect([a2, a3]).toEqual([a1, a1]);
    const [bad1, bad2, bad3] = await thrice(document, { id: { not: 'an id' } }, 'A');
    expect(bad1.status).toBe(400);
    expect(bad1.body.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      parameterName: 'variables.id',
    });
    expect([bad2, bad3]).toEqual([bad1, bad1]);
    const [unknown1, unknown2] = await thrice(document, { id: quizId }, 'C');
    expect(unknown1.status).toBe(400);
    expect(unknown1.body.errors?.[0]?.extensions?.code).toBe('OPERATION_RESOLUTION_FAILURE');
    expect(unknown2).toEqual(unknown1);
  });
});

import type { DataSource } from 'typeorm';
import type { ImportDocument } from '../../src/data/import/import-document';
import { loadData } from '../../src/data/import/bulk-loader';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';
import { graphql } from '../helpers/graphql';

const DOCUMENT: ImportDocument = {
  users: [
    {
      ref: 'author',
      email: 'author@school.example',
      firstName: 'Ada',
      lastName: 'Author',
      canCreatePrivateQuizzes: true,
    },
    { ref: 'pupil', email: 'pupil@school.example', firstName: 'Pia', lastName: 'Pupil' },
  ],
  quizzes: [
    {
      ref: 'q',
      author: 'author',
      title: 'Every type',
      visibility: 'public',
      survey: false,
      tags: ['math', 'science'],
      defaultDuration: '10:00',
      creationDate: '2026-09-01 08:00:00',
      lastChangeDate: '2026-09-02 09:30:00',
      questions: [
        {
          title: 'One',
          type: 'MultipleChoicesOneGoodAnswer',
          propositions: ['a', 'b'],
          goodAnswer: 1,
        },
        {
          title: 'Several',
          type: 'MCQSeveralGoodAnswers',
          propositions: ['a', 'b', 'c'],
          goodAnswer: [0, 2],
        },
        { title: 'True?', type: 'TrueFalse', goodAnswer: true },
        {
          title: 'Word',
          type: 'FreeAnswerText',
          tolerance: 20,
          goodAnswer: 'Paris',
          media: { type: 'image', url: 'https://img.example/p.png' },
        },
        { title: 'Number', type: 'FreeAnswerNumber', tolerance: 5, goodAnswer: '0,75' },
      ],
    },
  ],
  flags: [{ user: 'pupil', quiz: 'q', favorite: true }],
};

const QUIZ_QUERY = `query ($id: ID!) {
  getQuiz(quizId: $id) {
    id title visibility survey tags creationDate lastChangeDate nbQuestions defaultDuration imported favorite
    author { id firstName lastName pictureURL }
    questions {
      __typename position type title media { type url }
      ... on MultipleChoicesOneGoodAnswerQuestion { propositions oneGood: goodAnswer }
      ... on MultipleChoicesSeveralGoodAnswersQuestion { propositions severalGood: goodAnswer }
      ... on TrueFalseQuestion { boolGood: goodAnswer }
      ... on FreeAnswerTextQuestion { tolerance caseSensitive textGood: goodAnswer }
      ... on FreeAnswerNumberQuestion { tolerance numberGood: goodAnswer }
    }
  }
}`;

describe('GraphQL endpoint', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let key: { id: number; secret: string };
  let quizId: string;
  let authorToken: string;
  let pupilToken: string;

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDatabase('graphql'));
    const ids = await loadData(dataSource, DOCUMENT);
    quizId = ids.quizzes.q;
    key = await createTestApiKey(dataSource, 'localhost');
    authorToken = await createTestToken(dataSource, Number(ids.users.author), key.id);
    pupilToken = await createTestToken(dataSource, Number(ids.users.pupil), key.id);
    app = await startTestApp(dataSource);
  });

  afterAll(async () => {
    await app.close();
    await close();
  });

  it('takes the API key from X-Api-Key and the token from Authorization: Bearer', async () => {
    const { status, body } = await graphql(app.url, QUIZ_QUERY, {
      variables: { id: quizId },
      headers: { 'x-api-key': key.secret, authorization: `Bearer ${pupilToken}` },
    });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const quiz = body.data?.getQuiz as Record<string, unknown>;
    expect(quiz).toMatchObject({
      id: quizId,
      title: 'Every type',
      visibility: 'public',
      survey: false,
      tags: ['math', 'science'],
      creationDate: '2026-09-01T08:00:00.000Z',
      lastChangeDate: '2026-09-02T09:30:00.000Z',
      nbQuestions: 5,
      defaultDuration: '10:00',
      imported: false,
      favorite: true,
      // The author of a public quiz has a public profile.
      author: { firstName: 'Ada', lastName: 'Author', pictureURL: null },
    });
    // Not the author: no good answers, as in REST.
    const questions = quiz.questions as Record<string, unknown>[];
    expect(questions.map((q) => q.__typename)).toEqual([
      'MultipleChoicesOneGoodAnswerQuestion',
      'MultipleChoicesSeveralGoodAnswersQuestion',
      'TrueFalseQuestion',
      'FreeAnswerTextQuestion',
      'FreeAnswerNumberQuestion',
    ]);
    // Each type selects its goodAnswer under its own alias: one per question, null here.
    const goodFields = ['oneGood', 'severalGood', 'boolGood', 'textGood', 'numberGood'];
    expect(
      questions.map((question) =>
        goodFields.filter((field) => field in question).map((field) => [field, question[field]]),
      ),
    ).toEqual(goodFields.map((field) => [[field, null]]));
    expect(questions[3]).toMatchObject({
      tolerance: 20,
      caseSensitive: false,
      media: { type: 'image', url: 'https://img.example/p.png' },
    });
  });

  it('shows the good answers to the author only, and the private fields to authenticated requesters only', async () => {
    const asAuthor = await graphql(app.url, QUIZ_QUERY, {
      variables: { id: quizId },
      search: `?apiKey=${key.secret}&accessToken=${authorToken}`,
    });
    const questions = (asAuthor.body.data?.getQuiz as { questions: Record<string, unknown>[] })
      .questions;
    expect(
      questions.map((q) => q.oneGood ?? q.severalGood ?? q.boolGood ?? q.textGood ?? q.numberGood),
    ).toEqual([1, [0, 2], true, 'Paris', 0.75]);

    const anonymous = await graphql(app.url, QUIZ_QUERY, {
      variables: { id: quizId },
      search: `?apiKey=${key.secret}`,
    });
    expect(anonymous.body.data?.getQuiz).toMatchObject({
      defaultDuration: null,
      imported: null,
      favorite: null,
    });

    // REST hides the same fields by leaving them out.
    const rest = (await (
      await app.get(`/getQuiz?quizId=${quizId}&apiKey=${key.secret}`)
    ).json()) as Record<string, unknown>;
    expect(rest).not.toHaveProperty('defaultDuration');
    expect(rest).not.toHaveProperty('favorite');
    expect((rest.questions as Record<string, unknown>[]).some((q) => 'goodAnswer' in q)).toBe(
      false,
    );
  });

  it('reports an addQuiz refusal exactly as REST does', async () => {
    const quiz = { title: 'ok title', visibility: 'public', survey: false, tags: ['only-one'] };
    const rest = await app.get(`/addQuiz?apiKey=${key.secret}&accessToken=${pupilToken}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ quiz }),
    });
    const restBody = (await rest.json()) as Record<string, unknown>;
    expect(rest.status).toBe(400);
    const gql = await graphql(
      app.url,
      'mutation ($quiz: QuizInput!) { addQuiz(quiz: $quiz) { id } }',
      {
        variables: { quiz },
        search: `?apiKey=${key.secret}&accessToken=${pupilToken}`,
      },
    );
    const { code, ...extensions } = gql.body.errors?.[0]?.extensions ?? {};
    expect(code).toBe('BAD_USER_INPUT');
    const { message, ...restFields } = restBody;
    expect(extensions).toEqual(restFields);
    expect(gql.body.errors?.[0]?.message).toBe(message);
    expect(restBody).toMatchObject({ type: 'BadParameterException', parameterName: 'quiz.tags' });
  });

  it.each([
    ['a bad identifier', 'x1', 400, 'BadParameterException', 'BAD_USER_INPUT'],
    ['an unknown quiz', '999999', 404, 'BadParameterException', 'NOT_FOUND'],
    ['a blank identifier', ' ', 400, 'MissingParameterException', 'BAD_USER_INPUT'],
  ])('answers getQuiz of %s exactly as REST does', async (_label, quizId, status, type, code) => {
    const rest = await app.get(
      `/getQuiz?quizId=${encodeURIComponent(quizId)}&apiKey=${key.secret}`,
    );
    const { message, ...fields } = (await rest.json()) as Record<string, unknown>;
    expect(rest.status).toBe(status);
    expect(fields).toMatchObject({ type, operation: 'getQuiz', parameterName: 'quizId' });
    const gql = await graphql(app.url, 'query ($id: ID!) { getQuiz(quizId: $id) { id } }', {
      variables: { id: quizId },
      search: `?apiKey=${key.secret}`,
    });
    expect(gql.status).toBe(200);
    expect(gql.body.errors?.[0]?.message).toBe(message);
    expect(gql.body.errors?.[0]?.extensions).toEqual({ ...fields, code });
  });

  it('keeps GraphQL syntax errors as GraphQL reports them', async () => {
    const { status, body } = await graphql(app.url, 'query { getQuiz(', {
      search: `?apiKey=${key.secret}`,
    });
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
  });

  it('tells caches not to store any answer, each being for its requester', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const query = encodeURIComponent('query ($id: ID!) { getQuiz(quizId: $id) { id } }');
      const variables = encodeURIComponent(JSON.stringify({ id: quizId }));
      const res =
        method === 'GET'
          ? await fetch(`${app.url}/graphql?query=${query}&variables=${variables}`, {
              headers: { 'x-api-key': key.secret, 'apollo-require-preflight': 'true' },
            })
          : await fetch(`${app.url}/graphql`, {
              method,
              headers: { 'x-api-key': key.secret, 'content-type': 'application/json' },
              body: JSON.stringify({
                query: 'query ($id: ID!) { getQuiz(quizId: $id) { id } }',
                variables: { id: quizId },
              }),
            });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: { getQuiz: { id: string } } }).data.getQuiz.id).toBe(
        quizId,
      );
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('serves Apollo Sandbox on GET outside production', async () => {
    const res = await app.get('/graphql', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(await res.text()).toMatch(/sandbox/i);
  });
});

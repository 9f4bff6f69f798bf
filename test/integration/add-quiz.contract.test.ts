import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import { startTestApp, type TestApp } from '../helpers/app';
import { TEACHER_AND_PUPIL } from '../helpers/fixtures';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';
import { graphql } from '../helpers/graphql';

const VALID = {
  title: 'Fractions',
  visibility: 'public',
  survey: false,
  tags: ['math', 'grade4'],
};

const question = (fields: Record<string, unknown>) => ({ ...VALID, questions: [fields] });
const mcq = {
  title: 'Pick',
  type: 'MultipleChoicesOneGoodAnswer',
  propositions: ['a', 'b', 'c'],
  goodAnswer: 0,
};

type Case = [
  label: string,
  payload: unknown,
  type: 'BadParameterException' | 'MissingParameterException',
  parameter: string,
];

/** One broken payload per constraint of contract.md §4; each must be refused naming the parameter. */
const INVALID: Case[] = [
  ['no quiz at all', undefined, 'MissingParameterException', 'quiz'],
  ['quiz is a string', 'a quiz', 'BadParameterException', 'quiz'],
  ['quiz is an array', [VALID], 'BadParameterException', 'quiz'],
  ['quiz is a number', 42, 'BadParameterException', 'quiz'],
  ['missing title', { ...VALID, title: undefined }, 'MissingParameterException', 'quiz.title'],
  ['title too short', { ...VALID, title: 'ab' }, 'BadParameterException', 'quiz.title'],
  ['title of spaces', { ...VALID, title: '     ' }, 'BadParameterException', 'quiz.title'],
  ['title too long', { ...VALID, title: 'x'.repeat(251) }, 'BadParameterException', 'quiz.title'],
  ['huge title', { ...VALID, title: 'y'.repeat(200_000) }, 'BadParameterException', 'quiz.title'],
  ['title is a number', { ...VALID, title: 12345 }, 'BadParameterException', 'quiz.title'],
  ['title is an array', { ...VALID, title: ['Fractions'] }, 'BadParameterException', 'quiz.title'],
  [
    'missing visibility',
    { ...VALID, visibility: undefined },
    'MissingParameterException',
    'quiz.visibility',
  ],
  [
    'unknown visibility',
    { ...VALID, visibility: 'secret' },
    'BadParameterException',
    'quiz.visibility',
  ],
  [
    'visibility in capitals',
    { ...VALID, visibility: 'PUBLIC' },
    'BadParameterException',
    'quiz.visibility',
  ],
  ['missing survey', { ...VALID, survey: undefined }, 'MissingParameterException', 'quiz.survey'],
  ['survey as a string', { ...VALID, survey: 'false' }, 'BadParameterException', 'quiz.survey'],
  ['missing tags', { ...VALID, tags: undefined }, 'MissingParameterException', 'quiz.tags'],
  ['one tag', { ...VALID, tags: ['math'] }, 'BadParameterException', 'quiz.tags'],
  ['two equal tags', { ...VALID, tags: ['math', 'math'] }, 'BadParameterException', 'quiz.tags[1]'],
  [
    'tag with a quote',
    { ...VALID, tags: ['math', 'say "hi"'] },
    'BadParameterException',
    'quiz.tags[1]',
  ],
  [
    'tag with a backslash',
    { ...VALID, tags: ['math', 'a\\b'] },
    'BadParameterException',
    'quiz.tags[1]',
  ],
  ['tags as a string', { ...VALID, tags: 'math,grade4' }, 'BadParameterException', 'quiz.tags'],
  [
    'tag is an object',
    { ...VALID, tags: ['math', { tag: 'x' }] },
    'BadParameterException',
    'quiz.tags[1]',
  ],
  [
    'bad defaultDuration',
    { ...VALID, defaultDuration: '10 minutes' },
    'BadParameterException',
    'quiz.defaultDuration',
  ],
  [
    'defaultDuration minutes over 59',
    { ...VALID, defaultDuration: '1:75:00' },
    'BadParameterException',
    'quiz.defaultDuration',
  ],
  ['favorite as a string', { ...VALID, favorite: 'yes' }, 'BadParameterException', 'quiz.favorite'],
  [
    'questions not an array',
    { ...VALID, questions: { 0: mcq } },
    'BadParameterException',
    'quiz.questions',
  ],
  [
    'question not an object',
    { ...VALID, questions: ['What?'] },
    'BadParameterException',
    'quiz.questions[0]',
  ],
  [
    'question without title',
    question({ ...mcq, title: undefined }),
    'MissingParameterException',
    'quiz.questions[0].title',
  ],
  [
    'question title too long',
    question({ ...mcq, title: 'q'.repeat(251) }),
    'BadParameterException',
    'quiz.questions[0].title',
  ],
  [
    'unknown question type',
    question({ ...mcq, type: 'Essay' }),
    'BadParameterException',
    'quiz.questions[0].type',
  ],
  [
    'one proposition',
    question({ ...mcq, propositions: ['a'], goodAnswer: 0 }),
    'BadParameterException',
    'quiz.questions[0].propositions',
  ],
  [
    'eleven propositions',
    question({ ...mcq, propositions: 'abcdefghijk'.split('') }),
    'BadParameterException',
    'quiz.questions[0].propositions',
  ],
  [
    'missing propositions',
    question({ ...mcq, propositions: undefined }),
    'MissingParameterException',
    'quiz.questions[0].propositions',
  ],
  [
    'good index out of range',
    question({ ...mcq, goodAnswer: 3 }),
    'BadParameterException',
    'quiz.questions[0].goodAnswer',
  ],
  [
    'good index as a string',
    question({ ...mcq, goodAnswer: '0' }),
    'BadParameterException',
    'quiz.questions[0].goodAnswer',
  ],
  [
    'missing goodAnswer',
    question({ ...mcq, goodAnswer: undefined }),
    'MissingParameterException',
    'quiz.questions[0].goodAnswer',
  ],
  [
    'repeated indexes',
    question({ ...mcq, type: 'MultipleChoicesSeveralGoodAnswers', goodAnswer: [0, 0] }),
    'BadParameterException',
    'quiz.questions[0].goodAnswer',
  ],
  [
    'true/false as text',
    question({ title: 'T?', type: 'TrueFalse', goodAnswer: 'yes' }),
    'BadParameterException',
    'quiz.questions[0].goodAnswer',
  ],
  [
    'tolerance not allowed',
    question({ title: 'N', type: 'FreeAnswerNumber', tolerance: 10, goodAnswer: 1 }),
    'BadParameterException',
    'quiz.questions[0].tolerance',
  ],
  [
    'tolerance with caseSensitive',
    question({
      title: 'W',
      type: 'FreeAnswerText',
      caseSensitive: true,
      tolerance: 5,
      goodAnswer: 'x',
    }),
    'BadParameterException',
    'quiz.questions[0].tolerance',
  ],
  [
    'number with 9 decimals',
    question({ title: 'N', type: 'FreeAnswerNumber', goodAnswer: '1.123456789' }),
    'BadParameterException',
    'quiz.questions[0].goodAnswer',
  ],
  [
    'empty text answer',
    question({ title: 'W', type: 'FreeAnswerText', goodAnswer: '   ' }),
    'BadParameterException',
    'quiz.questions[0].goodAnswer',
  ],
  [
    'media of unknown type',
    question({ ...mcq, media: { type: 'gif', url: 'https://x.example/a.gif' } }),
    'BadParameterException',
    'quiz.questions[0].media.type',
  ],
  [
    'media URL not http',
    question({ ...mcq, media: { type: 'image', url: 'javascript:alert(1)' } }),
    'BadParameterException',
    'quiz.questions[0].media.url',
  ],
  [
    'goodAnswer in a survey',
    { ...VALID, survey: true, questions: [mcq] },
    'BadParameterException',
    'quiz.questions[0].goodAnswer',
  ],
  [
    'deeply nested junk',
    { ...VALID, questions: [{ ...mcq, goodAnswer: [[[[[[[[[[0]]]]]]]]]] }] },
    'BadParameterException',
    'quiz.questions[0].goodAnswer',
  ],
  [
    'second question broken',
    { ...VALID, questions: [mcq, { ...mcq, propositions: [] }] },
    'BadParameterException',
    'quiz.questions[1].propositions',
  ],
];

describe('addQuiz', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let credentials: string;
  let noRightCredentials: string;

  const snapshot = async () => {
    const rows = await Promise.all(
      ['quizzes', 'quiz_tags', 'questions', 'user_quiz_flags'].map(
        async (table) =>
          ((await dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`)) as { n: unknown }[])[0].n,
      ),
    );
    return rows.map(Number);
  };

  const post = (query: string, body: string, contentType = 'application/json') =>
    app.get(`/addQuiz?${query}`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    });

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDatabase('addquiz'));
    const ids = await loadData(dataSource, TEACHER_AND_PUPIL);
    const key = await createTestApiKey(dataSource, 'localhost');
    credentials = `apiKey=${key.secret}&accessToken=${await createTestToken(dataSource, Number(ids.users.t), key.id)}`;
    noRightCredentials = `apiKey=${key.secret}&accessToken=${await createTestToken(dataSource, Number(ids.users.s), key.id)}`;
    app = await startTestApp(dataSource);
  });

  afterAll(async () => {
    await app.close();
    await close();
  });

  it('stores a quiz of every question type and returns it as getQuiz does', async () => {
    const quiz = {
      ...VALID,
      defaultDuration: '1:30:00',
      favorite: true,
      ignoredField: 'unknown fields are ignored',
      questions: [
        { ...mcq, media: { type: 'youtube', url: 'https://youtu.be/x' } },
        {
          title: 'Several',
          type: 'MCQSeveralGoodAnswers',
          propositions: ['a', 'b', 'c'],
          goodAnswer: [2, 0],
        },
        { title: 'True?', type: 'TrueFalse', goodAnswer: false },
        { title: 'Capital', type: 'FreeAnswerText', tolerance: 20, goodAnswer: ' Paris ' },
        { title: 'Half', type: 'FreeAnswerNumber', tolerance: 5, goodAnswer: '0,5' },
      ],
    };
    const res = await post(credentials, JSON.stringify({ quiz }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      title: 'Fractions',
      visibility: 'public',
      survey: false,
      tags: ['math', 'grade4'],
      nbQuestions: 5,
      defaultDuration: '1:30:00',
      favorite: true,
      imported: false,
      author: { firstName: 'Tess', lastName: 'Teacher' },
    });
    expect(body).not.toHaveProperty('ignoredField');
    expect(body.creationDate).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(body.questions).toEqual([
      {
        title: 'Pick',
        type: 'MultipleChoicesOneGoodAnswer',
        media: { type: 'youtube', url: 'https://youtu.be/x' },
        propositions: ['a', 'b', 'c'],
        goodAnswer: 0,
      },
      {
        title: 'Several',
        type: 'MultipleChoicesSeveralGoodAnswers',
        propositions: ['a', 'b', 'c'],
        goodAnswer: [0, 2],
      },
      { title: 'True?', type: 'TrueFalse', goodAnswer: false },
      {
        title: 'Capital',
        type: 'FreeAnswerText',
        tolerance: 20,
        caseSensitive: false,
        goodAnswer: 'Paris',
      },
      { title: 'Half', type: 'FreeAnswerNumber', tolerance: 5, goodAnswer: 0.5 },
    ]);
    const again = (await (
      await app.get(`/getQuiz?quizId=${String(body.id)}&${credentials}`)
    ).json()) as Record<string, unknown>;
    expect(again).toEqual(body);
  });

  it('takes the quiz from the query string too, and refuses it given in both places', async () => {
    const quiz = encodeURIComponent(JSON.stringify({ ...VALID, title: 'From the query string' }));
    const res = await post(`${credentials}&quiz=${quiz}`, '');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { title: string }).title).toBe('From the query string');

    const before = await snapshot();
    const both = await post(`${credentials}&quiz=${quiz}`, JSON.stringify({ quiz: VALID }));
    expect(both.status).toBe(400);
    expect(await both.json()).toMatchObject({
      type: 'BadParameterException',
      parameterName: 'quiz',
    });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a private quiz on an account without the right (403) and writes nothing', async () => {
    const before = await snapshot();
    const res = await post(
      noRightCredentials,
      JSON.stringify({ quiz: { ...VALID, visibility: 'private' } }),
    );
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      type: 'UnauthorizedOperationException',
      operation: 'addQuiz',
    });
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['not JSON', '{"quiz": {"title": ', 'body'],
    ['a JSON array body', '[{"quiz": {}}]', 'body'],
    ['quiz in the query string is not JSON', '', 'quiz'],
  ])('refuses %s with BadParameterException and writes nothing', async (label, body, parameter) => {
    const before = await snapshot();
    const query = label.startsWith('quiz in the query')
      ? `${credentials}&quiz=%7Bnot-json`
      : credentials;
    const res = await post(query, body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      type: 'BadParameterException',
      parameterName: parameter,
    });
    expect(await snapshot()).toEqual(before);
  });

  it.each(INVALID)(
    'refuses %s (%#) naming the parameter, on REST and GraphQL, and writes nothing',
    async (_label, payload, type, parameter) => {
      const before = await snapshot();
      const res = await post(credentials, JSON.stringify({ quiz: payload }));
      const body = (await res.json()) as Record<string, unknown>;
      expect(res.status).toBe(400);
      expect(body).toMatchObject({ type, operation: 'addQuiz', parameterName: parameter });
      expect(await snapshot()).toEqual(before);

      // GraphQL's typed input refuses wrong scalar types itself; where the payload fits its types,
      // the answer must be the same exception.
      const gql = await graphql(
        app.url,
        'mutation ($quiz: QuizInput!) { addQuiz(quiz: $quiz) { id } }',
        {
          variables: { quiz: payload ?? null },
          search: `?${credentials}`,
        },
      );
      const error = gql.body.errors?.[0];
      expect(error).toBeDefined();
      if (error?.extensions?.operation === 'graphql') {
        // Refused by the typed input before any resolver (contract.md §15): a required field
        // absent is REST's MissingParameterException on the same path (one inside what REST
        // refuses where GraphQL reads an object as a list of one); another value the input's
        // types do not hold names the variable.
        const missing = error.extensions.type === 'MissingParameterException';
        expect(error.extensions).toMatchObject({
          code: 'BAD_USER_INPUT',
          type: missing ? 'MissingParameterException' : 'BadParameterException',
        });
        const named = String(error.extensions.parameterName);
        if (!missing) expect(named).toBe('variables.quiz');
        else if (type === 'MissingParameterException') expect(named).toBe(parameter);
        else expect(named.startsWith(`${parameter}.`)).toBe(true);
      } else {
        expect(error?.extensions).toMatchObject({
          type,
          operation: 'addQuiz',
          parameterName: parameter,
        });
      }
      expect(await snapshot()).toEqual(before);
    },
  );
});

import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import { startTestApp, type TestApp } from '../helpers/app';
import { TEACHER_AND_PUPIL } from '../helpers/fixtures';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';
import { requestFromAnotherProcess } from '../helpers/external-client';
import { headOnly, rawRequest, type RawAnswer } from '../helpers/raw-http';

/**
 * The hostile requests of the hardening review, each refused early with the contract's answer
 * and without writing anything (contract.md §2, §11).
 */

const QUIZ = { title: 'Fractions', visibility: 'public', survey: false, tags: ['math', 'grade4'] };
const WRITE_TABLES = ['quizzes', 'quiz_tags', 'questions', 'user_quiz_flags', 'data_sets'];

const json = (answer: RawAnswer) => JSON.parse(answer.text) as Record<string, unknown>;

/** The GraphQL shape of a refusal that ran no resolver (contract.md §11). */
function expectGraphQLRefusal(answer: RawAnswer, status: number, type: string): void {
  expect(answer.status).toBe(status);
  const body = json(answer) as { data?: unknown; errors: { extensions: object }[] };
  expect(body).not.toHaveProperty('data');
  expect(body.errors).toHaveLength(1);
  expect(body.errors[0]).toMatchObject({
    message: expect.any(String),
    extensions: {
      code: expect.any(String),
      type,
      operation: 'graphql',
      reason: expect.any(String),
    },
  });
}

describe('hostile requests', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let teacher: string;
  let pupil: string;

  const snapshot = async () =>
    Promise.all(
      WRITE_TABLES.map(async (table) =>
        Number(
          ((await dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`)) as { n: unknown }[])[0].n,
        ),
      ),
    );

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDatabase('hostile'));
    const ids = await loadData(dataSource, TEACHER_AND_PUPIL);
    const key = await createTestApiKey(dataSource, 'localhost');
    teacher = `apiKey=${key.secret}&accessToken=${await createTestToken(dataSource, Number(ids.users.t), key.id)}`;
    pupil = `apiKey=${key.secret}&accessToken=${await createTestToken(dataSource, Number(ids.users.s), key.id)}`;
    app = await startTestApp(dataSource);
  });

  afterAll(async () => {
    await app.close();
    await close();
  });

  // How fast (targets 100 ms each) is measured by `npm run bench:hostile`, not here.
  it('refuses a quiz of 100,000 tags with 400 while /healthz answers beside it', async () => {
    const tags = Array.from({ length: 100_000 }, (_tag, index) => `t${index}`);
    const body = JSON.stringify({ quiz: { ...QUIZ, tags } });
    expect(body.length).toBeLessThan(app.config.bodyLimitBytes);
    const before = await snapshot();
    // The client runs in a process of its own, as another school's app would.
    for (const credentials of [teacher, pupil, teacher]) {
      const [refused, healthz] = await requestFromAnotherProcess([
        {
          url: `${app.url}/addQuiz?${credentials}`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        },
        { url: `${app.url}/healthz`, delayMs: 2 },
      ]);
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.text)).toMatchObject({
        type: 'BadParameterException',
        operation: 'addQuiz',
        parameterName: 'quiz.tags',
        reason: 'expected at most 20 tags, got 100000',
      });
      expect(healthz.status).toBe(200);
      expect(JSON.parse(healthz.text)).toEqual({ status: 'ok', database: 'up' });
    }
    expect(await snapshot()).toEqual(before);
  });

  it.each(['/addQuiz', '/graphql'])(
    'answers 413 on %s to a 100 MB body announced in Content-Length before reading it',
    async (path) => {
      const answer = await headOnly(
        app.url,
        `POST ${path}?${teacher} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${100 * 1024 * 1024}\r\n\r\n`,
        '{"quiz": {"title": "',
      );
      // Answered with 1 KB of the 100 MB sent, and the connection closed rather than drained.
      expect(answer.status).toBe(413);
      expect(answer.closed).toBe(true);
      expect(answer.head).toMatch(/\r\nconnection: close/i);
      const body = JSON.parse(answer.body) as Record<string, unknown>;
      const exception =
        path === '/graphql' ? (body.errors as { extensions: object }[])[0].extensions : body;
      expect(exception).toMatchObject({
        type: 'PayloadTooLargeException',
        operation: path === '/graphql' ? 'graphql' : 'addQuiz',
        reason: `the body is larger than ${app.config.bodyLimitBytes} bytes`,
      });
    },
  );

  it('refuses a gzip of 10 MB of zeros with 413 without inflating it, on both transports', async () => {
    const bomb = gzipSync(Buffer.alloc(10 * 1024 * 1024, '0'));
    expect(bomb.length).toBeLessThan(20_000);
    const before = await snapshot();
    const headers = { 'content-type': 'application/json', 'content-encoding': 'gzip' };
    const rest = await rawRequest(`${app.url}/addQuiz?${teacher}`, { headers, body: bomb });
    expect(rest.status).toBe(413);
    expect(json(rest)).toMatchObject({ type: 'PayloadTooLargeException', operation: 'addQuiz' });
    const gql = await rawRequest(`${app.url}/graphql?${teacher}`, { headers, body: bomb });
    expectGraphQLRefusal(gql, 413, 'PayloadTooLargeException');
    expect(await snapshot()).toEqual(before);
  });

  it('decodes gzip, deflate and br bodies, and refuses other encodings with 415', async () => {
    const payload = Buffer.from(JSON.stringify({ quiz: QUIZ }));
    const encoders = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };
    for (const [encoding, encode] of Object.entries(encoders)) {
      const answer = await rawRequest(`${app.url}/addQuiz?${teacher}`, {
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        body: encode(payload),
      });
      expect([encoding, answer.status]).toEqual([encoding, 200]);
      expect(json(answer)).toMatchObject({ title: 'Fractions', tags: ['math', 'grade4'] });
    }
    const gql = await rawRequest(`${app.url}/graphql?${teacher}`, {
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ query: '{ __typename }' })),
    });
    expect([gql.status, json(gql)]).toEqual([200, { data: { __typename: 'Query' } }]);

    const before = await snapshot();
    const compress = { 'content-type': 'application/json', 'content-encoding': 'compress' };
    const rest = await rawRequest(`${app.url}/addQuiz?${teacher}`, {
      headers: compress,
      body: payload,
    });
    expect(rest.status).toBe(415);
    expect(json(rest)).toMatchObject({
      type: 'UnsupportedRequestException',
      operation: 'addQuiz',
      reason:
        'the Content-Encoding "compress" is not supported; use one of identity, gzip, deflate, br',
    });
    const refused = await rawRequest(`${app.url}/graphql?${teacher}`, {
      headers: compress,
      body: payload,
    });
    expectGraphQLRefusal(refused, 415, 'UnsupportedRequestException');
    expect(await snapshot()).toEqual(before);
  });

  it('answers 400, not 500, to a plain JSON body that claims gzip or deflate', async () => {
    const before = await snapshot();
    for (const encoding of ['gzip', 'deflate']) {
      const headers = { 'content-type': 'application/json', 'content-encoding': encoding };
      const rest = await rawRequest(`${app.url}/addQuiz?${teacher}`, {
        headers,
        body: JSON.stringify({ quiz: QUIZ }),
      });
      expect(rest.status).toBe(400);
      expect(json(rest)).toMatchObject({
        type: 'BadParameterException',
        operation: 'addQuiz',
        parameterName: 'body',
      });
      const gql = await rawRequest(`${app.url}/graphql?${teacher}`, {
        headers,
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expectGraphQLRefusal(gql, 400, 'BadParameterException');
    }
    expect(await snapshot()).toEqual(before);
  });

  it('answers 400, not 500, to a body field holding an object where text is expected', async () => {
    const before = await snapshot();
    // An object String() cannot even convert, where the API key's text belongs.
    for (const apiKey of [{ toString: false }, { key: 'x' }, [{ a: 1 }]]) {
      const rest = await rawRequest(`${app.url}/addAnswers`, {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiKey, answers: [] }),
      });
      expect(rest.status).toBe(400);
      expect(json(rest)).toMatchObject({
        type: 'BadParameterException',
        operation: 'addAnswers',
        parameterName: 'apiKey',
      });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('refuses JSON nested 100,000 levels with 400, in a body, a variable or a query parameter', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const before = await snapshot();
    const headers = { 'content-type': 'application/json' };
    const rest = await rawRequest(`${app.url}/addQuiz?${teacher}`, {
      headers,
      body: `{"quiz": ${deep}}`,
    });
    expect(rest.status).toBe(400);
    expect(json(rest)).toMatchObject({
      type: 'BadParameterException',
      parameterName: 'body',
      reason: 'the JSON is nested deeper than 20 levels',
    });
    const gql = await rawRequest(`${app.url}/graphql?${teacher}`, {
      headers,
      body: `{"query": "mutation ($q: QuizInput!) { addQuiz(quiz: $q) { id } }", "variables": {"q": ${deep}}}`,
    });
    expectGraphQLRefusal(gql, 400, 'BadParameterException');
    // A question nested 20,000 levels, with the parameter also in the query string.
    const question = `${'{"q":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    const both = await rawRequest(`${app.url}/addQuiz?${teacher}&quiz=x`, {
      headers,
      body: `{"quiz": {"title": "Deep", "questions": [${question}]}}`,
    });
    expect(both.status).toBe(400);
    expect(json(both)).toMatchObject({ type: 'BadParameterException', parameterName: 'body' });
    // In the query string the quiz is JSON text: 1,000 levels fit in the URL limit.
    const inQuery = encodeURIComponent(`${'['.repeat(1000)}${']'.repeat(1000)}`);
    const param = await rawRequest(`${app.url}/addQuiz?${teacher}&quiz=${inQuery}`, {
      method: 'POST',
    });
    expect(param.status).toBe(400);
    expect(json(param)).toMatchObject({
      type: 'BadParameterException',
      parameterName: 'quiz',
      reason: 'the JSON is nested deeper than 20 levels',
    });
    expect(await snapshot()).toEqual(before);
  });

  it('answers over-long URLs and too many parameters with 413 in the shape of their wire', async () => {
    const many = Array.from({ length: 10_000 }, (_p, index) => `p${index}=1`).join('&');
    const hugeRest = await rawRequest(`${app.url}/getQuiz?${many}`);
    expect(hugeRest.status).toBe(413);
    expect(json(hugeRest)).toMatchObject({
      type: 'PayloadTooLargeException',
      operation: 'getQuiz',
    });
    const hugeGql = await rawRequest(`${app.url}/graphql?${many}`);
    expectGraphQLRefusal(hugeGql, 413, 'PayloadTooLargeException');

    const long = await rawRequest(
      `${app.url}/getQuiz?quizId=1&${teacher}&pad=${'x'.repeat(10_000)}`,
    );
    expect(long.status).toBe(413);
    expect(json(long)).toMatchObject({
      type: 'PayloadTooLargeException',
      reason: `the query string is larger than ${app.config.urlLimitBytes} bytes`,
    });

    const params = Array.from({ length: 101 }, (_p, index) => `p${index}=1`).join('&');
    const counted = await rawRequest(`${app.url}/getQuiz?${params}`);
    expect(counted.status).toBe(413);
    expect(json(counted)).toMatchObject({
      type: 'PayloadTooLargeException',
      reason: 'the query string has more than 100 parameters',
    });
  });

  it('answers the transport failures of /graphql in the GraphQL shape', async () => {
    const put = await rawRequest(`${app.url}/graphql?${teacher}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expectGraphQLRefusal(put, 405, 'UnsupportedRequestException');
    expect(put.headers.allow).toBe('GET, POST');

    const notJson = await rawRequest(`${app.url}/graphql?${teacher}`, {
      headers: { 'content-type': 'application/json' },
      body: '{"query": "{ __typename }"',
    });
    expectGraphQLRefusal(notJson, 400, 'BadParameterException');

    const large = await rawRequest(`${app.url}/graphql?${teacher}`, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ __typename }${' '.repeat(app.config.bodyLimitBytes)}` }),
    });
    expectGraphQLRefusal(large, 413, 'PayloadTooLargeException');

    const subscription = await rawRequest(`${app.url}/graphql?${teacher}`, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'subscription { x }' }),
    });
    expect(subscription.status).toBe(400);
    const errors = (json(subscription) as { errors: { extensions: object }[] }).errors;
    expect(errors.map((error) => error.extensions)).toContainEqual(
      expect.objectContaining({
        type: 'BadParameterException',
        operation: 'graphql',
        reason: 'subscriptions are not served over HTTP; send a query or a mutation',
      }),
    );
  });
});

import http, { type IncomingMessage } from 'node:http';
import { createClient } from 'graphql-ws';
import type { DataSource } from 'typeorm';
import WebSocket from 'ws';
import { loadData } from '../../src/data/import/bulk-loader';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';
import { LIVE_CLASS } from '../helpers/fixtures';
import { rawRequest, type RawAnswer } from '../helpers/raw-http';

/**
 * The transport conventions of contract.md §15 as clients meet them: a GraphQL GET counts the
 * X-Api-Key header as a CSRF preflight and is refused in the contract's shape without one; a POST
 * body that is not JSON in UTF-8 is 415 on both wires (a POST with no body, the legacy way, still
 * works); refused WebSocket credentials end a graphql-ws client with its default options within
 * a second, after one connection.
 */

type Json = Record<string, unknown>;

const QUIZ = { title: 'Fractions', visibility: 'public', survey: false, tags: ['math', 'grade4'] };

const json = (answer: RawAnswer) => JSON.parse(answer.text) as Json;

/** The exception of a GraphQL refusal that ran no resolver (its one `errors` entry). */
function graphQLException(answer: RawAnswer): Json {
  const body = json(answer) as { data?: unknown; errors: { message: string; extensions: Json }[] };
  expect(body).not.toHaveProperty('data');
  expect(body.errors).toHaveLength(1);
  return { message: body.errors[0].message, ...body.errors[0].extensions };
}

describe('transport conventions for third-party clients', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let key: { id: number; secret: string };
  let teacher: string;
  let ids: { users: Json; quizzes: Json; sessions: Json };
  /** WebSocket upgrades the server received, by the `probe` of their URL. */
  const upgrades = new Map<string, number>();

  const quizCount = async () =>
    Number(
      ((await dataSource.query('SELECT COUNT(*) AS n FROM quizzes')) as { n: unknown }[])[0].n,
    );

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDatabase('third_party_transport'));
    ids = (await loadData(dataSource, LIVE_CLASS)) as typeof ids;
    key = await createTestApiKey(dataSource, 'localhost');
    const token = await createTestToken(dataSource, Number(ids.users.t), key.id);
    teacher = `apiKey=${key.secret}&accessToken=${token}`;
    app = await startTestApp(dataSource);
    app.running.server.on('upgrade', (request: IncomingMessage) => {
      const probe = new URL(request.url ?? '/', 'http://x').searchParams.get('probe') ?? '';
      upgrades.set(probe, (upgrades.get(probe) ?? 0) + 1);
    });
  });

  afterAll(async () => {
    await app?.close();
    await close();
  });

  describe('GraphQL GET', () => {
    const search = (query: string) =>
      new URLSearchParams({
        query,
        variables: JSON.stringify({ id: String(ids.quizzes.q1) }),
      }).toString();
    const QUERY = 'query ($id: ID!) { getQuiz(quizId: $id) { id } }';

    it('accepts a query whose X-Api-Key header is its preflight', async () => {
      const answer = await rawRequest(`${app.url}/graphql?${search(QUERY)}`, {
        headers: { 'x-api-key': key.secret },
      });
      expect([answer.status, json(answer)]).toEqual([
        200,
        { data: { getQuiz: { id: String(ids.quizzes.q1) } } },
      ]);
    });

    it('refuses one with no preflight header as MissingParameterException on X-Api-Key', async () => {
      const answer = await rawRequest(`${app.url}/graphql?${search(QUERY)}&apiKey=${key.secret}`);
      expect(answer.status).toBe(400);
      const exception = graphQLException(answer);
      expect(exception).toMatchObject({
        code: 'BAD_USER_INPUT',
        type: 'MissingParameterException',
        operation: 'graphql',
        parameterName: 'X-Api-Key',
        message: 'Missing parameter: X-Api-Key',
      });
      // It says what to do, and repeats no credential.
      expect(exception.reason).toMatch(/X-Api-Key header/);
      expect(answer.text).not.toContain(key.secret);
    });

    it('refuses one with a Content-Type other than JSON as 415 (a GET has no body)', async () => {
      const answer = await rawRequest(`${app.url}/graphql?${search(QUERY)}`, {
        headers: { 'x-api-key': key.secret, 'content-type': 'text/plain' },
      });
      expect(answer.status).toBe(415);
      expect(graphQLException(answer)).toMatchObject({
        code: 'UNSUPPORTED_MEDIA_TYPE',
        type: 'UnsupportedRequestException',
        operation: 'graphql',
      });
    });

    it('still serves the IDE to a browser', async () => {
      const answer = await rawRequest(`${app.url}/graphql`, { headers: { accept: 'text/html' } });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toMatch(/text\/html/);
    });
  });

  describe('POST bodies that are not JSON in UTF-8: 415, never read as empty', () => {
    const body = JSON.stringify({ quiz: QUIZ });
    const graphqlBody = JSON.stringify({ query: '{ __typename }' });
    const refusals: [string, Record<string, string>, RegExp][] = [
      ['text/plain', { 'content-type': 'text/plain' }, /"text\/plain", which is not read/],
      [
        'a form',
        { 'content-type': 'application/x-www-form-urlencoded' },
        /"application\/x-www-form-urlencoded", which is not read/,
      ],
      ['no Content-Type', {}, /has no Content-Type/],
      [
        'charset=utf-16',
        { 'content-type': 'application/json; charset=utf-16' },
        /the charset "utf-16" is not supported/,
      ],
      [
        'charset=latin1',
        { 'content-type': 'application/json; charset=latin1' },
        /the charset "latin1" is not supported/,
      ],
    ];

    it.each(refusals)('REST: %s', async (_label, headers, reason) => {
      const before = await quizCount();
      const answer = await rawRequest(`${app.url}/addQuiz?${teacher}`, {
        method: 'POST',
        headers,
        body,
      });
      expect(answer.status).toBe(415);
      expect(json(answer)).toMatchObject({
        type: 'UnsupportedRequestException',
        operation: 'addQuiz',
        reason: expect.stringMatching(reason),
      });
      expect(await quizCount()).toBe(before);
    });

    it.each(refusals)('GraphQL: %s', async (_label, headers, reason) => {
      const answer = await rawRequest(`${app.url}/graphql?${teacher}`, {
        method: 'POST',
        headers,
        body: graphqlBody,
      });
      expect(answer.status).toBe(415);
      expect(graphQLException(answer)).toMatchObject({
        code: 'UNSUPPORTED_MEDIA_TYPE',
        type: 'UnsupportedRequestException',
        operation: 'graphql',
        reason: expect.stringMatching(reason),
      });
    });

    it('reads a chunked text body to know: refused when it holds bytes', async () => {
      const before = await quizCount();
      const status = await new Promise<number | undefined>((resolve, reject) => {
        // Written in two chunks, with no Content-Length: Node sends it chunked.
        const req = http.request(`${app.url}/addQuiz?${teacher}`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          agent: false,
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode);
        });
        req.on('error', reject);
        req.write(body.slice(0, 10));
        req.end(body.slice(10));
      });
      expect(status).toBe(415);
      expect(await quizCount()).toBe(before);
    });

    it('answers an unknown operation 404 and a wrong method 405 before looking at the body', async () => {
      const headers = { 'content-type': 'text/plain' };
      const unknown = await rawRequest(`${app.url}/addQuizz?${teacher}`, { headers, body });
      expect([unknown.status, json(unknown).type]).toEqual([404, 'UnsupportedRequestException']);
      const method = await rawRequest(`${app.url}/getQuiz?${teacher}`, { headers, body });
      expect(method.status).toBe(405);
    });

    it('keeps JSON in UTF-8, declared or not, and the legacy POST without a body', async () => {
      for (const contentType of [
        'application/json',
        'application/json; charset=utf-8',
        'application/json; charset="UTF-8"',
      ]) {
        const answer = await rawRequest(`${app.url}/addQuiz?${teacher}`, {
          method: 'POST',
          headers: { 'content-type': contentType },
          body,
        });
        expect([contentType, answer.status]).toEqual([contentType, 200]);
      }
      // Everything in the query string (contract.md §1), with whatever Content-Type the client's
      // HTTP library names for an empty body.
      const quiz = encodeURIComponent(JSON.stringify({ ...QUIZ, title: 'In the URL' }));
      const emptyBodies: Record<string, string>[] = [
        {},
        { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '0' },
        { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' },
      ];
      for (const headers of emptyBodies) {
        const answer = await rawRequest(`${app.url}/addQuiz?${teacher}&quiz=${quiz}`, {
          method: 'POST',
          headers,
        });
        expect([headers, answer.status]).toEqual([headers, 200]);
        expect(json(answer)).toMatchObject({ title: 'In the URL' });
      }
    });
  });

  it.each([
    ['no Content-Type', {}],
    ['application/json', { 'content-type': 'application/json', 'content-length': '0' }],
    ['text/plain', { 'content-type': 'text/plain', 'content-length': '0' }],
  ])('refuses a POST to /graphql without a body (%s) as a missing query', async (_l, headers) => {
    const answer = await rawRequest(`${app.url}/graphql?${teacher}`, { method: 'POST', headers });
    expect(answer.status).toBe(400);
    expect(graphQLException(answer)).toMatchObject({
      code: 'BAD_USER_INPUT',
      type: 'MissingParameterException',
      operation: 'graphql',
      parameterName: 'query',
      message: 'Missing parameter: query',
      reason: expect.stringContaining('Content-Type: application/json'),
    });
  });

  describe('graphql-ws with its default options', () => {
    const SUBSCRIPTION = 'subscription ($s: ID!) { sessionResults(sessionId: $s) { id } }';

    /** Subscribes once; resolves with what ended it and when, in ms from the subscribe. */
    function refusedAfter(
      probe: string,
      connectionParams: Json,
    ): Promise<{ ms: number; failure: unknown; dispose: () => Promise<void> }> {
      const client = createClient({
        url: `${app.url.replace(/^http/, 'ws')}/graphql?probe=${probe}`,
        // Node 20 has no global WebSocket: ws's, as the README says. Nothing else is set.
        webSocketImpl: WebSocket,
        connectionParams,
      });
      const started = performance.now();
      return new Promise((resolve) => {
        const done = (failure: unknown) =>
          resolve({
            ms: performance.now() - started,
            failure,
            dispose: async () => client.dispose(),
          });
        client.subscribe(
          { query: SUBSCRIPTION, variables: { s: String(ids.sessions.S) } },
          { next: () => undefined, error: done, complete: () => done('completed') },
        );
      });
    }

    it('ends on refused credentials within 1 s, after one connection, with the reason', async () => {
      const cases: [string, Json, number, string][] = [
        [
          'unknown',
          { apiKey: 'qk_unknown' },
          4401,
          'Unauthorized operation: graphql (the API key is unknown or revoked)',
        ],
        [
          'token',
          { apiKey: key.secret, accessToken: 'qt_forged' },
          4401,
          'Unauthorized operation: graphql (the access token is invalid)',
        ],
        ['missing', {}, 4400, 'Missing parameter: apiKey'],
      ];
      const ended = await Promise.all(cases.map(([probe, params]) => refusedAfter(probe, params)));
      // graphql-ws's first retry would come 1.3 to 4 s after the close: wait past it.
      await new Promise((resolve) => setTimeout(resolve, 4_500));
      cases.forEach(([probe, , code, reason], index) => {
        const { ms, failure } = ended[index];
        expect([probe, failure]).toEqual([probe, expect.objectContaining({ code, reason })]);
        // The bound (≤ 1 s); shown with the time it took.
        expect({ probe, ms, withinOneSecond: ms <= 1_000 }).toMatchObject({
          probe,
          withinOneSecond: true,
        });
        expect([probe, upgrades.get(probe)]).toEqual([probe, 1]);
      });
      await Promise.all(ended.map(({ dispose }) => dispose()));
    });
  });
});

import { GraphQLError } from 'graphql';
import type { DataSource } from 'typeorm';
import type { RestOperation } from '../../src/api/rest/rest-operation';
import { ERROR_TABLE, Errors, ServiceApiError, type ErrorKind } from '../../src/errors';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';

/** One error of each kind, as a service would raise it. */
const SAMPLES: Record<ErrorKind, ServiceApiError> = {
  missingParameter: Errors.missingParameter('raise', 'quizId'),
  badParameter: Errors.badParameter('raise', 'quizId', 'abc', 'must be an identifier'),
  notFound: Errors.notFound('raise', 'quizId', '999', 'quiz 999 does not exist'),
  unauthenticated: Errors.unauthenticated('raise', 'access token expired'),
  forbidden: Errors.forbidden('raise', 'access to quiz 42 is denied'),
  unsupportedRequest: Errors.unsupportedRequest('raise'),
  methodNotAllowed: Errors.methodNotAllowed('raise', 'PUT', ['GET']),
  unsupportedMediaType: Errors.unsupportedMediaType('raise', 'the charset latin1 is not supported'),
  queryTooComplex: Errors.queryTooComplex('the document has a depth of 11', 10, 11).forOperation(
    'raise',
  ),
  payloadTooLarge: Errors.payloadTooLarge('raise', 1024, 'body'),
  tooManyRequests: Errors.tooManyRequests('raise', 30, 'rate limit of the API key exceeded'),
  serviceUnavailable: Errors.serviceUnavailable('raise'),
  internal: Errors.internal('raise', 'req-1'),
};

const EXPECTED: Record<ErrorKind, { status: number; type: string; code: string; extra: string[] }> =
  {
    missingParameter: {
      status: 400,
      type: 'MissingParameterException',
      code: 'BAD_USER_INPUT',
      extra: ['parameterName'],
    },
    badParameter: {
      status: 400,
      type: 'BadParameterException',
      code: 'BAD_USER_INPUT',
      extra: ['parameterName', 'providedValue'],
    },
    notFound: {
      status: 404,
      type: 'BadParameterException',
      code: 'NOT_FOUND',
      extra: ['parameterName', 'providedValue'],
    },
    unauthenticated: {
      status: 401,
      type: 'UnauthorizedOperationException',
      code: 'UNAUTHENTICATED',
      extra: [],
    },
    forbidden: {
      status: 403,
      type: 'UnauthorizedOperationException',
      code: 'FORBIDDEN',
      extra: [],
    },
    unsupportedRequest: {
      status: 404,
      type: 'UnsupportedRequestException',
      code: 'NOT_FOUND',
      extra: [],
    },
    methodNotAllowed: {
      status: 405,
      type: 'UnsupportedRequestException',
      code: 'METHOD_NOT_ALLOWED',
      extra: [],
    },
    unsupportedMediaType: {
      status: 415,
      type: 'UnsupportedRequestException',
      code: 'UNSUPPORTED_MEDIA_TYPE',
      extra: [],
    },
    queryTooComplex: {
      status: 400,
      type: 'QueryTooComplexException',
      code: 'BAD_USER_INPUT',
      extra: ['limit', 'actual'],
    },
    payloadTooLarge: {
      status: 413,
      type: 'PayloadTooLargeException',
      code: 'PAYLOAD_TOO_LARGE',
      extra: [],
    },
    tooManyRequests: {
      status: 429,
      type: 'TooManyRequestsException',
      code: 'TOO_MANY_REQUESTS',
      extra: ['retryAfterSeconds'],
    },
    serviceUnavailable: {
      status: 503,
      type: 'UnexpectedServerResponseException',
      code: 'SERVICE_UNAVAILABLE',
      extra: ['retryAfterSeconds'],
    },
    internal: {
      status: 500,
      type: 'InternalServerErrorException',
      code: 'INTERNAL_SERVER_ERROR',
      extra: ['requestId'],
    },
  };

const KINDS = Object.keys(ERROR_TABLE) as ErrorKind[];

const TEST_OPERATIONS: RestOperation[] = [
  {
    name: 'raise',
    methods: ['GET'],
    handler: async (_ctx, params) => {
      throw SAMPLES[params.kind as ErrorKind];
    },
  },
  {
    name: 'explode',
    methods: ['GET'],
    handler: async () => {
      throw new Error(
        "ER_PARSE_ERROR: You have an error in your SQL near 'SELECT password_hash FROM users'",
      );
    },
  },
  {
    name: 'databaseDown',
    methods: ['GET'],
    handler: async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:3306'), {
        code: 'ECONNREFUSED',
      });
    },
  },
  {
    name: 'echo',
    methods: ['POST'],
    handler: async (_ctx, _params, req) => ({ received: req.body as unknown }),
  },
];

describe('error model', () => {
  let app: TestApp;
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let apiKey: string;
  /** A path of a test operation, with the API key every operation needs. */
  const op = (path: string) => `${path}${path.includes('?') ? '&' : '?'}apiKey=${apiKey}`;

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDatabase('errors'));
    apiKey = (await createTestApiKey(dataSource)).secret;
    app = await startTestApp(
      dataSource,
      { BODY_LIMIT: '2kb', URL_LIMIT: '2kb' },
      { operations: TEST_OPERATIONS },
    );
  });

  afterAll(async () => {
    await app.close();
    await close();
  });

  it('has a row for every kind, and the samples cover every kind', () => {
    expect(KINDS.sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(Object.keys(SAMPLES).sort()).toEqual(KINDS.sort());
  });

  it.each(KINDS)('%s: the table maps to the contract status, type and GraphQL code', (kind) => {
    const error = SAMPLES[kind];
    expect(error).not.toBeInstanceOf(GraphQLError);
    expect(error.status).toBe(EXPECTED[kind].status);
    expect(error.type).toBe(EXPECTED[kind].type);
    const extensions = error.toGraphQLExtensions();
    expect(extensions.code).toBe(EXPECTED[kind].code);
    expect(extensions.type).toBe(EXPECTED[kind].type);
    expect(extensions.operation).toBe('raise');
    expect(extensions.reason).toBe(error.reason);
    for (const field of EXPECTED[kind].extra) expect(extensions).toHaveProperty(field);
  });

  it.each(KINDS)('%s: REST answers the status and the exception object', async (kind) => {
    const res = await app.get(op(`/raise?kind=${kind}`));
    expect(res.status).toBe(EXPECTED[kind].status);
    expect(res.headers.get('content-type')).toMatch(/^application\/json; charset=utf-8/);
    const body = (await res.json()) as Record<string, unknown>;
    const expectedKeys = ['type', 'message', 'operation', 'reason', ...EXPECTED[kind].extra].sort();
    expect(Object.keys(body).sort()).toEqual(expectedKeys);
    expect(body.type).toBe(EXPECTED[kind].type);
    expect(body.operation).toBe('raise');
    expect(body.reason).toBe(SAMPLES[kind].reason);
    expect(body.message).toBe(SAMPLES[kind].message);
  });

  it('builds messages as the contract says', () => {
    expect(SAMPLES.forbidden.message).toBe(
      'Unauthorized operation: raise (access to quiz 42 is denied)',
    );
    expect(SAMPLES.unauthenticated.message).toBe(
      'Unauthorized operation: raise (access token expired)',
    );
    expect(SAMPLES.badParameter.message).toBe('Bad parameter: quizId (must be an identifier)');
    expect(SAMPLES.missingParameter.message).toBe('Missing parameter: quizId');
  });

  it('sets Retry-After on 429 and Allow on 405', async () => {
    const limited = await app.get(op('/raise?kind=tooManyRequests'));
    expect(limited.headers.get('retry-after')).toBe('30');
    const wrongMethod = await app.get(op('/echo'));
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    expect(await wrongMethod.json()).toMatchObject({
      type: 'UnsupportedRequestException',
      operation: 'echo',
    });
  });

  it('answers an unknown operation and an unknown path with UnsupportedRequestException 404', async () => {
    for (const path of ['/getNothing?apiKey=x', '/some/deep/path']) {
      const res = await app.get(path);
      expect(res.status).toBe(404);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body.type).toBe('UnsupportedRequestException');
      expect(body.operation).toBe(path === '/some/deep/path' ? 'path' : 'getNothing');
    }
  });

  it('turns a thrown non-domain error into a 500 with a request id and no internals', async () => {
    const res = await app.get(op('/explode'), { headers: { 'x-request-id': 'trace-42' } });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toMatch(/SQL|password_hash|ER_PARSE|stack|at \w+ \(/);
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(body).toEqual({
      type: 'InternalServerErrorException',
      message: 'Internal server error: explode (an unexpected error occurred (request trace-42))',
      operation: 'explode',
      reason: 'an unexpected error occurred (request trace-42)',
      requestId: 'trace-42',
    });
    expect(res.headers.get('x-request-id')).toBe('trace-42');
    // The operator still finds the cause in the log, under the same request id.
    const logged = app.logs
      .records()
      .find((r) => r.requestId === 'trace-42' && r.msg === 'request failed');
    expect(JSON.stringify(logged)).toContain('ER_PARSE_ERROR');
  });

  it('gives a fresh request id when none (or a hostile one) is sent', async () => {
    const res = await app.get(op('/explode'), {
      headers: { 'x-request-id': 'bad id\twith spaces' },
    });
    const body = (await res.json()) as { requestId: string };
    expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a database outage with UnexpectedServerResponseException 503', async () => {
    const res = await app.get(op('/databaseDown'));
    expect(res.status).toBe(503);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.type).toBe('UnexpectedServerResponseException');
    expect(JSON.stringify(body)).not.toContain('10.1.2.3');
  });

  it('answers a body over the limit with PayloadTooLargeException 413', async () => {
    const res = await app.get(op('/echo'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ quiz: { title: 'x'.repeat(4096) } }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ type: 'PayloadTooLargeException', operation: 'echo' });
  });

  it('answers a query string over the limit with PayloadTooLargeException 413', async () => {
    const res = await app.get(op(`/raise?kind=badParameter&filler=${'y'.repeat(3000)}`));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({
      type: 'PayloadTooLargeException',
      operation: 'raise',
    });
  });

  it('answers a body that is not JSON with BadParameterException on body', async () => {
    const res = await app.get(op('/echo'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"quiz": {',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      type: 'BadParameterException',
      operation: 'echo',
      parameterName: 'body',
    });
  });

  it('accepts a body within the limit', async () => {
    const res = await app.get(op('/echo'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ quiz: { title: 'Fractions' } }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: { quiz: { title: 'Fractions' } } });
  });
});

import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { ImportDocument } from '../../src/data/import/import-document';
import { revokeApiKey } from '../../src/services/api-keys/api-key.service';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';
import { graphql } from '../helpers/graphql';
import { operatorServiceContext } from '../helpers/service-context';

/** Users: A authors every quiz and may create private ones; B may not; C attended a session that played the private quiz. */
const DOCUMENT: ImportDocument = {
  users: [
    {
      ref: 'A',
      email: 'a@school.example',
      firstName: 'Ada',
      lastName: 'A',
      canCreatePrivateQuizzes: true,
    },
    { ref: 'B', email: 'b@school.example', firstName: 'Bob', lastName: 'B' },
    { ref: 'C', email: 'c@school.example', firstName: 'Cy', lastName: 'C' },
  ],
  quizzes: (['public', 'private', 'draft'] as const).map((visibility) => ({
    ref: visibility,
    author: 'A',
    title: `A ${visibility} quiz`,
    visibility,
    survey: false,
    tags: ['matrix', visibility],
    questions: [{ title: 'True?', type: 'TrueFalse', goodAnswer: true }],
  })),
  sessions: [
    {
      ref: 'S',
      owner: 'A',
      title: 'Session with the private quiz',
      startDate: '2026-10-01 09:00:00',
      quizzes: ['private'],
      attendees: [{ user: 'C' }],
    },
  ],
};

type Requester =
  | 'no key'
  | 'unknown key'
  | 'revoked key'
  | 'key from another host'
  | 'anonymous'
  | 'user A'
  | 'user B'
  | 'attendee C'
  | 'expired token'
  | 'token for another key';

type Operation =
  'getQuiz public' | 'getQuiz private' | 'getQuiz draft' | 'addQuiz public' | 'addQuiz private';

type Expected = [status: number, type: string];
const OK: Expected = [200, 'ok'];
const MISSING: Expected = [400, 'MissingParameterException'];
const UNAUTHENTICATED: Expected = [401, 'UnauthorizedOperationException'];
const FORBIDDEN: Expected = [403, 'UnauthorizedOperationException'];

const everywhere = (expected: Expected): Record<Operation, Expected> => ({
  'getQuiz public': expected,
  'getQuiz private': expected,
  'getQuiz draft': expected,
  'addQuiz public': expected,
  'addQuiz private': expected,
});

/** Every cell of the matrix: requester × operation → status and exception type. */
const MATRIX: Record<Requester, Record<Operation, Expected>> = {
  'no key': everywhere(MISSING),
  'unknown key': everywhere(UNAUTHENTICATED),
  'revoked key': everywhere(UNAUTHENTICATED),
  'key from another host': everywhere(UNAUTHENTICATED),
  'expired token': everywhere(UNAUTHENTICATED),
  'token for another key': everywhere(UNAUTHENTICATED),
  anonymous: {
    'getQuiz public': OK,
    'getQuiz private': UNAUTHENTICATED,
    'getQuiz draft': UNAUTHENTICATED,
    'addQuiz public': UNAUTHENTICATED,
    'addQuiz private': UNAUTHENTICATED,
  },
  'user A': everywhere(OK),
  'user B': {
    'getQuiz public': OK,
    'getQuiz private': FORBIDDEN,
    'getQuiz draft': FORBIDDEN,
    'addQuiz public': OK,
    'addQuiz private': FORBIDDEN,
  },
  'attendee C': {
    'getQuiz public': OK,
    'getQuiz private': OK,
    'getQuiz draft': FORBIDDEN,
    'addQuiz public': OK,
    'addQuiz private': FORBIDDEN,
  },
};

describe('permission matrix (REST and GraphQL)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  /** Query-string credentials and headers of each requester. */
  const credentials = {} as Record<Requester, { query: string; headers?: Record<string, string> }>;
  const quizIds: Record<string, string> = {};

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDatabase('permissions'));
    const ids = await loadData(dataSource, DOCUMENT);
    Object.assign(quizIds, ids.quizzes);
    const user = (ref: string) => Number(ids.users[ref]);
    const key = await createTestApiKey(dataSource, 'localhost');
    const otherKey = await createTestApiKey(dataSource, 'localhost');
    const revoked = await createTestApiKey(dataSource, 'localhost');
    const foreign = await createTestApiKey(dataSource, 'school.example');
    const ctx = operatorServiceContext(dataSource);
    await revokeApiKey(ctx, revoked.id);
    const expired = await createTestToken(dataSource, user('A'), key.id);
    await dataSource.query('UPDATE access_tokens SET expires_at = ? WHERE user_id = ?', [
      new Date(Date.now() - 1000),
      user('A'),
    ]);
    const token = async (ref: string, apiKeyId = key.id) =>
      createTestToken(dataSource, user(ref), apiKeyId);
    const withToken = async (ref: string) => `apiKey=${key.secret}&accessToken=${await token(ref)}`;

    credentials['no key'] = { query: '' };
    credentials['unknown key'] = { query: 'apiKey=qk_doesnotexist0000000000000000000000000000' };
    credentials['revoked key'] = { query: `apiKey=${revoked.secret}` };
    // Bound to school.example, sent from a page of another site.
    credentials['key from another host'] = {
      query: `apiKey=${foreign.secret}`,
      headers: { origin: 'http://evil.test' },
    };
    credentials.anonymous = { query: `apiKey=${key.secret}` };
    credentials['user A'] = { query: await withToken('A') };
    credentials['user B'] = { query: await withToken('B') };
    credentials['attendee C'] = { query: await withToken('C') };
    credentials['expired token'] = { query: `apiKey=${key.secret}&accessToken=${expired}` };
    credentials['token for another key'] = {
      query: `apiKey=${key.secret}&accessToken=${await token('A', otherKey.id)}`,
    };
    app = await startTestApp(dataSource);
  });

  afterAll(async () => {
    await app.close();
    await close();
  });

  async function call(requester: Requester, operation: Operation): Promise<Response> {
    const { query, headers } = credentials[requester];
    const [name, target] = operation.split(' ');
    if (name === 'getQuiz') {
      return app.get(`/getQuiz?quizId=${quizIds[target]}&${query}`, { headers });
    }
    return app.get(`/addQuiz?${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({
        quiz: {
          title: `New ${target} quiz`,
          visibility: target,
          survey: false,
          tags: ['new', 'quiz'],
        },
      }),
    });
  }

  /** The same operation through GraphQL, with the same credentials in the query string. */
  async function callGraphQL(requester: Requester, operation: Operation) {
    const { query, headers } = credentials[requester];
    const [name, target] = operation.split(' ');
    const search = query ? `?${query}` : '';
    if (name === 'getQuiz') {
      return graphql(app.url, 'query ($id: ID!) { getQuiz(quizId: $id) { id visibility } }', {
        variables: { id: quizIds[target] },
        headers,
        search,
      });
    }
    return graphql(
      app.url,
      'mutation ($quiz: QuizInput!) { addQuiz(quiz: $quiz) { id visibility } }',
      {
        variables: {
          quiz: {
            title: `New ${target} quiz`,
            visibility: target,
            survey: false,
            tags: ['new', 'quiz'],
          },
        },
        headers,
        search,
      },
    );
  }

  const countQuizzes = async () =>
    Number(
      ((await dataSource.query('SELECT COUNT(*) AS n FROM quizzes')) as { n: unknown }[])[0].n,
    );

  const cells = (Object.keys(MATRIX) as Requester[]).flatMap((requester) =>
    (Object.keys(MATRIX[requester]) as Operation[]).map(
      (operation) => [requester, operation, ...MATRIX[requester][operation]] as const,
    ),
  );

  it.each(cells)('%s × %s → %i %s', async (requester, operation, status, type) => {
    const [name, target] = operation.split(' ');
    const writes = type === 'ok' && name === 'addQuiz' ? 1 : 0;

    const before = await countQuizzes();
    const res = await call(requester, operation);
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status).toBe(status);
    expect(await countQuizzes()).toBe(before + writes);

    const beforeGraphQL = await countQuizzes();
    const gql = await callGraphQL(requester, operation);
    expect(await countQuizzes()).toBe(beforeGraphQL + writes);

    if (type === 'ok') {
      expect(body.visibility).toBe(target);
      if (name === 'getQuiz') expect(body.id).toBe(quizIds[target]);
      expect(gql.status).toBe(200);
      expect(gql.body.errors).toBeUndefined();
      const data = gql.body.data?.[name] as Record<string, unknown>;
      expect(data.visibility).toBe(target);
      if (name === 'getQuiz') expect(data.id).toBe(quizIds[target]);
      return;
    }
    expect(body.type).toBe(type);
    expect(body.operation).toBe(name);
    if (type === 'MissingParameterException') expect(body.parameterName).toBe('apiKey');
    if (name === 'getQuiz' && requester === 'anonymous') {
      // The spec's wording: the reason names the quiz.
      expect(body.reason).toBe(`access to quiz ${quizIds[target]} is denied`);
    }

    // GraphQL reads the same: same type and reason; the HTTP status where the request as a
    // whole was refused (credentials), the code of the table where one field was.
    const error = gql.body.errors?.[0];
    expect(error?.extensions?.type).toBe(type);
    expect(error?.extensions?.reason).toBe(body.reason);
    if (gql.body.data === undefined) {
      expect(gql.status).toBe(status);
    } else {
      expect(gql.status).toBe(200);
      expect(error?.extensions?.operation).toBe(name);
      expect(error?.extensions?.code).toBe(status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN');
    }
  });
});

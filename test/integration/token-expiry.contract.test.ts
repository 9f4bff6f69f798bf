import type { DataSource } from 'typeorm';
import { startTestApp, type TestApp } from '../helpers/app';
import { createLoginUser, loginThroughPage } from '../helpers/browser';
import { createTestApiKey } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';

const QUIZ = {
  quiz: { title: 'Token check', visibility: 'public', survey: false, tags: ['a', 'b'] },
};

describe('access token expiry', () => {
  let dataSource: DataSource;
  let closeDb: () => Promise<void>;
  let app: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    ({ dataSource, close: closeDb } = await openTestDatabase('token_expiry'));
    await createLoginUser(dataSource, 'teacher@example.test', 'teacher-password-123');
    apiKey = (await createTestApiKey(dataSource, 'localhost')).secret;
    app = await startTestApp(dataSource, { TOKEN_TTL_SECONDS: '3' });
  });

  afterAll(async () => {
    await app?.close();
    await closeDb();
  });

  const addQuiz = (token: string) =>
    fetch(
      `${app.url}/addQuiz?apiKey=${encodeURIComponent(apiKey)}&accessToken=${encodeURIComponent(token)}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(QUIZ),
      },
    );

  it('accepts a token from the login page until it expires, then answers 401', async () => {
    const login = await loginThroughPage(
      app.url,
      apiKey,
      'http://localhost:5173/cb',
      'teacher@example.test',
      'teacher-password-123',
    );
    expect(login.res.status).toBe(303);
    const issuedAt = Date.now();
    expect(login.issued?.expiresIn).toBe(3);
    const token = login.issued?.token ?? '';

    const fresh = await addQuiz(token);
    expect(fresh.status).toBe(200);
    expect(((await fresh.json()) as { title?: unknown }).title).toBe('Token check');

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, issuedAt + 3500 - Date.now())));
    const expired = await addQuiz(token);
    expect(expired.status).toBe(401);
    const body = (await expired.json()) as { type?: unknown; operation?: unknown };
    expect(body.type).toBe('UnauthorizedOperationException');
    expect(body.operation).toBe('addQuiz');
  });
});

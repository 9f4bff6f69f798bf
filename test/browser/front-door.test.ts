import fs from 'node:fs';
import net from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { DataSource } from 'typeorm';
import { OPENAPI_FILE } from '../../src/api/contracts.emit';
import { ACCESS_TOKEN_STORAGE_KEY, type StoredAccessToken } from '@quiz-results/client';
import { DEMO_LOGINS, demoDocument } from '../../src/data/demo/demo-data';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap } from '../../src/data/import/import-document';
import { User } from '../../src/db/entities';
import { startTestApp, type TestApp } from '../helpers/app';
import { launchChromium, loginThroughPage, testOutputPath } from '../helpers/browser';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';

const PRODUCTION_SECRET = 'front-door-production-cookie-secret-0123456789';

/** A free port, so the app knows its public URL before it listens. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Watched {
  page: Page;
  context: BrowserContext;
  /** Requests to anything but the service: aborted, and recorded here. */
  outside: string[];
  /** Uncaught exceptions, console errors (CSP refusals among them) and failed responses. */
  problems: string[];
}

/** A page in a new context where every request off the service is aborted and recorded. */
async function offlinePage(browser: Browser, app: TestApp): Promise<Watched> {
  const origin = new URL(app.url).origin;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const outside: string[] = [];
  const problems: string[] = [];
  await context.route('**', async (route) => {
    const url = route.request().url();
    if (url.startsWith('data:') || new URL(url).origin === origin) {
      await route.continue();
      return;
    }
    outside.push(url);
    await route.abort('internetdisconnected');
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
  });
  return { page, context, outside, problems };
}

/** A page of a data set, as the example document asks for it. */
interface DataSetPage<T> {
  dataSetId: string;
  totalNumberOfItems: number;
  numberOfPages: number;
  currentPageIndex: number;
  items: T[];
}

/** Monaco shows spaces as no-break spaces. */
const plain = (text: string) => text.replace(/\u00a0/g, ' ');

describe('the front door: landing page, REST reference and GraphQL IDE', () => {
  let dataSource: DataSource;
  let closeDb: () => Promise<void>;
  let app: TestApp;
  let production: TestApp;
  let browser: Browser;
  let ids: IdMap;
  let demoKey: string;
  /** The demo teacher's access token, as the login page gives it. */
  let teacherToken: string;

  beforeAll(async () => {
    ({ dataSource, close: closeDb } = await openTestDatabase('front_door'));
    ids = await loadData(dataSource, demoDocument());
    const teacher = await dataSource
      .getRepository(User)
      .findOneByOrFail({ email: DEMO_LOGINS[0].email });
    const key = await createTestApiKey(dataSource, 'localhost', teacher.id);
    demoKey = key.secret;
    teacherToken = await createTestToken(dataSource, teacher.id, key.id);
    const port = await freePort();
    app = await startTestApp(
      dataSource,
      { PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` },
      { demoApiKey: demoKey },
    );
    production = await startTestApp(
      dataSource,
      { NODE_ENV: 'production', COOKIE_SECRET: PRODUCTION_SECRET },
      { demoApiKey: demoKey },
    );
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await production?.close();
    await app?.close();
    await closeDb();
  });

  it('GET / is a page listing the demo (with the demo key), the IDEs, the REST reference, the key manager and health, offline', async () => {
    const raw = await fetch(`${app.url}/`);
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toMatch(/^text\/html/);
    // Its one script is a file of the service: no inline script may run.
    expect(raw.headers.get('content-security-policy')).toMatch(/(^|; )script-src 'self'(;|$)/);

    const { page, context, outside, problems } = await offlinePage(browser, app);
    try {
      await page.goto(`${app.url}/`);
      await page.waitForSelector('h1');
      expect(await page.textContent('h1')).toBe('Quiz results service');
      const links = await page.$$eval('main a', (anchors) =>
        anchors.map((a) => [a.textContent, a.getAttribute('href')]),
      );
      expect(links).toEqual([
        ['Demo page', `/demo/?apiKey=${encodeURIComponent(demoKey)}`],
        ['GraphQL IDE', '/ide/'],
        ['Apollo Sandbox', '/graphql'],
        ['GraphQL endpoint', '/graphql'],
        ['REST reference', '/docs/'],
        ['OpenAPI description', '/openapi.json'],
        ['Key manager', '/keys'],
        ['Liveness', '/livez'],
        ['Readiness', '/readyz'],
        ['Health', '/healthz'],
        ['Metrics', '/metrics'],
      ]);
      expect(await page.textContent('code.secret')).toBe(demoKey);
      expect(await page.textContent('main')).toContain('needs internet');
      expect(await page.$('#logged-in')).toBeNull();
      await page.screenshot({ path: testOutputPath('front-door-landing.png'), fullPage: true });

      // Every address the page links answers (the demo page's script is the browser build).
      for (const [, href] of links) {
        const res = await fetch(`${app.url}${href}`, { headers: { accept: 'text/html' } });
        expect([href, res.status]).toEqual([href, 200]);
      }
      expect(outside).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('after the login page redirects to /, the token is kept for the demo page, out of the address bar and never shown', async () => {
    const login = await loginThroughPage(
      app.url,
      demoKey,
      `${app.url}/`,
      DEMO_LOGINS[0].email,
      DEMO_LOGINS[0].password,
    );
    expect(login.res.status).toBe(303);
    const token = login.issued?.token ?? '';
    expect(token).not.toBe('');
    const location = login.location ?? '';
    expect(new URL(location).searchParams.get('accessToken')).toContain(token);

    // The server never writes the token into the page.
    const html = await (await fetch(location)).text();
    expect(html).not.toContain(token);
    expect(html).toContain('You are logged in');

    const { page, context, outside, problems } = await offlinePage(browser, app);
    try {
      await page.goto(location);
      await page.waitForSelector('#logged-in');
      expect(page.url()).toBe(`${app.url}/`);
      expect(await page.content()).not.toContain(token);
      const stored = await page.evaluate(
        (key) => window.localStorage.getItem(key),
        ACCESS_TOKEN_STORAGE_KEY,
      );
      const kept = JSON.parse(stored ?? '{}') as StoredAccessToken;
      expect(kept.token).toBe(token);
      expect(kept.expiresAt).toBeGreaterThan(Date.now());
      await page.screenshot({ path: testOutputPath('front-door-logged-in.png'), fullPage: true });
      // Nor is it written to the logs, though the page's URL carried it.
      expect(app.logs.text).toContain('"url":"/?accessToken=');
      expect(app.logs.text).not.toContain(token);
      expect(outside).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('/openapi.json is the committed description with this instance as its server and the credentials as security schemes', async () => {
    const res = await fetch(`${app.url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const served = (await res.json()) as {
      servers: { url: string }[];
      paths: Record<string, Record<string, { security: unknown; parameters: { name: string }[] }>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(served.servers).toEqual([{ url: app.url, description: 'this instance' }]);
    expect(served.components.securitySchemes.apiKey).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'query', name: 'apiKey' }),
    );
    expect(served.components.securitySchemes.accessToken).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'query', name: 'accessToken' }),
    );
    const operations = Object.values(served.paths).flatMap((methods) => Object.values(methods));
    expect(operations.length).toBeGreaterThan(10);
    for (const operation of operations) {
      // Every alternative needs the key; the credentials are no plain parameters besides.
      expect(operation.security).toEqual(
        expect.arrayContaining([expect.objectContaining({ apiKey: [] })]),
      );
      for (const alternative of operation.security as Record<string, unknown>[]) {
        expect(alternative).toHaveProperty('apiKey');
      }
      const names = operation.parameters.map((parameter) => parameter.name);
      expect(names).not.toContain('apiKey');
      expect(names).not.toContain('accessToken');
    }
    // getSession needs a token: its only alternative carries both schemes.
    expect(served.paths['/getSession'].get.security).toEqual([{ apiKey: [], accessToken: [] }]);
    const committed = JSON.parse(fs.readFileSync(OPENAPI_FILE, 'utf8')) as Record<string, unknown>;
    expect({ ...served, servers: committed.servers }).toEqual(committed);
  });

  it('the REST reference lists every operation from npm assets only, and "Try it out" gets real data with the preset demo key', async () => {
    const document = JSON.parse(fs.readFileSync(OPENAPI_FILE, 'utf8')) as {
      paths: Record<string, unknown>;
    };
    const { page, context, outside, problems } = await offlinePage(browser, app);
    try {
      await page.goto(`${app.url}/docs/`);
      await page.waitForSelector('.opblock');
      const listed = await page.$$eval('.opblock .opblock-summary-path', (paths) =>
        paths.map((path) => path.getAttribute('data-path')),
      );
      expect(listed.sort()).toEqual(Object.keys(document.paths).sort());
      expect(await page.textContent('.servers')).toContain(app.url);
      await page.screenshot({ path: testOutputPath('front-door-rest-reference.png') });

      const quizId = ids.quizzes.tables;
      expect(quizId).toBeDefined();
      const block = page.locator('#operations-default-getQuiz');
      await block.locator('.opblock-summary').click();
      await block.locator('button.try-out__btn').click();
      await block.locator('tr[data-param-name="quizId"] input').fill(String(quizId));
      const [answer] = await Promise.all([
        page.waitForResponse((response) => response.url().startsWith(`${app.url}/getQuiz?`)),
        block.locator('button.execute').click(),
      ]);
      // The key came from the Authorize dialog, preset with the demo key.
      expect(new URL(answer.url()).searchParams.get('apiKey')).toBe(demoKey);
      expect(answer.status()).toBe(200);
      const quiz = (await answer.json()) as { id: string; title: string };
      expect(quiz.title).toBe('Multiplication tables');
      await block.locator('.live-responses-table .response-col_status').first().waitFor();
      expect(await block.locator('.live-responses-table').textContent()).toContain(
        'Multiplication tables',
      );
      await block.locator('.live-responses-table').scrollIntoViewIfNeeded();
      await page.screenshot({ path: testOutputPath('front-door-rest-try-it-out.png') });
      expect(outside).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the GraphQL IDE (Ruru, from npm assets) runs the example flow with the preset key, offline', async () => {
    const { page, context, outside, problems } = await offlinePage(browser, app);
    const resultPanel = async () => plain(await page.locator('.result-window').innerText());

    /** Runs one operation of the document from the run button's menu; resolves to its answer. */
    const run = async <T>(operationName: string): Promise<T> => {
      const [response] = await Promise.all([
        page.waitForResponse(
          (res) =>
            res.url() === `${app.url}/graphql` &&
            (JSON.parse(res.request().postData() ?? '{}') as { operationName?: string })
              .operationName === operationName,
        ),
        (async () => {
          await page.click('.graphiql-execute-button');
          await page.click(`[role=menuitem]:text-is("${operationName}")`);
        })(),
      ]);
      expect((await response.request().allHeaders())['x-api-key']).toBe(demoKey);
      expect(response.status()).toBe(200);
      const body = (await response.json()) as { data: T; errors?: unknown };
      expect(body.errors).toBeUndefined();
      return body.data;
    };

    const setVariables = async (variables: Record<string, string>): Promise<void> => {
      await page.click('.graphiql-editor-tools button[data-name="variables"]');
      await page.click('section[aria-label="Variables"] .view-lines');
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Delete');
      await page.keyboard.insertText(JSON.stringify(variables));
    };

    try {
      const introspection = page.waitForResponse(
        (res) =>
          res.url() === `${app.url}/graphql` &&
          (res.request().postData() ?? '').includes('IntrospectionQuery'),
      );
      await page.goto(`${app.url}/ide/`);
      // The schema came: the IDE's first introspection carried the preset key.
      const schema = await introspection;
      expect(schema.status()).toBe(200);
      expect((await schema.json()) as object).toHaveProperty(
        'data.__schema.queryType.name',
        'Query',
      );
      await page.waitForFunction(() =>
        document.querySelector('.graphiql-query-editor .view-lines')?.textContent?.includes('Sets'),
      );
      expect(plain(await page.locator('.graphiql-query-editor').innerText())).toContain(
        'query Sets($sessionId: ID!)',
      );
      await page.click('.graphiql-editor-tools button[data-name="headers"]');
      // The headers editor fills in after the tab opens.
      await page.waitForFunction(() =>
        document.querySelector('section[aria-label="Headers"]')?.textContent?.includes('X-Api-Key'),
      );
      expect(plain(await page.locator('section[aria-label="Headers"]').innerText())).toContain(
        `"X-Api-Key": "${demoKey}"`,
      );

      // A session's users are its teacher's to read (contract §6): the example says to add the
      // token the login page gives, as a header beside the preset key.
      expect(plain(await page.locator('.graphiql-query-editor').innerText())).toContain(
        'Authorization',
      );
      await page
        .locator('section[aria-label="Headers"] .view-lines')
        .filter({ visible: true })
        .click();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Delete');
      await page.keyboard.insertText(
        JSON.stringify({ 'X-Api-Key': demoKey, Authorization: `Bearer ${teacherToken}` }),
      );

      // The example's variables name the first session of the demo data, as in a fresh database.
      expect(ids.sessions['monday-math']).toBe('1');
      const sets = await run<{
        quizzes: DataSetPage<{ title: string }>;
        users: DataSetPage<unknown>;
      }>('Sets');
      const titles = sets.quizzes.items.map((quiz) => quiz.title);
      expect(titles).toContain('Multiplication tables');
      await page.waitForFunction(() =>
        document.querySelector('.result-window')?.textContent?.includes('Multiplication'),
      );
      expect(await resultPanel()).toContain('"title": "Multiplication tables"');
      await page.screenshot({ path: testOutputPath('front-door-ide-sets.png') });

      await setVariables({
        quizSetId: String(sets.quizzes.dataSetId),
        userSetId: String(sets.users.dataSetId),
      });
      const results = await run<{
        getResults: DataSetPage<{ goodAnswersPercent: number | null }>;
      }>('Results');
      expect(results.getResults.totalNumberOfItems).toBe(sets.users.totalNumberOfItems);
      expect(results.getResults.numberOfPages).toBeGreaterThan(1);
      const percents = results.getResults.items.map((item) => item.goodAnswersPercent);
      expect(percents.every((value) => typeof value === 'number')).toBe(true);
      await page.waitForFunction(() =>
        document.querySelector('.result-window')?.textContent?.includes('getResults'),
      );
      expect(await resultPanel()).toContain(
        `"dataSetId": "${String(results.getResults.dataSetId)}"`,
      );

      await setVariables({ dataSetId: String(results.getResults.dataSetId) });
      const next = await run<{ getDataSetPage: DataSetPage<unknown> }>('NextPage');
      expect(next.getDataSetPage.currentPageIndex).toBe(2);
      expect(next.getDataSetPage.items.length).toBeGreaterThan(0);
      await page.waitForFunction(() =>
        document.querySelector('.result-window')?.textContent?.includes('getDataSetPage'),
      );
      expect(await resultPanel()).toContain('"currentPageIndex": 2');
      await page.screenshot({ path: testOutputPath('front-door-ide-next-page.png') });

      expect(outside).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('Apollo Sandbox at GET /graphql opens on the same example with the demo key header', async () => {
    const res = await fetch(`${app.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('EmbeddedSandbox');
    expect(html).toContain(`"X-Api-Key":"${demoKey}"`);
    expect(html).toContain('query Sets($sessionId: ID!)');
  });

  it('in production: no key on the landing page or in the reference, no IDE', async () => {
    const landing = await (await fetch(`${production.url}/`)).text();
    expect(landing).not.toContain(demoKey);
    expect(landing).not.toContain('/ide/');
    expect(landing).toContain('/docs/');
    const ide = await fetch(`${production.url}/ide/`);
    expect(ide.status).toBe(404);
    const docs = await fetch(`${production.url}/docs/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).not.toContain(demoKey);
  });
});

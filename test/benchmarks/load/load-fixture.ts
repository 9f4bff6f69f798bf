import mysql from 'mysql2/promise';
import { cli } from './load-service';
import { DB, GENERATE, KEEP_DB, TEACHER, log, mysqlUri } from './load-settings';

/** The data, the credentials and the data sets that the requests of a run read. */

export interface Fixture {
  apiKey: string;
  token: string;
  quizIds: number[];
  userIds: number[];
  sessionIds: number[];
  tags: string[];
  /** A session's user set and quiz set, for getResults. */
  pairs: { userSetId: string; quizSetId: string }[];
  paged: { dataSetId: string; numberOfPages: number };
}

export async function prepareDatabase(mainJs: string): Promise<void> {
  const admin = await mysql.createConnection({ uri: mysqlUri() });
  try {
    const count = admin.query<mysql.RowDataPacket[]>(`SELECT COUNT(*) AS n FROM ${DB}.users`);
    const users = await count.then(([rows]) => Number(rows[0]?.n)).catch(() => 0);
    if (KEEP_DB && users > 0) {
      log(`reusing ${DB} (BENCH_KEEP_DB=1): ${(await cli(mainJs, ['db:migrate'])).trim()}`);
      return;
    }
    await admin.query(`DROP DATABASE IF EXISTS ${DB}`);
    await admin.query(`CREATE DATABASE ${DB} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await admin.end();
  }
  log((await cli(mainJs, ['db:migrate'])).trim());
  const options = [...GENERATE.split(' '), '--seed', '1', '--teacher-password', TEACHER.password];
  log((await cli(mainJs, ['generate', ...options])).trim());
}

/** The login page's flow: the form (CSRF cookie and field), the POST, the redirect's token. */
async function logIn(url: string, apiKey: string): Promise<string> {
  const query = new URLSearchParams({ apiKey, redirectURL: 'http://localhost/bench' });
  const page = `${url}/authentication/login.php?${query}`;
  const form = await fetch(page);
  const html = await form.text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  const cookie = form.headers.getSetCookie().map((c) => c.split(';')[0]);
  if (!csrf || cookie.length === 0) throw new Error(`login form ${form.status}: ${html}`);
  const posted = await fetch(page, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookie.join('; ') },
    body: new URLSearchParams({ csrf, ...TEACHER }).toString(),
  });
  const location = posted.headers.get('location');
  const issued = location && new URL(location).searchParams.get('accessToken');
  if (!issued) throw new Error(`login ${posted.status}: ${await posted.text()}`);
  return (JSON.parse(issued) as { token: string }).token;
}

export async function prepareFixture(mainJs: string, url: string): Promise<Fixture> {
  const created = await cli(mainJs, ['key:create', '--host', 'localhost', '--label', 'load']);
  const apiKey = created.trim().split('\n').pop() as string;
  const token = await logIn(url, apiKey);
  const conn = await mysql.createConnection({ uri: mysqlUri(DB) });
  const column = async <T>(sql: string, as: (v: unknown) => T) =>
    (await conn.query<mysql.RowDataPacket[]>(sql))[0].map((r) => as(r.v));
  const quizIds = await column("SELECT id v FROM quizzes WHERE visibility = 'public'", Number);
  const userIds = await column('SELECT id v FROM users', Number);
  const sessionIds = await column('SELECT id v FROM sessions', Number);
  const tags = await column('SELECT DISTINCT tag v FROM quiz_tags', String);
  await conn.end();

  const make = async (operation: string, params: Record<string, string>) => {
    const query = new URLSearchParams({ apiKey, accessToken: token, ...params });
    const res = await fetch(`${url}/${operation}?${query}`);
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${operation} ${res.status}: ${body}`);
    return JSON.parse(body) as { dataSetId: string; numberOfPages: number };
  };
  const pairs = [];
  for (const sessionId of sessionIds.slice(0, 10).map(String)) {
    const userSet = await make('getUserSet', { sessionId });
    const quizSet = await make('getQuizSet', { sessionId });
    pairs.push({ userSetId: userSet.dataSetId, quizSetId: quizSet.dataSetId });
  }
  // The players of a quiz, 10 a page: getDataSetPage reads any of its pages.
  const paged = await make('getUserSet', { quizId: `${quizIds[0]}`, numberOfItemsPerPage: '10' });
  return { apiKey, token, quizIds, userIds, sessionIds, tags, pairs, paged };
}

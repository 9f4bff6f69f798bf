import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap, ImportDocument } from '../../src/data/import/import-document';
import { purgeExpiredAnswers } from '../../src/services/privacy/retention.service';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend, type Backend } from '../helpers/database';
import { postJson } from '../helpers/live';

/**
 * Retention (contract.md §14.5): with ANSWER_RETENTION_DAYS=365, the maintenance purge deletes
 * the answers of sessions started more than 365 days ago in bounded batches, then the attendance
 * of the sessions it emptied, and keeps everything newer; writers and readers of a recent session
 * keep being served while it runs, and the metrics count what it deleted.
 */

const DAY_MS = 86_400_000;
const PUPILS = Array.from({ length: 40 }, (_unused, index) => `p${index + 1}`);
const QUESTIONS = 50;
const PURGED_METRIC = 'quiz_retention_purged_rows_total';

/** `YYYY-MM-DD hh:mm:ss` UTC, `days` days before now. */
function daysAgo(days: number): string {
  return new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 19).replace('T', ' ');
}

function plus(start: string, minutes: number): string {
  const at = new Date(`${start.replace(' ', 'T')}Z`).getTime() + minutes * 60_000;
  return new Date(at).toISOString().slice(0, 19).replace('T', ' ');
}

/** Every listed pupil answers questions 0..count-1 of `q` in `session`. */
function answersOf(session: string, start: string, pupils: string[], count: number) {
  return pupils.flatMap((user) =>
    Array.from({ length: count }, (_unused, question) => ({
      session,
      user,
      quiz: 'q',
      question,
      answer: question % 2 === 0,
      answeredAt: plus(start, question + 1),
    })),
  );
}

function world(): ImportDocument {
  const starts = {
    O1: daysAgo(400),
    O2: '2020-03-02 08:00:00',
    O3: daysAgo(500),
    K: daysAgo(360),
    K2: daysAgo(30),
    R: daysAgo(10),
  };
  const session = (ref: keyof typeof starts, attendees: string[]) => ({
    ref,
    owner: 't',
    title: `Session ${ref}`,
    startDate: starts[ref],
    quizzes: ['q'],
    attendees: attendees.map((user) => ({ user })),
  });
  return {
    users: [
      { ref: 't', email: 't@school.example', firstName: 'Tess', lastName: 'Teacher' },
      ...PUPILS.map((ref) => ({
        ref,
        email: `${ref}@school.example`,
        firstName: 'Pupil',
        lastName: ref.toUpperCase(),
      })),
    ],
    quizzes: [
      {
        ref: 'q',
        author: 't',
        title: 'Statements',
        visibility: 'public',
        survey: false,
        tags: ['retention', 'logic'],
        questions: Array.from({ length: QUESTIONS }, (_unused, index) => ({
          title: `Statement ${index + 1}`,
          type: 'TrueFalse',
          goodAnswer: index % 2 === 0,
        })),
      },
    ],
    sessions: [
      // Past the retention: two full classes (2 × 40 × 50 answers), one without answers.
      session('O1', PUPILS),
      session('O2', PUPILS),
      session('O3', PUPILS.slice(0, 5)),
      // Within it: a year-old session just inside, a recent one without answers, the live one.
      session('K', PUPILS.slice(0, 3)),
      session('K2', PUPILS.slice(0, 5)),
      session('R', PUPILS),
    ],
    answers: [
      ...answersOf('O1', starts.O1, PUPILS, QUESTIONS),
      ...answersOf('O2', starts.O2, PUPILS, QUESTIONS),
      ...answersOf('K', starts.K, PUPILS.slice(0, 3), 10),
      ...answersOf('R', starts.R, PUPILS.slice(0, 10), 10),
    ],
  };
}

/** The value of one sample of the exposition text, 0 when absent. */
function sampleOf(text: string, name: string, labels: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}{${labels}} `));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

describe.each(BACKENDS)('answer retention on %s', (backend: Backend) => {
  let dataSource: DataSource;
  let closeDatabase: () => Promise<void>;
  let app: TestApp;
  let ids: IdMap;
  let credentials: string;

  beforeAll(async () => {
    ({ dataSource, close: closeDatabase } = await openBackend(backend, 'answer_retention'));
    ids = await loadData(dataSource, world());
    const key = await createTestApiKey(dataSource, 'localhost');
    const token = await createTestToken(dataSource, Number(ids.users.t), key.id);
    credentials = `apiKey=${key.secret}&accessToken=${token}`;
    // The job's own timer waits a day: the test runs the purge itself, with small batches.
    app = await startTestApp(dataSource, {
      ANSWER_RETENTION_DAYS: '365',
      PURGE_INTERVAL_SECONDS: '86400',
    });
  });

  afterAll(async () => {
    await app?.close();
    await closeDatabase?.();
  });

  const count = async (sql: string, params: unknown[] = []) =>
    Number(((await dataSource.query(sql, params)) as { n: unknown }[])[0]?.n);
  const answersOfSession = (ref: string) =>
    count('SELECT COUNT(*) AS n FROM answers WHERE session_id = ?', [ids.sessions[ref]]);
  const attendanceOf = (ref: string) =>
    count('SELECT COUNT(*) AS n FROM session_attendees WHERE session_id = ?', [ids.sessions[ref]]);
  const scrape = async () => {
    const res = await app.get('/metrics');
    expect(res.status).toBe(200);
    const text = await res.text();
    return {
      answers: sampleOf(text, PURGED_METRIC, 'what="answers"'),
      attendances: sampleOf(text, PURGED_METRIC, 'what="attendances"'),
    };
  };

  it('purges old answers in batches, then the attendance of emptied sessions, while addAnswers and getResults keep succeeding', async () => {
    expect(await count('SELECT COUNT(*) AS n FROM answers')).toBe(4000 + 30 + 100);
    const metricsBefore = await scrape();

    const userSet = await app.get(`/getUserSet?sessionId=${ids.sessions.R}&${credentials}`);
    const quizSet = await app.get(`/getQuizSet?sessionId=${ids.sessions.R}&${credentials}`);
    expect([userSet.status, quizSet.status]).toEqual([200, 200]);
    const resultsPath = `/getResults?userSetId=${String(((await userSet.json()) as { dataSetId: unknown }).dataSetId)}&quizSetId=${String(((await quizSet.json()) as { dataSetId: unknown }).dataSetId)}&sessionId=${ids.sessions.R}&resultTypes=nbGoodAnswers&${credentials}`;

    // Pupils p11..p40 each write five answers to the live session while the purge runs, and a
    // reader asks for the session's results between writes.
    // A request overlaps the purge when it was sent before the purge ended (on SQLite the app
    // and the purge share this process: their statements interleave on the event loop).
    let purging = true;
    let sentDuringPurge = 0;
    const statuses: number[] = [];
    const writers = async (pupils: string[]) => {
      for (const pupil of pupils) {
        if (purging) sentDuringPurge += 1;
        const written = await postJson(app.url, 'addAnswers', credentials, {
          sessionId: ids.sessions.R,
          answers: Array.from({ length: 5 }, (_unused, questionIndex) => ({
            userId: ids.users[pupil],
            quizId: ids.quizzes.q,
            questionIndex,
            answer: true,
          })),
        });
        statuses.push(written.status);
        const results = await app.get(resultsPath);
        statuses.push(results.status);
      }
    };
    const purge = purgeExpiredAnswers(app.deps, {
      answersPerStatement: 25,
      sessionsPerStatement: 2,
    }).finally(() => {
      purging = false;
    });
    const later = PUPILS.slice(10);
    const [purged] = await Promise.all([
      purge,
      writers(later.slice(0, 10)),
      writers(later.slice(10, 20)),
      writers(later.slice(20)),
    ]);

    // 4,000 answers by 160 statements of 25; 85 attendances of three sessions, two per statement.
    expect(purged).toEqual({ answers: 4000, attendances: 40 + 40 + 5, statements: 160 + 2 });
    expect(statuses).toHaveLength(2 * 30);
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(sentDuringPurge).toBeGreaterThanOrEqual(3);

    for (const ref of ['O1', 'O2', 'O3']) {
      expect([ref, await answersOfSession(ref), await attendanceOf(ref)]).toEqual([ref, 0, 0]);
    }
    expect(await answersOfSession('K')).toBe(30);
    expect(await attendanceOf('K')).toBe(3);
    expect(await attendanceOf('K2')).toBe(5);
    expect(await answersOfSession('R')).toBe(100 + 30 * 5);
    expect(await attendanceOf('R')).toBe(40);
    expect(await count('SELECT COUNT(*) AS n FROM answers')).toBe(30 + 250);

    const metricsAfter = await scrape();
    expect(metricsAfter.answers - metricsBefore.answers).toBe(4000);
    expect(metricsAfter.attendances - metricsBefore.attendances).toBe(85);

    // The results read afterwards count every written answer of the live session.
    const results = await app.get(`${resultsPath}&numberOfItemsPerPage=100`);
    expect(results.status).toBe(200);
    const items = ((await results.json()) as { items: { userId: string; nbGoodAnswers: number }[] })
      .items;
    // p1..p10 had ten good answers; p11..p40 wrote `true` to questions 0..4, good for 0, 2, 4.
    const expected = PUPILS.map((ref, index) => [ids.users[ref], index < 10 ? 10 : 3]);
    expect(
      items
        .map((item) => [item.userId, item.nbGoodAnswers])
        .sort((a, b) => Number(a[0]) - Number(b[0])),
    ).toEqual(expected.sort((a, b) => Number(a[0]) - Number(b[0])));

    // A second run finds nothing left to purge.
    expect(await purgeExpiredAnswers(app.deps)).toEqual({
      answers: 0,
      attendances: 0,
      statements: 0,
    });
  });

  it('keeps every answer when ANSWER_RETENTION_DAYS is 0', async () => {
    const forEver = await startTestApp(dataSource, { PURGE_INTERVAL_SECONDS: '86400' });
    try {
      expect(forEver.config.privacy.answerRetentionDays).toBe(0);
      const before = await count('SELECT COUNT(*) AS n FROM answers');
      expect(
        await purgeExpiredAnswers(forEver.deps, { now: new Date(Date.now() + 3650 * DAY_MS) }),
      ).toEqual({ answers: 0, attendances: 0, statements: 0 });
      expect(await count('SELECT COUNT(*) AS n FROM answers')).toBe(before);
    } finally {
      await forEver.close();
    }
  });
});

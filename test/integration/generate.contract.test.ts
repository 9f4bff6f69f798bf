import type { DataSource } from 'typeorm';
import { generateData, type GenerateOptions } from '../../src/data/generate/synthetic-data';
import { loadData } from '../../src/data/import/bulk-loader';
import type { ImportAnswer } from '../../src/data/import/import-document';
import type { GoodAnswer, QuestionType } from '../../src/domain/questions/question-types';
import { scoreAnswer } from '../../src/domain/questions/scoring';
import { openTestDatabase } from '../helpers/database';

const NOW = new Date('2027-07-01T00:00:00Z');
const TEACHER_HASH = '$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG';
const OPTIONS: GenerateOptions = {
  users: 240,
  quizzes: 12,
  questions: 10,
  sessions: 6,
  participation: 0.35,
  seed: 42,
  teacherPasswordHash: TEACHER_HASH,
  now: NOW,
};

/** The tables generated data fills, with the column that orders rows that have no id. */
const TABLES = [
  'users',
  'user_groups',
  'user_group_members',
  'quizzes',
  'quiz_tags',
  'questions',
  'sessions',
  'session_attendees',
  'session_quizzes',
  'answers',
  'user_quiz_flags',
] as const;
/** Id columns and the table they point into. */
const REFERENCES: Record<string, string> = {
  author_id: 'users',
  owner_id: 'users',
  user_id: 'users',
  quiz_id: 'quizzes',
  question_id: 'questions',
  session_id: 'sessions',
  group_id: 'user_groups',
};

type Row = Record<string, unknown>;

async function query<T = Row>(
  dataSource: DataSource,
  sql: string,
  parameters: unknown[] = [],
): Promise<T[]> {
  return (await dataSource.query(sql, parameters)) as T[];
}

async function count(dataSource: DataSource, table: string): Promise<number> {
  const [row] = await query<{ n: unknown }>(dataSource, `SELECT COUNT(*) AS n FROM ${table}`);
  return Number(row?.n);
}

/**
 * Every row of every table, with ids replaced by their rank in their table, so two databases
 * filled with the same data compare equal whatever ids their auto-increments handed out.
 */
async function normalizedDump(dataSource: DataSource): Promise<Record<string, string[]>> {
  const ranks = new Map<string, Map<number, number>>();
  for (const table of ['users', 'quizzes', 'questions', 'sessions', 'user_groups', 'answers']) {
    const ids = await query<{ id: number }>(dataSource, `SELECT id FROM ${table} ORDER BY id`);
    ranks.set(table, new Map(ids.map((row, rank) => [Number(row.id), rank])));
  }
  const dump: Record<string, string[]> = {};
  for (const table of TABLES) {
    const rows = await query(dataSource, `SELECT * FROM ${table}`);
    dump[table] = rows
      .map((row) => {
        const normalized = Object.entries(row).map(([column, value]) => {
          const target = column === 'id' ? table : REFERENCES[column];
          const rank = target ? ranks.get(target)?.get(Number(value)) : undefined;
          const plain = value instanceof Date ? value.toISOString() : value;
          return [column, target ? rank : plain];
        });
        return JSON.stringify(normalized);
      })
      .sort();
  }
  return dump;
}

interface StoredAnswer {
  value: string;
  good: number | null;
  type: QuestionType;
  good_answer: string | null;
  tolerance: number | null;
  case_sensitive: number | null;
  propositions: string | null;
}

describe('generate + load on MariaDB', () => {
  const databases: Awaited<ReturnType<typeof openTestDatabase>>[] = [];
  let first: DataSource;
  let second: DataSource;
  let otherSeed: DataSource;
  let expectedAnswers: number;

  beforeAll(async () => {
    for (const label of ['gen_a', 'gen_b', 'gen_c']) databases.push(await openTestDatabase(label));
    [first, second, otherSeed] = databases.map((database) => database.dataSource) as [
      DataSource,
      DataSource,
      DataSource,
    ];
    const generated = generateData(OPTIONS);
    expectedAnswers = generated.expected.answers;
    expect(generated.expected).toEqual({
      users: 240,
      quizzes: 12,
      questions: 120,
      sessions: 6,
      answers: expectedAnswers,
    });
    await loadData(first, generated.source, { now: NOW });
    await loadData(second, generateData(OPTIONS).source, { now: NOW });
    await loadData(otherSeed, generateData({ ...OPTIONS, seed: 43 }).source, { now: NOW });
  });

  afterAll(async () => {
    for (const database of databases) await database.close();
  });

  it('writes as many rows as asked for, and exactly the announced number of answers', async () => {
    expect(await count(first, 'users')).toBe(OPTIONS.users);
    expect(await count(first, 'quizzes')).toBe(OPTIONS.quizzes);
    expect(await count(first, 'questions')).toBe(OPTIONS.quizzes * OPTIONS.questions);
    expect(await count(first, 'sessions')).toBe(OPTIONS.sessions);
    expect(await count(first, 'answers')).toBe(expectedAnswers);
    const [nbQuestions] = await query<{ n: unknown }>(
      first,
      'SELECT MIN(nb_questions) AS n FROM quizzes',
    );
    expect(Number(nbQuestions?.n)).toBe(OPTIONS.questions);
  });

  it('makes about 1 teacher in 30, and about `participation` of the pupil-quiz pairs attempt every question', async () => {
    // Teachers own the groups (one each), author the quizzes and own the sessions.
    const teachers = await query<{ id: number }>(
      first,
      'SELECT DISTINCT owner_id AS id FROM user_groups',
    );
    expect(teachers).toHaveLength(Math.round(OPTIONS.users / 30));
    const [outsiders] = await query<{ n: unknown }>(
      first,
      `SELECT (SELECT COUNT(*) FROM quizzes WHERE author_id NOT IN (SELECT owner_id FROM user_groups))
            + (SELECT COUNT(*) FROM sessions WHERE owner_id NOT IN (SELECT owner_id FROM user_groups))
            + (SELECT COUNT(*) FROM answers WHERE user_id IN (SELECT owner_id FROM user_groups)) AS n`,
    );
    expect(Number(outsiders?.n)).toBe(0);
    const hashes = await query<{ teacher: number; hash: string | null }>(
      first,
      `SELECT id IN (SELECT owner_id FROM user_groups) AS teacher, password_hash AS hash FROM users`,
    );
    for (const { teacher, hash } of hashes)
      expect(hash).toBe(Number(teacher) ? TEACHER_HASH : null);

    const pupils = OPTIONS.users - teachers.length;
    const pairs = pupils * OPTIONS.quizzes;
    const expected = OPTIONS.participation * pairs * OPTIONS.questions;
    // Attempts are Binomial(pairs, p): 4 standard deviations is a generous margin.
    const margin =
      4 *
      Math.sqrt(pairs * OPTIONS.participation * (1 - OPTIONS.participation)) *
      OPTIONS.questions;
    expect(Math.abs(expectedAnswers - expected)).toBeLessThan(margin);
    const attempts = await query<{ n: unknown }>(
      first,
      'SELECT COUNT(*) AS n FROM answers GROUP BY session_id, user_id, quiz_id',
    );
    expect(attempts.every((row) => Number(row.n) === OPTIONS.questions)).toBe(true);
    expect(attempts.length * OPTIONS.questions).toBe(expectedAnswers);
  });

  it('keeps every answer consistent: attended, played in its session, answered in order', async () => {
    const [broken] = await query<{ n: unknown }>(
      first,
      `SELECT (SELECT COUNT(*) FROM answers a LEFT JOIN session_attendees sa
                 ON sa.session_id = a.session_id AND sa.user_id = a.user_id WHERE sa.user_id IS NULL)
            + (SELECT COUNT(*) FROM answers a LEFT JOIN session_quizzes sq
                 ON sq.session_id = a.session_id AND sq.quiz_id = a.quiz_id WHERE sq.quiz_id IS NULL)
            + (SELECT COUNT(*) FROM quizzes q WHERE NOT EXISTS (SELECT 1 FROM session_quizzes sq WHERE sq.quiz_id = q.id))
            + (SELECT COUNT(*) FROM answers a JOIN questions q1 ON q1.id = a.question_id
                 JOIN answers b ON b.session_id = a.session_id AND b.user_id = a.user_id AND b.quiz_id = a.quiz_id
                 JOIN questions q2 ON q2.id = b.question_id
               WHERE q2.position = q1.position + 1 AND b.answered_at <= a.answered_at)
            + (SELECT COUNT(*) FROM answers a JOIN sessions s ON s.id = a.session_id WHERE a.answered_at < s.start_date)
            AS n`,
    );
    expect(Number(broken?.n)).toBe(0);
    const [latest] = await query<{ d: Date }>(first, 'SELECT MAX(answered_at) AS d FROM answers');
    expect(latest?.d.getTime()).toBeLessThan(NOW.getTime());
    const types = await query<{ type: string }>(
      first,
      'SELECT DISTINCT type FROM questions ORDER BY type',
    );
    expect(types.map((row) => row.type)).toEqual([
      'FreeAnswerNumber',
      'FreeAnswerText',
      'MultipleChoicesOneGoodAnswer',
      'MultipleChoicesSeveralGoodAnswers',
      'TrueFalse',
    ]);
  });

  it('stores, for every answer, the `good` that the scoring module gives its stored value', async () => {
    const rows = await query<StoredAnswer>(
      first,
      `SELECT a.value, a.good, q.type, q.good_answer, q.tolerance, q.case_sensitive, q.propositions
         FROM answers a JOIN questions q ON q.id = a.question_id`,
    );
    expect(rows).toHaveLength(expectedAnswers);
    let good = 0;
    let wrong = 0;
    let survey = 0;
    for (const row of rows) {
      const score = scoreAnswer(
        {
          type: row.type,
          goodAnswer: row.good_answer === null ? null : (JSON.parse(row.good_answer) as GoodAnswer),
          tolerance: row.tolerance,
          caseSensitive: row.case_sensitive === null ? null : Boolean(row.case_sensitive),
          nbPropositions:
            row.propositions === null ? null : (JSON.parse(row.propositions) as string[]).length,
        },
        JSON.parse(row.value),
      );
      expect(row.good === null ? null : Boolean(row.good)).toBe(score);
      if (score === true) good += 1;
      else if (score === false) wrong += 1;
      else survey += 1;
    }
    // Good and wrong answers of every kind, and surveys (quiz 8 of every 25) answered too.
    expect(good).toBeGreaterThan(expectedAnswers * 0.25);
    expect(wrong).toBeGreaterThan(expectedAnswers * 0.25);
    expect(survey).toBe(
      (
        await query<{ n: unknown }>(
          first,
          'SELECT COUNT(*) AS n FROM answers a JOIN quizzes q ON q.id = a.quiz_id WHERE q.survey = 1',
        )
      ).map((row) => Number(row.n))[0],
    );
    expect(survey).toBeGreaterThan(0);
  });

  it("spreads pupils' scores, so percentiles differ", async () => {
    const rates = (
      await query<{ rate: unknown }>(
        first,
        'SELECT AVG(good) AS rate FROM answers WHERE good IS NOT NULL GROUP BY user_id HAVING COUNT(*) >= 20',
      )
    ).map((row) => Number(row.rate));
    expect(rates.length).toBeGreaterThan(100);
    const mean = rates.reduce((sum, rate) => sum + rate, 0) / rates.length;
    const deviation = Math.sqrt(
      rates.reduce((sum, rate) => sum + (rate - mean) ** 2, 0) / rates.length,
    );
    expect(deviation).toBeGreaterThan(0.12);
    expect(Math.min(...rates)).toBeLessThan(0.35);
    expect(Math.max(...rates)).toBeGreaterThan(0.75);
    // Per attempt: many different scores on a quiz, as percentiles need.
    const scores = await query<{ n: unknown }>(
      first,
      `SELECT COUNT(DISTINCT good_count) AS n FROM (
         SELECT quiz_id, SUM(good) AS good_count FROM answers WHERE good IS NOT NULL
         GROUP BY session_id, user_id, quiz_id) AS attempts GROUP BY quiz_id`,
    );
    expect(Math.max(...scores.map((row) => Number(row.n)))).toBeGreaterThanOrEqual(6);
  });

  it('gives identical data for the same seed, and different data for another seed', async () => {
    const dumpA = await normalizedDump(first);
    const dumpB = await normalizedDump(second);
    for (const table of TABLES) {
      expect(dumpA[table]?.length).toBeGreaterThan(0);
      expect([table, dumpB[table]]).toEqual([table, dumpA[table]]);
    }
    const dumpC = await normalizedDump(otherSeed);
    expect(dumpC.users).not.toEqual(dumpA.users);
    expect(dumpC.questions).not.toEqual(dumpA.questions);
    expect(dumpC.answers).not.toEqual(dumpA.answers);
  });
});

describe('generateData without a database', () => {
  it('streams its answers lazily, the same ones on every pass, as many as announced', () => {
    const options = {
      users: 3000,
      quizzes: 100,
      questions: 20,
      sessions: 200,
      participation: 0.05,
      seed: 9,
    };
    const { source, expected } = generateData(options);
    expect(Array.isArray(source.answers)).toBe(false);
    const pass = (): { count: number; checksum: number; last?: ImportAnswer } => {
      let count = 0;
      let checksum = 0;
      let last: ImportAnswer | undefined;
      for (const answer of source.answers as Iterable<ImportAnswer>) {
        count += 1;
        checksum =
          (checksum * 31 +
            answer.question +
            answer.answeredAt.length +
            Number(answer.user.slice(1))) %
          1_000_000_007;
        last = answer;
      }
      return { count, checksum, last };
    };
    const firstPass = pass();
    expect(firstPass.count).toBe(expected.answers);
    expect(pass()).toEqual(firstPass);
    const pupils = options.users - Math.round(options.users / 30);
    const expectedCount = options.participation * pupils * options.quizzes * options.questions;
    expect(Math.abs(expected.answers - expectedCount) / expectedCount).toBeLessThan(0.05);
  });

  it('dates everything from 2026-09-01 when no `now` is given, and refuses impossible options', () => {
    const { source } = generateData({
      users: 40,
      quizzes: 3,
      questions: 5,
      sessions: 2,
      participation: 0.5,
      seed: 1,
    });
    const quizzes = source.quizzes as { creationDate: string }[];
    for (const quiz of quizzes) expect(quiz.creationDate >= '2026-09-01 00:00:00').toBe(true);
    expect(() =>
      generateData({
        users: 10,
        quizzes: 1,
        questions: 1,
        sessions: 1,
        participation: 1.5,
        seed: 1,
      }),
    ).toThrow(RangeError);
    expect(() =>
      generateData({
        users: 10,
        quizzes: 0,
        questions: 1,
        sessions: 1,
        participation: 0.5,
        seed: 1,
      }),
    ).toThrow(RangeError);
  });
});

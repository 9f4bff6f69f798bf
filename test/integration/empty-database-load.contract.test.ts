import type { DataSource } from 'typeorm';
import { generateData } from '../../src/data/generate/synthetic-data';
import { loadData } from '../../src/data/import/bulk-loader';
import { LOADED_TABLES } from '../../src/data/import/empty-database';
import type { ImportDocument, ImportSource } from '../../src/data/import/import-document';
import { ImportError } from '../../src/data/import/import-validator';
import { openSqliteTestDatabase, openTestDatabase } from '../helpers/database';
import { generatedWithBadLastAnswer } from '../helpers/bad-import';

const NOW = new Date('2027-07-01T00:00:00Z');

/** Texts that LOAD DATA's format must carry unchanged: its separators, escapes and NULL marker. */
const AWKWARD_TEXTS = [
  'tab\there',
  'two\nlines',
  'carriage\r\nreturn',
  'back\\slash \\N \\t',
  '\\N',
  'quotes \' and "',
  'nul \u0000 char',
  'émoji 😀 and 中文',
];

/** A class whose answers are the awkward texts, the first one good. */
function awkwardDocument(): ImportDocument {
  return {
    users: [
      { ref: 't', email: 'teacher@load.test', firstName: 'T', lastName: 'T' },
      { ref: 'p', email: 'pupil@load.test', firstName: 'P', lastName: 'P' },
    ],
    quizzes: [
      {
        ref: 'q',
        author: 't',
        title: 'Words',
        visibility: 'public',
        survey: false,
        tags: ['words', 'spelling'],
        creationDate: '2027-01-01 08:00:00',
        questions: AWKWARD_TEXTS.map((_, position) => ({
          title: `Word ${position}`,
          type: 'FreeAnswerText',
          goodAnswer: 'tab\there',
          tolerance: 0,
        })),
      },
    ],
    sessions: [
      {
        ref: 'S',
        owner: 't',
        title: 'Words',
        startDate: '2027-01-04 09:00:00',
        quizzes: ['q'],
        attendees: [{ user: 'p' }],
      },
    ],
    answers: AWKWARD_TEXTS.map((answer, question) => ({
      session: 'S',
      user: 'p',
      quiz: 'q',
      question,
      answer,
      answeredAt: `2027-01-04 09:0${question}:00`,
    })),
  };
}

const GENERATED = {
  users: 300,
  quizzes: 20,
  questions: 10,
  sessions: 10,
  participation: 0.5,
  seed: 5,
  now: NOW,
};

/** Every answer with what it refers to, in the order it was stored: comparable across databases. */
async function storedAnswers(dataSource: DataSource): Promise<string[]> {
  const rows = (await dataSource.query(
    `SELECT u.email, q.title AS quiz, qu.position, s.title AS session, s.start_date,
            a.value, a.good, a.answered_at
       FROM answers a
       JOIN users u ON u.id = a.user_id
       JOIN quizzes q ON q.id = a.quiz_id
       JOIN questions qu ON qu.id = a.question_id AND qu.quiz_id = a.quiz_id
       JOIN sessions s ON s.id = a.session_id
      ORDER BY a.id`,
  )) as Record<string, unknown>[];
  return rows.map((row) =>
    JSON.stringify(Object.values(row).map((v) => (v instanceof Date ? v.toISOString() : v))),
  );
}

async function rowCounts(dataSource: DataSource): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of LOADED_TABLES) {
    const [row] = (await dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`)) as {
      n: unknown;
    }[];
    counts[table] = Number(row?.n);
  }
  return counts;
}

/** The generated source, its last answer made bad: the error comes after many rows were sent. */
function generatedWithBadLast(): { source: ImportSource; lastIndex: number } {
  return generatedWithBadLastAnswer(GENERATED);
}

describe('a load into an empty database (answers as one LOAD DATA) on MariaDB', () => {
  const opened: Awaited<ReturnType<typeof openTestDatabase>>[] = [];
  const open = async (label: string) => {
    const database = await openTestDatabase(label);
    opened.push(database);
    return database.dataSource;
  };

  afterAll(async () => {
    for (const database of opened) await database.close();
  });

  it('stores awkward texts as the plain load does', async () => {
    const [plain, bulk] = [await open('load_plain'), await open('load_bulk')];
    await loadData(plain, awkwardDocument(), { now: NOW });
    await loadData(bulk, awkwardDocument(), { now: NOW, emptyDatabase: true });
    const stored = await storedAnswers(bulk);
    expect(stored).toEqual(await storedAnswers(plain));
    expect(stored.map((row) => JSON.parse(JSON.parse(row)[5] as string))).toEqual(AWKWARD_TEXTS);
    expect(stored.map((row) => Number(JSON.parse(row)[6]))).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('stores a generated class (many chunks) as the plain load does, and reports the index build', async () => {
    const [plain, bulk] = [await open('gen_plain'), await open('gen_bulk')];
    const generated = generateData(GENERATED);
    expect(generated.expected.answers).toBeGreaterThan(20_000);
    await loadData(plain, generated.source, { now: NOW });
    const phases: string[] = [];
    await loadData(bulk, generateData(GENERATED).source, {
      now: NOW,
      emptyDatabase: true,
      onProgress: (phase) => phases.push(phase),
    });
    const answers = await storedAnswers(bulk);
    expect(answers).toHaveLength(generated.expected.answers);
    expect(answers).toEqual(await storedAnswers(plain));
    expect(await rowCounts(bulk)).toEqual(await rowCounts(plain));
    expect([...new Set(phases)]).toEqual([
      'users',
      'quizzes',
      'groups',
      'sessions',
      'answers',
      'indexes',
      'flags',
    ]);
  });

  it('refuses a database that holds rows, before writing anything', async () => {
    const dataSource = await open('load_not_empty');
    await loadData(dataSource, awkwardDocument(), { now: NOW });
    const before = await rowCounts(dataSource);
    const load = loadData(dataSource, generateData(GENERATED).source, {
      now: NOW,
      emptyDatabase: true,
    });
    await expect(load).rejects.toThrow(ImportError);
    await load.catch((error: unknown) =>
      expect((error as ImportError).reason).toMatch(/found rows in users/),
    );
    expect(await rowCounts(dataSource)).toEqual(before);
  });

  it('rolls everything back when an answer is refused after rows were sent, and leaves the checks on', async () => {
    const dataSource = await open('load_bad_answer');
    const { source, lastIndex } = generatedWithBadLast();
    let sent = 0;
    const load = loadData(dataSource, source, {
      now: NOW,
      emptyDatabase: true,
      onProgress: (phase, done) => {
        if (phase === 'answers') sent = done;
      },
    });
    await expect(load).rejects.toThrow(ImportError);
    await load.catch((error: unknown) =>
      expect((error as ImportError).path).toBe(`answers[${lastIndex}].answeredAt`),
    );
    expect(sent).toBeGreaterThan(10_000);
    expect(Object.values(await rowCounts(dataSource)).every((n) => n === 0)).toBe(true);

    // Every connection of the pool (5) writes with unique and foreign-key checks again.
    const runners = Array.from({ length: 5 }, () => dataSource.createQueryRunner());
    try {
      await Promise.all(runners.map((runner) => runner.connect()));
      for (const runner of runners) {
        const [checks] = (await runner.query(
          'SELECT CONNECTION_ID() AS id, @@SESSION.unique_checks AS u, @@SESSION.foreign_key_checks AS f',
        )) as { id: unknown; u: unknown; f: unknown }[];
        expect({ u: Number(checks?.u), f: Number(checks?.f) }).toEqual({ u: 1, f: 1 });
      }
      const ids = await Promise.all(
        runners.map(async (runner) => {
          const [row] = (await runner.query('SELECT CONNECTION_ID() AS id')) as { id: unknown }[];
          return Number(row?.id);
        }),
      );
      expect(new Set(ids).size).toBe(5);
    } finally {
      await Promise.all(runners.map((runner) => runner.release()));
    }
  });
});

describe('a load into an empty database on SQLite', () => {
  it('loads as usual, and refuses a database that holds rows', async () => {
    const { dataSource, close } = await openSqliteTestDatabase();
    try {
      await loadData(dataSource, awkwardDocument(), { now: NOW, emptyDatabase: true });
      const awkward = await storedAnswers(dataSource);
      expect(awkward.map((row) => JSON.parse(JSON.parse(row)[5] as string))).toEqual(AWKWARD_TEXTS);
      await expect(
        loadData(dataSource, awkwardDocument(), { now: NOW, emptyDatabase: true }),
      ).rejects.toThrow(/found rows in users/);
    } finally {
      await close();
    }
  });
});

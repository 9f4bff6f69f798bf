import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap, ImportDocument, ImportQuestion } from '../../src/data/import/import-document';
import { Answer } from '../../src/db/entities';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend } from '../helpers/database';
import { graphql } from '../helpers/graphql';
import { SeededRandom, describeSeed, runSeed } from '../helpers/seeded-random';
import { SURVEY_OF_EVERY_TYPE } from '../helpers/fixtures';

/**
 * addAnswers is idempotent per (session, user, quiz, question) (contract.md §9): the same batch
 * sent again leaves the same rows and reports them unchanged, on either wire and in any order;
 * overlapping batches in flight at once leave one row per key holding the value the replacement
 * rule gives, and their counts add up. Keys, values, times and the order of each batch are
 * drawn from the run's seed (printed; INGEST_SEED replays a run).
 */

const SEED = runSeed();

const PUPILS = Array.from({ length: 10 }, (_, i) => `P${i + 1}`);
const W_QUESTIONS = 20;
/** The good answers of W: the text round 3 side a sends, the number round 5 side b sends. */
const W_GOOD_TEXT = 'r3a';
const W_GOOD_NUMBER = 52;

const CLASS: ImportDocument = {
  users: ['T', ...PUPILS].map((ref) => ({
    ref,
    email: `${ref.toLowerCase()}@idempotency.example`,
    firstName: ref,
    lastName: 'Idempotency',
  })),
  // The teacher's class: she may name its pupils and write their answers (contract.md §9).
  groups: [{ ref: 'C', name: 'Idempotency class', owner: 'T', members: PUPILS }],
  quizzes: [
    {
      ref: 'K',
      author: 'T',
      title: 'Every question type, twice',
      visibility: 'public',
      survey: false,
      tags: ['types', 'idempotency'],
      questions: [0, 1].flatMap((round): ImportQuestion[] => [
        {
          title: `One ${round}`,
          type: 'MultipleChoicesOneGoodAnswer',
          propositions: ['a', 'b', 'c'],
          goodAnswer: 1,
        },
        {
          title: `Several ${round}`,
          type: 'MultipleChoicesSeveralGoodAnswers',
          propositions: ['a', 'b', 'c', 'd'],
          goodAnswer: [0, 2],
        },
        { title: `True ${round}`, type: 'TrueFalse', goodAnswer: round === 0 },
        { title: `Capital ${round}`, type: 'FreeAnswerText', goodAnswer: 'Paris', tolerance: 20 },
        { title: `Number ${round}`, type: 'FreeAnswerNumber', goodAnswer: 0.75, tolerance: 5 },
      ]),
    },
    {
      ref: 'V',
      author: 'T',
      title: 'Feedback',
      visibility: 'public',
      survey: true,
      tags: ['survey', 'idempotency'],
      questions: SURVEY_OF_EVERY_TYPE,
    },
    {
      ref: 'W',
      author: 'T',
      title: 'Texts and numbers',
      visibility: 'public',
      survey: false,
      tags: ['free', 'idempotency'],
      questions: Array.from({ length: W_QUESTIONS }, (_, i) =>
        i % 2 === 0
          ? {
              title: `Text ${i}`,
              type: 'FreeAnswerText',
              goodAnswer: W_GOOD_TEXT,
              caseSensitive: true,
              tolerance: 0,
            }
          : { title: `Number ${i}`, type: 'FreeAnswerNumber', goodAnswer: W_GOOD_NUMBER },
      ),
    },
  ],
};

type Json = Record<string, unknown>;
type Wire = 'REST' | 'GraphQL';

interface Counts {
  sessionId: string;
  received: number;
  inserted: number;
  updated: number;
  unchanged: number;
}

/** 2026-10-01 08:00:00 UTC: every answeredAt of the suite lies within 24 days after it. */
const BASE_MS = Date.UTC(2026, 9, 1, 8, 0, 0);
const at = (seconds: number) =>
  new Date(BASE_MS + seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');

beforeAll(() => {
  console.info(describeSeed('test/integration/ingestion-idempotency.contract.test.ts', SEED));
});

describe.each(BACKENDS)('addAnswers idempotency on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let ids: IdMap;
  let teacher: string;
  const random = new SeededRandom(SEED + (backend === 'MariaDB' ? 0 : 1));

  const user = (ref: string) => ids.users[ref] as string;
  const quiz = (ref: string) => ids.quizzes[ref] as string;

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'ingestion_idempotency'));
    ids = await loadData(dataSource, CLASS);
    const key = await createTestApiKey(dataSource, 'localhost');
    teacher = `apiKey=${key.secret}&accessToken=${await createTestToken(dataSource, Number(user('T')), key.id)}`;
    app = await startTestApp(dataSource);
  });

  afterAll(async () => {
    await app?.close();
    await close?.();
  });

  /** A session of T's playing the quizzes, every pupil attending. */
  async function newSession(title: string, quizRefs: string[]): Promise<string> {
    const res = await fetch(`${app.url}/addSession?${teacher}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        session: { title, quizIds: quizRefs.map(quiz), attendeeIds: PUPILS.map(user) },
      }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as Json).id as string;
  }

  /** addAnswers by the session's owner on one wire; the call must succeed. */
  async function send(wire: Wire, sessionId: string, answers: Json[]): Promise<Counts> {
    if (wire === 'REST') {
      const res = await fetch(`${app.url}/addAnswers?${teacher}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sessionId, answers }),
      });
      const body = (await res.json()) as Json;
      expect({ status: res.status, body }).toMatchObject({ status: 200, body: { sessionId } });
      return body as unknown as Counts;
    }
    const gql = await graphql(
      app.url,
      'mutation ($id: ID!, $a: [AnswerInput!]!) { addAnswers(sessionId: $id, answers: $a) { sessionId received inserted updated unchanged } }',
      { variables: { id: sessionId, a: answers }, search: `?${teacher}` },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.status).toBe(200);
    return gql.body.data?.addAnswers as Counts;
  }

  /** Every stored answer of a session, every column, in key order. */
  function rowsOf(sessionId: string): Promise<Answer[]> {
    return dataSource.getRepository(Answer).find({
      where: { sessionId: Number(sessionId) },
      order: { userId: 'ASC', questionId: 'ASC' },
    });
  }

  /**
   * Runs two addAnswers calls to one session so that on MariaDB both transactions are open at
   * once: the session's change marker, which each bumps after its upsert, is held locked by a
   * transaction of the test's own until both wait (the one that stored its answers first waits
   * for the marker, the other for the rows the first one holds), then released without writing
   * anything. SQLite has a single writer: the calls simply run.
   */
  async function together<T>(sessionId: string, calls: () => Promise<T>): Promise<T> {
    if (backend !== 'MariaDB') return calls();
    const blocker = dataSource.createQueryRunner();
    await blocker.connect();
    try {
      await blocker.startTransaction();
      const [marker] = (await blocker.query(
        'SELECT COUNT(*) AS n FROM session_changes WHERE session_id = ? FOR UPDATE',
        [Number(sessionId)],
      )) as { n: unknown }[];
      if (Number(marker?.n) === 0) {
        await blocker.query(
          'INSERT INTO session_changes (session_id, version, changed_at) VALUES (?, 1, ?)',
          [Number(sessionId), new Date()],
        );
      }
      const settled = calls().then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
      let inFlight = { marker: 0, answers: 0 };
      for (let poll = 0; poll < 500 && (inFlight.marker < 1 || inFlight.answers < 1); poll += 1) {
        await sleep(20);
        const [row] = (await dataSource.query(
          `SELECT SUM(INFO LIKE 'INSERT INTO session_changes%') AS marker,
                  SUM(INFO LIKE 'INSERT INTO \`answers\`%') AS answers
             FROM information_schema.PROCESSLIST WHERE DB = DATABASE() AND COMMAND = 'Query'`,
        )) as { marker: unknown; answers: unknown }[];
        inFlight = { marker: Number(row?.marker ?? 0), answers: Number(row?.answers ?? 0) };
      }
      // One writer stored its answers and waits for the marker; the other is in its upsert, on
      // rows the first one holds locked until it commits.
      expect(inFlight).toStrictEqual({ marker: 1, answers: 1 });
      await blocker.rollbackTransaction();
      const outcome = await settled;
      if ('error' in outcome) throw outcome.error;
      return outcome.value;
    } finally {
      if (blocker.isTransactionActive) await blocker.rollbackTransaction();
      await blocker.release();
    }
  }

  const counts = (received: number, inserted: number, updated: number, unchanged: number) => ({
    received,
    inserted,
    updated,
    unchanged,
  });
  const only = ({ received, inserted, updated, unchanged }: Counts) =>
    counts(received, inserted, updated, unchanged);

  describe('the same batch sent again', () => {
    /**
     * Every question type of K and the survey V for five pupils, answeredAt a second apart;
     * `respelled` writes the same values in other spellings (indexes unsorted, booleans as
     * text, numbers with a comma or as numbers).
     */
    function typesBatch(respelled: boolean): Json[] {
      const answers: Json[] = [];
      let second = 0;
      PUPILS.slice(0, 5).forEach((ref, p) => {
        const values: unknown[] = [
          p % 3,
          respelled ? [2, 0] : [0, 2],
          respelled ? String(p % 2 === 0) : p % 2 === 0,
          p === 4 ? ' paris ' : 'Paris',
          respelled ? 0.75 + p : `${p},75`,
        ];
        for (const [index, value] of [...values, ...values].entries()) {
          second += 1;
          answers.push({
            userId: user(ref),
            quizId: quiz('K'),
            questionIndex: index,
            answer: value,
            answeredAt: at(second),
          });
        }
        const survey: unknown[] = [
          p % 2,
          respelled ? [2, 0] : [0, 2],
          respelled ? String(p > 2) : p > 2,
          'Fine',
          respelled ? 10 : '10,0',
        ];
        survey.forEach((value, index) => {
          second += 1;
          answers.push({
            userId: user(ref),
            quizId: quiz('V'),
            questionIndex: index,
            answer: value,
            answeredAt: at(second),
          });
        });
      });
      return answers;
    }

    it('leaves the same rows on either wire, in any order, in any spelling, and reports them unchanged', async () => {
      const sessionId = await newSession('Types twice', ['K', 'V']);
      const batch = typesBatch(false);
      expect(batch).toHaveLength(75);
      expect(only(await send('REST', sessionId, batch))).toStrictEqual(counts(75, 75, 0, 0));
      const rows = await rowsOf(sessionId);
      expect(rows).toHaveLength(75);
      // Scored on write; the survey's answers have no score.
      const surveyQuestions = new Set(
        rows.filter((row) => row.quizId === Number(quiz('V'))).map((row) => row.questionId),
      );
      expect(surveyQuestions.size).toBe(5);
      expect(
        rows.filter((row) => surveyQuestions.has(row.questionId)).map((row) => row.good),
      ).toStrictEqual(Array.from({ length: 25 }, () => null));
      expect(rows.filter((row) => row.good === true).length).toBeGreaterThan(0);
      expect(rows.filter((row) => row.good === false).length).toBeGreaterThan(0);

      const again: [Wire, Json[]][] = [
        ['REST', batch],
        ['GraphQL', batch],
        ['GraphQL', random.shuffle(batch)],
        ['REST', random.shuffle(typesBatch(true))],
        ['GraphQL', random.shuffle(typesBatch(true))],
      ];
      for (const [wire, answers] of again) {
        expect(only(await send(wire, sessionId, answers))).toStrictEqual(counts(75, 0, 0, 75));
        expect(await rowsOf(sessionId)).toStrictEqual(rows);
      }
    });

    it('keeps the first answeredAt of a batch sent twice without one', async () => {
      const sessionId = await newSession('Now twice', ['K']);
      const batch = PUPILS.slice(5).flatMap((ref) =>
        [1, [0, 2], true, 'Paris', '0.75'].map((answer, index) => ({
          userId: user(ref),
          quizId: quiz('K'),
          questionIndex: index,
          answer,
        })),
      );
      const before = Date.now();
      expect(only(await send('GraphQL', sessionId, batch))).toStrictEqual(counts(25, 25, 0, 0));
      const rows = await rowsOf(sessionId);
      for (const row of rows) {
        // The server's clock, in whole seconds: within the call.
        expect(row.answeredAt.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
        expect(row.good).toBe(true);
      }
      expect(only(await send('REST', sessionId, batch))).toStrictEqual(counts(25, 0, 0, 25));
      expect(await rowsOf(sessionId)).toStrictEqual(rows);
    });
  });

  describe('overlapping batches in flight at once', () => {
    const keys = PUPILS.flatMap((ref) =>
      Array.from({ length: W_QUESTIONS }, (_, index) => ({ ref, index })),
    );
    const keyOf = (key: { ref: string; index: number }) => `${key.ref}/${key.index}`;

    /**
     * The answer of `side` in `round` to a key of W: a text or a number no other round or side
     * sends to that key (the number as JSON or as text with a decimal comma). `stored` is its
     * value as the answers table holds it; `good` its score.
     */
    function valueOf(round: number, side: 'a' | 'b', index: number) {
      if (index % 2 === 0) {
        const text = `r${round}${side}`;
        return { answer: text, stored: JSON.stringify(text), good: text === W_GOOD_TEXT };
      }
      const number = round * 10 + (side === 'a' ? 1 : 2);
      return {
        answer: round % 2 === 0 ? number : `${number},0`,
        stored: JSON.stringify(String(number)),
        good: number === W_GOOD_NUMBER,
      };
    }

    interface Sent {
      stored: string;
      good: boolean;
      seconds: number;
    }

    const answerOf = (key: { ref: string; index: number }, answer: unknown, seconds: number) => ({
      userId: user(key.ref),
      quizId: quiz('W'),
      questionIndex: key.index,
      answer,
      answeredAt: at(seconds),
    });

    /** The stored answers of a session by key, as the expectations read them. */
    async function storedByKey(sessionId: string): Promise<Map<string, Answer>> {
      const questionIds = (
        await dataSource.query('SELECT id FROM questions WHERE quiz_id = ? ORDER BY position', [
          Number(quiz('W')),
        ])
      ).map((row: { id: unknown }) => Number(row.id)) as number[];
      const refOf = new Map(PUPILS.map((ref) => [Number(user(ref)), ref]));
      const rows = await rowsOf(sessionId);
      const byKey = new Map<string, Answer>();
      for (const row of rows) {
        const key = `${refOf.get(row.userId)}/${questionIds.indexOf(row.questionId)}`;
        expect(byKey.has(key)).toBe(false);
        byKey.set(key, row);
      }
      return byKey;
    }

    it('later answeredAt wins whatever the order of arrival; the same answer twice is one row', async () => {
      const sessionId = await newSession('Overlapping writers', ['W']);
      /** Every time sent to each key, so that none is sent twice with different values. */
      const times = new Map<string, Set<number>>();
      const freshTime = (key: string) => {
        const used = times.get(key) ?? new Set<number>();
        let seconds = random.int(0, 2_000_000);
        while (used.has(seconds)) seconds = random.int(0, 2_000_000);
        used.add(seconds);
        times.set(key, used);
        return seconds;
      };
      /** What the rule gives: the answer sent with the latest answeredAt, by key. */
      const expected = new Map<string, Sent>();
      let insertedInAll = 0;
      for (let round = 0; round < 8; round += 1) {
        // Odd rounds: both batches send the same answer (same value, same time) where they meet.
        const identical = round % 2 === 1;
        const batchA: Json[] = [];
        const batchB: Json[] = [];
        const sent: [string, Sent][] = [];
        const inA = new Set(keys.filter(() => random.chance(0.5)).map(keyOf));
        for (const key of keys) {
          const name = keyOf(key);
          const a = valueOf(round, 'a', key.index);
          const b = valueOf(round, 'b', key.index);
          let secondsA: number | undefined;
          if (inA.has(name)) {
            secondsA = freshTime(name);
            batchA.push(answerOf(key, a.answer, secondsA));
            sent.push([name, { stored: a.stored, good: a.good, seconds: secondsA }]);
          }
          if (random.chance(0.5)) {
            if (identical && secondsA !== undefined) {
              batchB.push(answerOf(key, a.answer, secondsA));
            } else {
              const secondsB = freshTime(name);
              batchB.push(answerOf(key, b.answer, secondsB));
              sent.push([name, { stored: b.stored, good: b.good, seconds: secondsB }]);
            }
          }
        }
        const fresh = new Set(sent.map(([name]) => name).filter((name) => !expected.has(name)));
        const wires: [Wire, Wire] = [
          round % 3 === 0 ? 'GraphQL' : 'REST',
          round % 2 === 0 ? 'REST' : 'GraphQL',
        ];
        const [countsA, countsB] = await together(sessionId, () =>
          Promise.all([
            send(wires[0], sessionId, random.shuffle(batchA)),
            send(wires[1], sessionId, random.shuffle(batchB)),
          ]),
        );
        for (const [result, batch] of [
          [countsA, batchA],
          [countsB, batchB],
        ] as const) {
          expect(result.received).toBe(batch.length);
          expect(result.inserted + result.updated + result.unchanged).toBe(result.received);
        }
        // Each new key is inserted once, by whichever batch came first.
        expect(countsA.inserted + countsB.inserted).toBe(fresh.size);
        insertedInAll += countsA.inserted + countsB.inserted;
        for (const [name, answer] of sent) {
          const current = expected.get(name);
          if (!current || answer.seconds > current.seconds) expected.set(name, answer);
        }
        const stored = await storedByKey(sessionId);
        expect(stored.size).toBe(expected.size);
        const actual = Object.fromEntries(
          [...stored].map(([name, row]) => [
            name,
            { stored: row.value, good: row.good, at: row.answeredAt.getTime() },
          ]),
        );
        const wanted = Object.fromEntries(
          [...expected].map(([name, answer]) => [
            name,
            { stored: answer.stored, good: answer.good, at: BASE_MS + answer.seconds * 1000 },
          ]),
        );
        expect({ round, rows: actual }).toStrictEqual({ round, rows: wanted });
      }
      expect(expected.size).toBeGreaterThan(150);
      expect(insertedInAll).toBe((await rowsOf(sessionId)).length);
      // The data met both scores of W.
      const scores = new Set([...expected.values()].map((answer) => answer.good));
      expect(scores).toStrictEqual(new Set([true, false]));
    });

    it('the same batch sent twice at once: each answer inserted by one call and unchanged by the other', async () => {
      const sessionId = await newSession('Twice at once', ['W']);
      const batch = keys.map((key) => answerOf(key, valueOf(0, 'a', key.index).answer, key.index));
      const [first, second] = await together(sessionId, () =>
        Promise.all([
          send('REST', sessionId, random.shuffle(batch)),
          send('GraphQL', sessionId, random.shuffle(batch)),
        ]),
      );
      const rows = await rowsOf(sessionId);
      expect(rows).toHaveLength(keys.length);
      expect({
        received: first.received + second.received,
        inserted: first.inserted + second.inserted,
        updated: first.updated + second.updated,
        unchanged: first.unchanged + second.unchanged,
      }).toStrictEqual(counts(2 * keys.length, keys.length, 0, keys.length));
      expect(only(await send('REST', sessionId, batch))).toStrictEqual(
        counts(keys.length, 0, 0, keys.length),
      );
      expect(await rowsOf(sessionId)).toStrictEqual(rows);
    });

    it('the same answeredAt with different values: one of the two per key, as the counts tell', async () => {
      for (let round = 0; round < 4; round += 1) {
        const sessionId = await newSession(`Tie ${round}`, ['W']);
        const batchA: Json[] = [];
        const batchB: Json[] = [];
        const values = new Map<string, { a?: string; b?: string; seconds: number }>();
        for (const key of keys) {
          const inA = random.chance(0.6);
          const inB = random.chance(0.6);
          if (!inA && !inB) continue;
          const seconds = random.int(0, 2_000_000);
          const a = valueOf(round, 'a', key.index);
          const b = valueOf(round, 'b', key.index);
          if (inA) batchA.push(answerOf(key, a.answer, seconds));
          if (inB) batchB.push(answerOf(key, b.answer, seconds));
          values.set(keyOf(key), {
            ...(inA ? { a: a.stored } : {}),
            ...(inB ? { b: b.stored } : {}),
            seconds,
          });
        }
        const wires: [Wire, Wire] = round % 2 === 0 ? ['REST', 'GraphQL'] : ['GraphQL', 'REST'];
        const [countsA, countsB] = await together(sessionId, () =>
          Promise.all([
            send(wires[0], sessionId, random.shuffle(batchA)),
            send(wires[1], sessionId, random.shuffle(batchB)),
          ]),
        );
        const stored = await storedByKey(sessionId);
        expect(stored.size).toBe(values.size);
        let lastA = 0;
        let lastB = 0;
        let both = 0;
        for (const [name, sent] of values) {
          const row = stored.get(name) as Answer;
          expect({ name, at: row.answeredAt.getTime() }).toStrictEqual({
            name,
            at: BASE_MS + sent.seconds * 1000,
          });
          if (sent.a !== undefined && sent.b !== undefined) {
            both += 1;
            expect([sent.a, sent.b]).toContain(row.value);
            // The batch that came second replaced the first one's value.
            if (row.value === sent.a) lastA += 1;
            else lastB += 1;
          } else {
            expect(row.value).toBe(sent.a ?? sent.b);
          }
        }
        expect(both).toBeGreaterThan(0);
        expect({ round, a: only(countsA), b: only(countsB) }).toStrictEqual({
          round,
          a: counts(batchA.length, batchA.length - lastA, lastA, 0),
          b: counts(batchB.length, batchB.length - lastB, lastB, 0),
        });
        expect(countsA.inserted + countsB.inserted).toBe(stored.size);
      }
    });
  });
});

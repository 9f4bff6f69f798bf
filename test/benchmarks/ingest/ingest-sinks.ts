import http from 'node:http';
import mysql from 'mysql2/promise';
import { dialectNamed } from '../../../src/db/sql/dialect';
import { addAttendees, upsertAnswers, type AnswerRow } from '../../../src/db/sql/answers.sql';
import { bumpSessionVersion } from '../../../src/db/sql/session-changes.sql';
import type { SqlStatement } from '../../../src/db/sql/statement-batches';
import { answerFor, type Fixture, type FixtureQuestion } from './ingest-fixture';
import { DB, WEBHOOKS, mysqlUri } from './ingest-settings';

/**
 * Where a writer sends its batches: the service (addAnswers over HTTP), or the database directly
 * through mysql2 with the statements the service builds (the floor), either the upsert alone or
 * the service's whole transaction.
 */

export type Target = 'service' | 'hooks' | 'compare' | 'floor' | 'floorTx';

export const TARGET_LABEL: Record<Target, string> = {
  service: WEBHOOKS ? 'service, webhooks off: addAnswers' : 'service: addAnswers over HTTP',
  hooks: 'service, webhooks on: addAnswers',
  compare: 'compared build: addAnswers over HTTP',
  floor: 'floor: the upsert alone (mysql2)',
  floorTx: "floor: the service's transaction (mysql2)",
};

/** One answer of a batch: who answers which question of which quiz. */
export interface AnswerKey {
  pupil: number;
  userId: number;
  quizId: number;
  question: FixtureQuestion;
}

/**
 * Answer `index` of a session holding every pupil × every question of every quiz, so that
 * consecutive indexes are new rows: `byPupil` takes a pupil's 20 questions in a row (a batch of
 * 500 is 25 pupils × one quiz), `byQuestion` one question of every pupil in a row (a batch of
 * 30 is one question answered by 30 pupils, as in a class).
 */
export function answerKey(f: Fixture, index: number, order: 'byPupil' | 'byQuestion'): AnswerKey {
  const questions = f.quizzes[0]?.questions.length ?? 0;
  const perQuiz = f.pupils.length * questions;
  const wrapped = index % (f.quizzes.length * perQuiz);
  const quiz = f.quizzes[Math.floor(wrapped / perQuiz)] as Fixture['quizzes'][number];
  const rest = wrapped % perQuiz;
  const [pupil, position] =
    order === 'byPupil'
      ? [Math.floor(rest / questions), rest % questions]
      : [rest % f.pupils.length, Math.floor(rest / f.pupils.length)];
  return {
    pupil,
    userId: f.pupils[pupil] as number,
    quizId: quiz.id,
    question: quiz.questions[position] as FixtureQuestion,
  };
}

export interface Sent {
  received: number;
  inserted: number;
}

export interface Sink {
  send(sessionId: number, keys: readonly AnswerKey[]): Promise<Sent>;
  close(): Promise<void>;
}

/** A refused batch: its status and exception type, counted by the run. */
export class RefusedBatch extends Error {}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function post(url: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

export function serviceSink(url: string, f: Fixture): Sink {
  const endpoint = `${url}/addAnswers?${new URLSearchParams({ apiKey: f.apiKey, accessToken: f.token })}`;
  return {
    async send(sessionId, keys) {
      const answers = keys.map((key) => ({
        userId: key.userId,
        quizId: key.quizId,
        questionIndex: key.question.position,
        answer: answerFor(key.question, key.pupil),
      }));
      const response = await post(
        endpoint,
        JSON.stringify({ sessionId: String(sessionId), answers }),
      );
      const body = JSON.parse(response.body) as { type?: string } & Sent;
      if (response.status !== 200) throw new RefusedBatch(`HTTP ${response.status} ${body.type}`);
      return { received: body.received, inserted: body.inserted };
    },
    close: async () => undefined,
  };
}

const mysqlDialect = dialectNamed('mysql');

function rowsOf(keys: readonly AnswerKey[], now: Date): AnswerRow[] {
  return keys.map((key) => ({
    userId: key.userId,
    quizId: key.quizId,
    questionId: key.question.id,
    value: JSON.stringify(answerFor(key.question, key.pupil)),
    good: key.pupil % 3 !== 0,
    answeredAt: now,
  }));
}

/** Counts of a MySQL upsert on a connection without FOUND_ROWS: 1 per insert, 2 per update. */
function inserted(result: unknown, rows: number): number {
  const header = result as { affectedRows: number; info?: string };
  const duplicates = Number(/Duplicates:\s*(\d+)/.exec(header.info ?? '')?.[1] ?? 0);
  return Math.min(rows, header.affectedRows - 2 * duplicates);
}

/**
 * The floor: one mysql2 connection configured as the service's batch connections (several
 * statements per exchange, no FOUND_ROWS, values formatted by mysql2), sending per batch either
 * the upsert the service builds, alone (autocommit), or the service's whole transaction in one
 * exchange: isolation level, START TRANSACTION, the attendees, the upsert, the session's change
 * marker, COMMIT (answer.store.ts).
 */
export async function floorSink(transaction: boolean): Promise<Sink> {
  const connection = await mysql.createConnection({
    uri: mysqlUri(DB),
    timezone: 'Z',
    multipleStatements: true,
    flags: ['-FOUND_ROWS'],
  });
  return {
    async send(sessionId, keys) {
      const now = new Date(Math.floor(Date.now() / 1000) * 1000);
      const rows = rowsOf(keys, now);
      const upserts = upsertAnswers(mysqlDialect, sessionId, rows);
      const statements: SqlStatement[] = transaction
        ? [
            { sql: 'SET TRANSACTION ISOLATION LEVEL READ COMMITTED', params: [] },
            { sql: 'START TRANSACTION', params: [] },
            addAttendees(mysqlDialect, sessionId, [...new Set(rows.map((row) => row.userId))]),
            ...upserts,
            bumpSessionVersion(mysqlDialect, sessionId, now),
            { sql: 'COMMIT', params: [] },
          ]
        : upserts;
      const sql = statements.map((s) => connection.format(s.sql, s.params)).join(';\n');
      const [result] = await connection.query(sql);
      const results = statements.length === 1 ? [result] : (result as unknown[]);
      const upsert = results[transaction ? results.length - 3 : 0];
      return { received: rows.length, inserted: inserted(upsert, rows.length) };
    },
    close: () => connection.end(),
  };
}

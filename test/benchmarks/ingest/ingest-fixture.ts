import mysql from 'mysql2/promise';
import { loadConfig } from '../../../src/config/config';
import { generateData } from '../../../src/data/generate/synthetic-data';
import { loadData } from '../../../src/data/import/bulk-loader';
import { openDatabase } from '../../../src/db/data-source';
import { createTestApiKey, createTestToken } from '../../helpers/credentials';
import {
  DB,
  GENERATE,
  PUPILS_PER_SESSION,
  QUIZZES_PER_SESSION,
  SERVER,
  log,
  mysqlUri,
} from './ingest-settings';

/** The benchmark database: generated users and quizzes, the teacher who writes, the sessions. */

export interface FixtureQuestion {
  id: number;
  position: number;
  type: string;
  /** Propositions of a multiple-choice question. */
  count: number;
}

export interface Fixture {
  apiKey: string;
  token: string;
  teacherId: number;
  pupils: number[];
  quizzes: { id: number; questions: FixtureQuestion[] }[];
}

/** A well-formed answer of pupil `pupil` to a question: varied, some good and some not. */
export function answerFor(question: FixtureQuestion, pupil: number): unknown {
  switch (question.type) {
    case 'MultipleChoicesOneGoodAnswer':
      return pupil % question.count;
    case 'MultipleChoicesSeveralGoodAnswers':
      return [pupil % question.count];
    case 'TrueFalse':
      return pupil % 2 === 0;
    case 'FreeAnswerText':
      return pupil % 3 === 0 ? 'no idea' : `answer ${pupil % 7}`;
    default:
      return pupil % 50;
  }
}

/**
 * A fresh database: migrated, generated data loaded, the teacher's class (a group of the pupils),
 * an API key and the teacher's token.
 */
export async function prepareFixture(): Promise<Fixture> {
  const admin = await mysql.createConnection({ uri: mysqlUri() });
  await admin.query(`DROP DATABASE IF EXISTS ${DB}`);
  await admin.query(`CREATE DATABASE ${DB} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  const config = loadConfig({ DATABASE_URL: `${SERVER}/${DB}`, NODE_ENV: 'test' });
  const dataSource = await openDatabase(config.database);
  try {
    const started = Date.now();
    await loadData(dataSource, generateData(GENERATE).source);
    log(`${DB}: generated and loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const query = async <T>(sql: string, params: unknown[] = []) =>
      (await dataSource.query(sql, params)) as T[];
    const [{ id: teacherId }] = await query<{ id: number }>(
      'SELECT MIN(id) AS id FROM users WHERE can_create_private_quizzes = 1',
    );
    const pupils = (
      await query<{ id: number }>(
        `SELECT id FROM users WHERE can_create_private_quizzes = 0 ORDER BY id LIMIT ${PUPILS_PER_SESSION}`,
      )
    ).map((row) => Number(row.id));
    // Quizzes the teacher may play: public ones and their own.
    const quizIds = (
      await query<{ id: number }>(
        `SELECT id FROM quizzes WHERE (visibility = 'public' OR author_id = ?) AND nb_questions = ?
          ORDER BY id LIMIT ${QUIZZES_PER_SESSION}`,
        [teacherId, GENERATE.questions],
      )
    ).map((row) => Number(row.id));
    if (pupils.length < PUPILS_PER_SESSION || quizIds.length < QUIZZES_PER_SESSION) {
      throw new Error(
        `the generated data has ${pupils.length} pupils and ${quizIds.length} quizzes`,
      );
    }
    await makeClass(dataSource, Number(teacherId), pupils);
    const rows = await query<{
      id: number;
      quiz_id: number;
      position: number;
      type: string;
      propositions: string | null;
    }>(
      `SELECT id, quiz_id, position, type, propositions FROM questions
        WHERE quiz_id IN (${quizIds.join(',')}) ORDER BY quiz_id, position`,
    );
    const quizzes = quizIds.map((id) => ({
      id,
      questions: rows
        .filter((row) => Number(row.quiz_id) === id)
        .map((row) => ({
          id: Number(row.id),
          position: Number(row.position),
          type: row.type,
          count: row.propositions ? (JSON.parse(row.propositions) as unknown[]).length : 0,
        })),
    }));
    const key = await createTestApiKey(dataSource, 'localhost');
    const token = await createTestToken(dataSource, Number(teacherId), key.id);
    return { apiKey: key.secret, token, teacherId: Number(teacherId), pupils, quizzes };
  } finally {
    await dataSource.destroy();
  }
}

/**
 * A group of the teacher holding the pupils: an owner names as attendees, and writes answers
 * for, only users known to them (contract.md §4, §9), as a teacher knows their class. A build
 * without that rule ignores the group.
 */
async function makeClass(
  dataSource: Awaited<ReturnType<typeof openDatabase>>,
  teacherId: number,
  pupils: readonly number[],
): Promise<void> {
  const inserted = (await dataSource.query(
    'INSERT INTO user_groups (name, owner_id) VALUES (?, ?)',
    ['ingest bench class', teacherId],
  )) as { insertId: number };
  await dataSource.query(
    `INSERT INTO user_group_members (group_id, user_id)
     VALUES ${pupils.map(() => '(?, ?)').join(', ')}`,
    pupils.flatMap((pupil) => [inserted.insertId, pupil]),
  );
}

/**
 * A session of the teacher (addSession), by default playing every quiz of the fixture with every
 * pupil attending.
 */
export async function makeSession(
  url: string,
  f: Fixture,
  title: string,
  { quizIds = f.quizzes.map((quiz) => quiz.id), attendeeIds = f.pupils } = {},
): Promise<number> {
  const query = new URLSearchParams({ apiKey: f.apiKey, accessToken: f.token });
  const response = await fetch(`${url}/addSession?${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ session: { title, quizIds, attendeeIds } }),
  });
  const body = (await response.json()) as { id?: string };
  if (response.status !== 200 || !body.id) {
    throw new Error(`addSession ${response.status}: ${JSON.stringify(body)}`);
  }
  return Number(body.id);
}

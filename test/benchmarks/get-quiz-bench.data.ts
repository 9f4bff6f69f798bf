/** The benchmark database: generated users and quizzes, an API key for localhost, a quiz to read. */
import mysql from 'mysql2/promise';
import { loadConfig } from '../../src/config/config';
import { generateData } from '../../src/data/generate/synthetic-data';
import { loadData } from '../../src/data/import/bulk-loader';
import { openDatabase } from '../../src/db/data-source';
import { createTestApiKey } from '../helpers/credentials';
import { mysqlUri, SERVER } from './results-bench.config';
import { DB } from './get-quiz-bench.config';

/** Drops and generates the database again (a few seconds): every run starts from the same data. */
export async function prepareDatabase(): Promise<{ apiKey: string; quizId: number }> {
  const admin = await mysql.createConnection({ uri: mysqlUri() });
  await admin.query(`DROP DATABASE IF EXISTS ${DB}`);
  await admin.query(`CREATE DATABASE ${DB} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  return seedGetQuizData(`${SERVER}/${DB}`);
}

/**
 * Fills the empty database at `url` (migrated on open): 1,000 users, 50 quizzes of 10 questions,
 * 20 sessions, seed 1; an API key for localhost; the first public quiz of 10 questions.
 */
export async function seedGetQuizData(url: string): Promise<{ apiKey: string; quizId: number }> {
  const config = loadConfig({ DATABASE_URL: url, NODE_ENV: 'test' });
  const dataSource = await openDatabase(config.database);
  try {
    const { source } = generateData({
      users: 1000,
      quizzes: 50,
      questions: 10,
      sessions: 20,
      participation: 0.2,
      seed: 1,
    });
    await loadData(dataSource, source);
    const key = await createTestApiKey(dataSource, 'localhost');
    const [{ id: quizId }] = (await dataSource.query(
      "SELECT id FROM quizzes WHERE visibility = 'public' AND nb_questions = 10 ORDER BY id LIMIT 1",
    )) as { id: number }[];
    return { apiKey: key.secret, quizId };
  } finally {
    await dataSource.destroy();
  }
}

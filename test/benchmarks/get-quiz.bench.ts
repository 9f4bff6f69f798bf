/**
 * getQuiz throughput: REST and GraphQL against a bare Express + mysql2 handler doing the same
 * reads (the floor). Run with `npm run bench:get-quiz`; needs MariaDB on 127.0.0.1:3306.
 *
 * Data: generated, 1,000 users and 50 quizzes of 10 questions. Load: autocannon in its own
 * process, 10 connections, BENCH_SECONDS (default 10) per target after a short warm-up.
 */
import 'reflect-metadata';
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import express from 'express';
import mysql from 'mysql2/promise';
import { createAppDeps } from '../../src/context/request-context';
import { startServer } from '../../src/app/server';
import { loadConfig } from '../../src/config/config';
import { generateData } from '../../src/data/generate/synthetic-data';
import { loadData } from '../../src/data/import/bulk-loader';
import { openDatabase } from '../../src/db/data-source';
import { createLogger } from '../../src/observability/logger';
import { createApiKey } from '../../src/services/api-keys/api-key.service';
import { operatorContext } from '../../src/context/request-context';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'mariadb://root@127.0.0.1:3306';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const DB = 'quiz_bench_get_quiz';
const run = promisify(execFile);

interface Result {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function autocannon(name: string, url: string, options: string[] = []): Promise<Result> {
  const bin = path.resolve(__dirname, '../../node_modules/.bin/autocannon');
  await run(bin, ['-c', '10', '-d', '2', ...options, url]); // warm-up
  const { stdout } = await run(
    bin,
    ['-c', '10', '-d', String(SECONDS), '--json', ...options, url],
    {
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const json = JSON.parse(stdout) as {
    requests: { average: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
  };
  return {
    name,
    rps: json.requests.average,
    p50: json.latency.p50,
    p99: json.latency.p99,
    errors: json.non2xx + json.errors,
  };
}

/** The floor: the same rows read with mysql2 and sent as JSON, with no framework around them. */
async function startFloor(url: string): Promise<{ url: string; close: () => Promise<void> }> {
  const pool = mysql.createPool({ uri: url, connectionLimit: 10, timezone: 'Z' });
  const app = express();
  app.get('/quiz', async (req, res) => {
    const id = Number(req.query.quizId);
    const [[quiz], [tags], [questions]] = await Promise.all([
      pool.query<mysql.RowDataPacket[]>(
        `SELECT q.*, u.first_name, u.last_name, u.picture_url FROM quizzes q JOIN users u ON u.id = q.author_id WHERE q.id = ?`,
        [id],
      ),
      pool.query<mysql.RowDataPacket[]>(
        'SELECT tag FROM quiz_tags WHERE quiz_id = ? ORDER BY position',
        [id],
      ),
      pool.query<mysql.RowDataPacket[]>(
        'SELECT * FROM questions WHERE quiz_id = ? ORDER BY position',
        [id],
      ),
    ]);
    res.json({ ...quiz[0], tags: tags.map((t) => t.tag), questions });
  });
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await pool.end();
    },
  };
}

async function main(): Promise<void> {
  const admin = await mysql.createConnection({ uri: SERVER });
  await admin.query(`DROP DATABASE IF EXISTS ${DB}`);
  await admin.query(`CREATE DATABASE ${DB} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  const url = `${SERVER}/${DB}`;
  const config = loadConfig({
    DATABASE_URL: url,
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    PORT: '0',
    COOKIE_SECRET: 'x'.repeat(32),
    // Every request is still counted against the key; the budget is only too large to be spent.
    RATE_LIMIT_POINTS: '1000000000',
  });
  const dataSource = await openDatabase(config.database);
  const { source } = generateData({
    users: 1000,
    quizzes: 50,
    questions: 10,
    sessions: 20,
    participation: 0.2,
    seed: 1,
  });
  await loadData(dataSource, source);
  const deps = createAppDeps(config, dataSource, createLogger('silent'));
  const { secret } = await createApiKey(operatorContext(deps, 'bench'), {
    host: 'localhost',
    label: 'bench',
  });
  const [{ id: quizId }] = (await dataSource.query(
    "SELECT id FROM quizzes WHERE visibility = 'public' AND nb_questions = 10 ORDER BY id LIMIT 1",
  )) as { id: number }[];

  const app = await startServer(deps);
  const floor = await startFloor(url.replace(/^mariadb:/, 'mysql:'));
  const query = `query ($id: ID!) { getQuiz(quizId: $id) { id title visibility survey tags creationDate lastChangeDate nbQuestions author { id firstName lastName pictureURL } questions { position type title media { type url } ... on MultipleChoicesOneGoodAnswerQuestion { propositions } ... on MultipleChoicesSeveralGoodAnswersQuestion { propositions } ... on FreeAnswerTextQuestion { tolerance caseSensitive } ... on FreeAnswerNumberQuestion { tolerance } } } }`;
  const results = [
    await autocannon('floor (Express + mysql2)', `${floor.url}/quiz?quizId=${quizId}`),
    await autocannon('REST getQuiz', `${app.url}/getQuiz?quizId=${quizId}&apiKey=${secret}`),
    await autocannon('GraphQL getQuiz', `${app.url}/graphql?apiKey=${secret}`, [
      '-m',
      'POST',
      '-H',
      'content-type=application/json',
      '-b',
      JSON.stringify({ query, variables: { id: String(quizId) } }),
    ]),
  ];
  await floor.close();
  await app.close();

  const base = results[0];
  process.stdout.write(
    `getQuiz, quiz ${quizId} (10 questions), 10 connections, ${SECONDS} s each, MariaDB\n`,
  );
  process.stdout.write(
    'target                      req/s    p50 ms  p99 ms  errors  req/s vs floor\n',
  );
  for (const r of results) {
    process.stdout.write(
      `${r.name.padEnd(26)} ${r.rps.toFixed(0).padStart(7)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(7)} ${String(r.errors).padStart(7)}  ${(r.rps / base.rps).toFixed(2)}x\n`,
    );
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

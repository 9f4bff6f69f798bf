/**
 * A person's export in constant memory (contract.md §14.3): exportPersonalData over REST for a
 * pupil with 10,000 answers, then one with 100,000, from the service running in a process of its
 * own, its RSS sampled during each export. Run with `npm run bench:export`; needs MariaDB on
 * 127.0.0.1:3306 (BENCH_DATABASE_URL).
 *
 * - Database quiz_export_bench, dropped and made again: a teacher, two pupils, one quiz of 100
 *   questions, 1,000 sessions of the teacher that both pupils attend; the first pupil answered
 *   every question of the first 100 sessions (10,000 answers), the second of all of them
 *   (100,000). An API key bound to localhost and a token of each pupil.
 * - The service: the current sources compiled by tsc into a temporary folder (BENCH_SERVICE_JS
 *   runs a build made elsewhere), production mode, as results-bench.process.ts starts it.
 * - Per size: one export of the other size's pupil first (warms the JIT and the pools), then the
 *   baseline (VmRSS once the service is idle), then the export read as it arrives; the peak is
 *   VmHWM over the export (reset before it through clear_refs, where the kernel allows it) and
 *   VmRSS sampled every 20 ms. Prints peak − baseline, the time to the last byte, the size, and
 *   checks that the document parses and holds every answer.
 * - Exit code 1 when an export fails or misses answers.
 */
import 'reflect-metadata';
import mysql from 'mysql2/promise';
import { loadConfig } from '../../src/config/config';
import type { ImportAnswer, ImportSource } from '../../src/data/import/import-document';
import { loadData } from '../../src/data/import/bulk-loader';
import { openDatabase } from '../../src/db/data-source';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { SERVER, log } from './results-bench.config';
import { buildService, startService, type Service } from './results-bench.process';

const DB = 'quiz_export_bench';
const QUESTIONS = 100;
const SESSIONS = 1000;
const SIZES = [
  { ref: 'p10k', sessions: 100 },
  { ref: 'p100k', sessions: SESSIONS },
] as const;

function mysqlUri(database?: string): string {
  const url = new URL(SERVER.replace(/^mariadb:/, 'mysql:'));
  if (database) url.pathname = `/${database}`;
  return url.toString();
}

function* answers(): Generator<ImportAnswer> {
  for (const { ref, sessions } of SIZES) {
    for (let s = 0; s < sessions; s += 1) {
      for (let question = 0; question < QUESTIONS; question += 1) {
        const second = String((question * 7) % 60).padStart(2, '0');
        yield {
          session: `S${s}`,
          user: ref,
          quiz: 'q',
          question,
          answer: question % 2 === 0 ? s % 3 !== 0 : `answer ${(s + question) % 11}`,
          answeredAt: `2026-09-${String(1 + (s % 28)).padStart(2, '0')} 10:${String(question % 60).padStart(2, '0')}:${second}`,
        };
      }
    }
  }
}

function world(): ImportSource {
  const user = (ref: string, first: string) => ({
    ref,
    email: `${ref}@export-bench.example`,
    firstName: first,
    lastName: 'Bench',
  });
  const total = SIZES.reduce((sum, size) => sum + size.sessions * QUESTIONS, 0);
  return {
    users: [user('t', 'Teacher'), user('p10k', 'Ten'), user('p100k', 'Hundred')],
    quizzes: [
      {
        ref: 'q',
        author: 't',
        title: 'A long quiz',
        visibility: 'public',
        survey: false,
        tags: ['bench', 'export'],
        questions: Array.from({ length: QUESTIONS }, (_, i) =>
          i % 2 === 0
            ? { title: `Question ${i}`, type: 'TrueFalse', goodAnswer: true }
            : { title: `Question ${i}`, type: 'FreeAnswerText', goodAnswer: 'answer 3' },
        ),
      },
    ],
    sessions: Array.from({ length: SESSIONS }, (_, s) => ({
      ref: `S${s}`,
      owner: 't',
      title: `Session ${s}`,
      startDate: `2026-09-${String(1 + (s % 28)).padStart(2, '0')} 09:00:00`,
      quizzes: ['q'],
      attendees: [{ user: 'p10k' }, { user: 'p100k' }],
    })),
    answers: Object.assign(answers(), { length: total }),
  };
}

async function prepare(): Promise<{ apiKey: string; tokens: Record<string, string> }> {
  const admin = await mysql.createConnection({ uri: mysqlUri() });
  await admin.query(`DROP DATABASE IF EXISTS ${DB}`);
  await admin.query(`CREATE DATABASE ${DB} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  const config = loadConfig({ DATABASE_URL: `${SERVER}/${DB}`, NODE_ENV: 'test' });
  const dataSource = await openDatabase(config.database);
  try {
    const started = Date.now();
    const ids = await loadData(dataSource, world());
    log(`${DB}: loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const key = await createTestApiKey(dataSource, 'localhost');
    const tokens: Record<string, string> = {};
    for (const { ref } of SIZES) {
      tokens[ref] = await createTestToken(dataSource, Number(ids.users[ref]), key.id);
    }
    return { apiKey: key.secret, tokens };
  } finally {
    await dataSource.destroy();
  }
}

interface Measure {
  ms: number;
  bytes: number;
  answers: number;
}

/** One export, read as it arrives; the text is kept only to check it (this process, not the service). */
async function exportOnce(service: Service, apiKey: string, token: string): Promise<Measure> {
  const started = performance.now();
  const query = new URLSearchParams({ apiKey, accessToken: token });
  const res = await fetch(`${service.url}/exportPersonalData?${query}`);
  if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}`);
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    text += decoder.decode(value, { stream: true });
  }
  const ms = performance.now() - started;
  const doc = JSON.parse(text) as { answers: unknown[] };
  return { ms, bytes, answers: doc.answers.length };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 1500));

async function main(): Promise<number> {
  const fixture = await prepare();
  const mainJs = process.env.BENCH_SERVICE_JS ?? (await buildService());
  const service = await startService(mainJs, DB);
  let failed = false;
  try {
    const rows: string[] = [];
    for (const [index, size] of SIZES.entries()) {
      const other = SIZES[(index + 1) % SIZES.length];
      await exportOnce(service, fixture.apiKey, fixture.tokens[other.ref] as string);
      await settle();
      const baseline = service.rss.currentMb();
      service.rss.startWindow();
      const measure = await exportOnce(service, fixture.apiKey, fixture.tokens[size.ref] as string);
      const peak = service.rss.windowPeakMb();
      const expected = size.sessions * QUESTIONS;
      if (measure.answers !== expected) failed = true;
      rows.push(
        [
          `${expected.toLocaleString('en')} answers`.padEnd(18),
          `baseline ${baseline.toFixed(1)} MB`.padEnd(20),
          `peak ${peak.mb.toFixed(1)} MB${peak.exact ? '' : ' (sampled)'}`.padEnd(20),
          `peak over baseline ${(peak.mb - baseline).toFixed(1)} MB`.padEnd(32),
          `${(measure.ms / 1000).toFixed(2)} s`.padEnd(9),
          `${(measure.bytes / 1e6).toFixed(1)} MB sent`.padEnd(15),
          measure.answers === expected ? 'all answers' : `${measure.answers} answers (FAIL)`,
        ].join(' '),
      );
    }
    process.stdout.write(`exportPersonalData over REST, service RSS:\n${rows.join('\n')}\n`);
  } catch (error) {
    failed = true;
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  } finally {
    await service.stop();
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  },
);

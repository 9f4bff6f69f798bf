import os from 'node:os';
import path from 'node:path';

/** What a load run is set to: the environment's BENCH_* variables, read once (see load.bench.ts). */

export const SERVER = process.env.BENCH_DATABASE_URL ?? 'mariadb://root@127.0.0.1:3306';
export const DB = 'quiz_load_bench';
export const KEEP_DB = process.env.BENCH_KEEP_DB === '1';
export const DURATION = Number(process.env.BENCH_DURATION ?? 60);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
export const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 5);
export const ROOT = path.resolve(__dirname, '../../..');
export const BUILD_DIR = path.join(os.tmpdir(), 'quiz-load-bench-build');
export const GENERATE =
  '--users 2000 --quizzes 100 --questions 10 --sessions 200 --participation 5%';
export const TEACHER = { email: 'user1@generated.test', password: 'load-bench-password' };
export const RATE_LIMIT_POINTS = '100000000';
export const mysqlUri = (db = '') => `${SERVER.replace(/^mariadb:/, 'mysql:')}${db && `/${db}`}`;
export const log = (text: string) => process.stderr.write(`${text}\n`);
export const out = (text: string) => process.stdout.write(`${text}\n`);

/** The options of the results benchmark (environment variables), its tiers and shapes, and helpers. */
import os from 'node:os';
import path from 'node:path';
import type { GenerateOptions } from '../../src/data/generate/synthetic-data';

export const SERVER = process.env.BENCH_DATABASE_URL ?? 'mariadb://root@127.0.0.1:3306';
export const REUSE = process.env.BENCH_REUSE === '1';
export const RUNS = Number(process.env.BENCH_RUNS ?? 9);
/** Requests per transport that warm the service (JIT, pools) before anything is timed. */
export const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 40);
export const ONLY_TIERS = (process.env.BENCH_TIERS ?? 'S,M').split(',').map((t) => t.trim());
/**
 * Only these cells of each tier (BENCH_CELLS=1000x10 or 1000x10:detailed, comma-separated):
 * a side-by-side of one cell without the whole grid. All cells when absent.
 */
export const ONLY_CELLS = (process.env.BENCH_CELLS ?? '')
  .split(',')
  .map((cell) => cell.trim())
  .filter(Boolean);

/** Whether the cell of `users` × `quizzes` in `shape` is measured (see ONLY_CELLS). */
export function cellSelected(users: number, quizzes: number, shape: string): boolean {
  return (
    ONLY_CELLS.length === 0 ||
    ONLY_CELLS.some((cell) => {
      const [size, only] = cell.split(':');
      return size === `${users}x${quizzes}` && (only === undefined || only === shape);
    })
  );
}
/** A second build (of an earlier commit, say) whose requests interleave with this build's. */
export const COMPARE_JS = process.env.BENCH_COMPARE_JS;
/**
 * Aggregated requests of an anonymous requester too (BENCH_ANONYMOUS=1): the API key alone, on
 * copies of the sets owned by the key. Information only: under the requester scope they read no
 * answer, so against a build without it they compare different work.
 */
export const ANONYMOUS = process.env.BENCH_ANONYMOUS === '1';
/** The largest ratio of a tier M median to the compared build's counted as "the same". */
export const COMPARE_RATIO = Number(process.env.BENCH_COMPARE_RATIO ?? 1.03);
/** The throughput row of tier M (BENCH_THROUGHPUT=0 skips it). */
export const THROUGHPUT = process.env.BENCH_THROUGHPUT !== '0';
export const THROUGHPUT_SECONDS = Number(process.env.BENCH_THROUGHPUT_SECONDS ?? 10);
export const THROUGHPUT_ROUNDS = Number(process.env.BENCH_THROUGHPUT_ROUNDS ?? 3);
export const THROUGHPUT_CONNECTIONS = 32;
export const ROOT = path.resolve(__dirname, '../..');
export const BUILD_DIR = path.join(os.tmpdir(), 'quiz-results-bench-build');
export const PAGE_SIZE = 50;
export const RESULT_TYPES = ['nbGoodAnswers', 'percentile'] as const;
export const FAR_FUTURE = '2099-12-31 00:00:00';

export interface Tier {
  name: 'S' | 'M' | 'L';
  db: string;
  generate: GenerateOptions;
  userSizes: number[];
  quizSizes: number[];
}

export const TIERS: Tier[] = [
  {
    name: 'S',
    db: 'quiz_bench_tier_s',
    generate: {
      users: 1000,
      quizzes: 50,
      questions: 20,
      sessions: 100,
      participation: 0.2,
      seed: 1,
    },
    userSizes: [100, 1000],
    quizSizes: [10, 50],
  },
  {
    name: 'M',
    db: 'quiz_bench_tier_m',
    generate: {
      users: 10000,
      quizzes: 500,
      questions: 20,
      sessions: 1000,
      participation: 0.01,
      seed: 1,
    },
    userSizes: [100, 1000, 10000],
    quizSizes: [10, 100],
  },
  {
    // Opt-in (BENCH_TIERS=S,M,L): its generation takes minutes. Participation for ~10M answers:
    // (100,000 - 3,333 teachers) pupils × 2,000 quizzes × 0.0026 × 20 questions = 10.05M expected
    // (10,077,020 with seed 1). Sessions of ~50 attempts each, as at tier M.
    name: 'L',
    db: 'quiz_bench_tier_l',
    generate: {
      users: 100000,
      quizzes: 2000,
      questions: 20,
      sessions: 10000,
      participation: 0.0026,
      seed: 1,
    },
    userSizes: [100, 1000, 10000],
    quizSizes: [10, 100],
  },
];

export type Shape = 'detailed' | 'byUser' | 'byQuiz';
export const SHAPES: Shape[] = ['detailed', 'byUser', 'byQuiz'];
export const SHAPE_LABEL: Record<Shape, string> = {
  detailed: 'detailed',
  byUser: 'avg by user',
  byQuiz: 'avg by quiz',
};

export type Transport =
  | 'floor'
  | 'REST'
  | 'GraphQL'
  | 'stmt'
  | 'compareREST'
  | 'compareGraphQL'
  | 'compareStmt'
  | 'anonREST'
  | 'compareAnonREST';
export const TRANSPORT_LABEL: Record<Transport, string> = {
  compareREST: 'REST (compare)',
  compareGraphQL: 'GraphQL (compare)',
  compareStmt: '(compare stmt)',
  anonREST: 'REST anonymous',
  compareAnonREST: 'REST anon (cmp)',
  floor: 'floor SQL',
  REST: 'REST',
  GraphQL: 'GraphQL',
  stmt: '(service stmt)',
};

export interface Row {
  tier: string;
  users: number;
  quizzes: number;
  shape: Shape;
  transport: Transport;
  medianMs: number;
  ratio: number;
  /** Rows of the case's results (the floor's): what a cell's growth from tier to tier depends on. */
  resultRows: number;
  /** Every run's time, in run order: run i of each target ran within the same round. */
  runsMs?: number[];
}

export const log = (text: string) => process.stderr.write(`${text}\n`);
export const out = (text: string) => process.stdout.write(`${text}\n`);

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

export function mysqlUri(db?: string): string {
  return `${SERVER.replace(/^mariadb:/, 'mysql:')}${db ? `/${db}` : ''}`;
}

export interface Case {
  userSetId: number;
  quizSetId: number;
  shape: Shape;
}

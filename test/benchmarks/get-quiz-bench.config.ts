/** The options of the getQuiz benchmark (environment variables) and its help. */
import os from 'node:os';
import path from 'node:path';

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Load per target and connection count before the first round (JIT, pools, caches). */
export const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 3);
/** autocannon's warm-up before each timed run: fresh connections settle, and what the previous target still had queued drains. */
export const RUN_WARM_UP_SECONDS = 1;
export const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '10,100')
  .split(',')
  .map((c) => Number(c.trim()));
export const SERVICE_JS = process.env.BENCH_SERVICE_JS;
export const COMPARE_JS = process.env.BENCH_COMPARE_JS;
/** The service reads DATABASE_POOL_SIZE (default 10) from the environment it inherits: the floor gets the same. */
export const POOL_SIZE = Number(process.env.DATABASE_POOL_SIZE ?? 10);
export const DB = 'quiz_bench_get_quiz';
/** Its own folder: the results benchmark builds into another, so both can run at once. */
export const BUILD_DIR = path.join(os.tmpdir(), 'quiz-get-quiz-bench-build');

export const GRAPHQL_QUERY = `query ($id: ID!) { getQuiz(quizId: $id) { id title visibility survey tags creationDate lastChangeDate nbQuestions author { id firstName lastName pictureURL } questions { position type title media { type url } ... on MultipleChoicesOneGoodAnswerQuestion { propositions } ... on MultipleChoicesSeveralGoodAnswersQuestion { propositions } ... on FreeAnswerTextQuestion { tolerance caseSensitive } ... on FreeAnswerNumberQuestion { tolerance } } } }`;

export const HELP = `npm run bench:get-quiz  (options are environment variables)
  BENCH_DATABASE_URL     MariaDB server (default mariadb://root@127.0.0.1:3306)
  BENCH_CONNECTIONS      autocannon connection counts (default 10,100)
  BENCH_ROUNDS           rounds; each runs every target at every connection count (default 5)
  BENCH_SECONDS          seconds per timed run (default 5)
  BENCH_WARM_UP_SECONDS  warm-up per target and connection count before round 1 (default 3)
  DATABASE_POOL_SIZE     the service's pool (default 10), given to the floor too
  BENCH_SERVICE_JS       a service built elsewhere, instead of compiling the sources
  BENCH_COMPARE_JS       a second build, measured interleaved as "REST (compare)", "GraphQL (compare)"`;

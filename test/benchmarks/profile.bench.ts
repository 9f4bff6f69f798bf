/**
 * Where a request's time goes: the service (compiled, in a child process started with
 * `node --cpu-prof`) under load, one profile per scenario, summarised by layer (TypeORM
 * hydration, logging, Express, Apollo and graphql-js, JSON, the key and token lookup, the
 * rate-limit charge, mysql2) and by frame. Run with `npm run bench:profile`; needs MariaDB.
 *
 * - Data: tier S of the results benchmark (quiz_bench_tier_s; BENCH_REUSE=1 keeps it).
 * - Scenarios: getQuiz (a public quiz of 20 questions) on REST and GraphQL, and a small getResults
 *   (100 users × 10 quizzes, average by user) on REST and GraphQL; autocannon, PROFILE_CONNECTIONS
 *   (10) connections, 3 s of warm-up then PROFILE_SECONDS (10) s profiled. Only the samples of the
 *   profiled seconds are summarised (the profile's clock is the monotonic clock of process.hrtime).
 * - PROFILE_ONLY=getQuiz-REST,... picks scenarios; PROFILE_DIR keeps the .cpuprofile files (for
 *   Chrome DevTools or speedscope), else a temporary folder.
 */
import 'reflect-metadata';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import { log, mysqlUri, out, TIERS } from './results-bench.config';
import { buildService, startService } from './results-bench.process';
import { GRAPHQL_QUERY, aggregationOf } from './results-bench.requests';
import { prepareTier } from './results-bench.tiers';
import { formatSummary, summariseProfile } from './profile-summary';

const run = promisify(execFile);
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.PROFILE_CONNECTIONS ?? 10);
const ONLY = process.env.PROFILE_ONLY?.split(',').map((name) => name.trim());
const AUTOCANNON = path.resolve(__dirname, '../../node_modules/.bin/autocannon');

const GET_QUIZ = `query ($id: ID!) { getQuiz(quizId: $id) { id title visibility survey tags creationDate lastChangeDate nbQuestions author { id firstName lastName pictureURL } questions { position type title media { type url } ... on MultipleChoicesOneGoodAnswerQuestion { propositions } ... on MultipleChoicesSeveralGoodAnswersQuestion { propositions } ... on FreeAnswerTextQuestion { tolerance caseSensitive } ... on FreeAnswerNumberQuestion { tolerance } } } }`;

interface Scenario {
  name: string;
  /** autocannon's arguments after the URL's base. */
  request: (base: string) => string[];
}

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

async function load(args: string[], seconds: number): Promise<{ rps: number; errors: number }> {
  const { stdout } = await run(
    AUTOCANNON,
    ['-c', String(CONNECTIONS), '-d', String(seconds), '--json', ...args],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const json = JSON.parse(stdout) as {
    requests: { average: number };
    non2xx: number;
    errors: number;
  };
  return { rps: json.requests.average, errors: json.non2xx + json.errors };
}

async function main(): Promise<void> {
  if (process.argv.includes('--help')) {
    out(fs.readFileSync(__filename, 'utf8').split('*/')[0] as string);
    return;
  }
  const tier = TIERS.find((t) => t.name === 'S');
  if (!tier) throw new Error('tier S is not defined');
  const p = await prepareTier(tier);
  const conn = await mysql.createConnection({ uri: mysqlUri(tier.db) });
  const [[quiz]] = await conn.query<mysql.RowDataPacket[]>(
    "SELECT id FROM quizzes WHERE visibility = 'public' AND nb_questions = 20 ORDER BY id LIMIT 1",
  );
  await conn.end();
  const quizId = String(quiz?.id);
  const userSetId = String(p.userSets.get(100));
  const quizSetId = String(p.quizSets.get(10));
  const aggregation = aggregationOf('byUser');
  const resultsQuery = new URLSearchParams({
    apiKey: p.apiKey,
    accessToken: p.token,
    userSetId,
    quizSetId,
    resultTypes: 'nbGoodAnswers,percentile',
    numberOfItemsPerPage: '50',
    aggregationFunctions: 'average',
    groupBy: 'user',
  });
  const graphqlPost = (body: object) => [
    '-m',
    'POST',
    '-H',
    'content-type=application/json',
    '-H',
    `x-api-key=${p.apiKey}`,
    '-H',
    `authorization=Bearer ${p.token}`,
    '-b',
    JSON.stringify(body),
  ];
  const all: Scenario[] = [
    {
      name: 'getQuiz-REST',
      request: (base) => [`${base}/getQuiz?quizId=${quizId}&apiKey=${p.apiKey}`],
    },
    {
      name: 'getQuiz-GraphQL',
      request: (base) => [
        `${base}/graphql`,
        ...graphqlPost({ query: GET_QUIZ, variables: { id: quizId } }),
      ],
    },
    {
      name: 'getResults-REST',
      request: (base) => [`${base}/getResults?${resultsQuery.toString()}`],
    },
    {
      name: 'getResults-GraphQL',
      request: (base) => [
        `${base}/graphql`,
        ...graphqlPost({
          query: GRAPHQL_QUERY,
          variables: {
            u: userSetId,
            q: quizSetId,
            rt: ['nbGoodAnswers', 'percentile'],
            af: aggregation?.functions,
            gb: aggregation?.groupBy,
            n: 50,
          },
        }),
      ],
    },
  ];
  const scenarios = all.filter((s) => !ONLY || ONLY.includes(s.name));

  const mainJs = await buildService(path.join(os.tmpdir(), 'quiz-profile-bench-build'));
  const dir = process.env.PROFILE_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-profile-'));
  fs.mkdirSync(dir, { recursive: true });
  for (const scenario of scenarios) {
    const scenarioDir = path.join(dir, scenario.name);
    fs.rmSync(scenarioDir, { recursive: true, force: true });
    const service = await startService(mainJs, tier.db, [
      '--cpu-prof',
      `--cpu-prof-dir=${scenarioDir}`,
    ]);
    const args = scenario.request(service.url);
    await load(args, 3);
    const fromUs = nowUs();
    const result = await load(args, SECONDS);
    const toUs = nowUs();
    await service.stop();
    const [file] = fs.readdirSync(scenarioDir).filter((name) => name.endsWith('.cpuprofile'));
    if (!file) throw new Error(`no profile written for ${scenario.name}`);
    const summary = summariseProfile(path.join(scenarioDir, file), { fromUs, toUs });
    log(`${scenario.name}: ${result.rps.toFixed(0)} req/s, ${result.errors} errors`);
    out(
      formatSummary(
        `${scenario.name}: ${result.rps.toFixed(0)} req/s at ${CONNECTIONS} connections, ${result.errors} errors (profile ${path.join(scenarioDir, file)})`,
        summary,
      ),
    );
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

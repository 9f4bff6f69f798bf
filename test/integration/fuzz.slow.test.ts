import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { buildSchema } from 'graphql';
import { REST_OPERATIONS } from '../../src/api/rest/rest.router';
import { loadData } from '../../src/data/import/bulk-loader';
import type { ImportDocument } from '../../src/data/import/import-document';
import { openDatabase } from '../../src/db/data-source';
import { normalizeQuestionType } from '../../src/domain/questions/question-types';
import { revokeApiKey } from '../../src/services/api-keys/api-key.service';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';
import { assertMatchesOpenApi } from '../helpers/openapi-validator';
import {
  addAnswersCountsProblem,
  checkGraphQLErrors,
  checkRestException,
  FuzzFailure,
  isObject,
  type Answer,
} from '../helpers/fuzz/answer-checks';
import { graphQLRequest } from '../helpers/fuzz/graphql-requests';
import { rootFieldSpecs } from '../helpers/fuzz/graphql-fields';
import { leakIn } from '../helpers/fuzz/leaks';
import {
  fixtureCredentials,
  type AnsweringSession,
  type FuzzPools,
  type ItemType,
  type WeightedCredentials,
} from '../helpers/fuzz/pools';
import type { FuzzRequest } from '../helpers/fuzz/requests';
import { restOperationSpecs, restRequest } from '../helpers/fuzz/rest-requests';
import { describeFuzzSettings, fuzzSettings } from '../helpers/fuzz/settings';
import { operatorServiceContext } from '../helpers/service-context';

/**
 * Property-based fuzzing of every REST operation and every GraphQL root field against the real
 * app on MariaDB: whatever a client sends, the answer is never a 5xx, always JSON, every failure
 * reads as the contract's exception (contract.md §2, §11), nothing internal leaks, and a refused
 * write changes no row. FUZZ_RUNS sets the generated requests per operation and transport
 * (default in test/helpers/fuzz/settings.ts: 100 in `npm test`, 1000 in `npm run test:slow`);
 * FUZZ_SEED and FUZZ_PATH replay a counterexample fast-check reported. The run prints its count
 * and seed.
 */

const SETTINGS = fuzzSettings();
const { runs: RUNS, seed: SEED, path: PATH } = SETTINGS;
/** A property sends one request per run; this leaves room for a slow machine and for shrinking. */
const TIMEOUT_MS = Math.max(120_000, RUNS * 200);

const SAMPLE = path.resolve(__dirname, '../fixtures/sample-import.json');

/** Tables a refused write must leave as they were: their rows are counted. */
const WRITTEN_TABLES = [
  'quizzes',
  'quiz_tags',
  'questions',
  'user_quiz_flags',
  'data_sets',
  'data_set_items',
  'computed_results',
  'sessions',
  'session_quizzes',
  'session_attendees',
  'answers',
  'session_changes',
];
/**
 * What is measured after each request: the row counts, and the sum of the sessions' change
 * markers, which a write of answers bumps in place (contract.md §10).
 */
const MEASURES: Record<string, string> = {
  ...Object.fromEntries(WRITTEN_TABLES.map((table) => [table, `SELECT COUNT(*) FROM ${table}`])),
  session_versions: 'SELECT COALESCE(SUM(version), 0) FROM session_changes',
};
const MEASURED = Object.keys(MEASURES);
const COUNT_ROWS = `SELECT ${MEASURED.map((name) => `(${MEASURES[name]}) AS ${name}`).join(', ')}`;

/** The media types of a download, and what stands for its body (no JSON). */
const DOWNLOAD_TYPES = ['text/csv; charset=utf-8', 'application/x-ndjson'];
const DOWNLOADED = Symbol('downloaded');

/** Operations that write: addQuiz, addSession, addAnswers, and those that make a data set. */
const WRITING = new Set([
  'addQuiz',
  'addSession',
  'addAnswers',
  'getQuizSet',
  'getUserSet',
  'getUserGroupSet',
  'getResults',
  'computeDataSet',
  'getSessionResults',
  'getQuestionStatistics',
  'getQuizStatistics',
]);

/** Stand-in ids, to list the operations before the fixture exists. */
const NAMING_POOLS: FuzzPools = {
  quizIds: ['1'],
  userIds: ['1'],
  sessionIds: ['1'],
  sets: {},
  expiredSetId: '1',
  unknownId: '2',
  answering: {
    sessionId: '1',
    quizzes: [{ quizId: '1', questions: [{ type: 'TrueFalse', nbPropositions: 0 }] }],
    attendeeId: '1',
  },
};
const REST_NAMES = restOperationSpecs(NAMING_POOLS).map((spec) => spec.name);
const GRAPHQL_NAMES = rootFieldSpecs(NAMING_POOLS).map((spec) => spec.name);

/** The root fields of the committed GraphQL schema. */
function schemaRootFields(): string[] {
  const schema = buildSchema(
    fs.readFileSync(path.resolve(__dirname, '../../schema/schema.graphql'), 'utf8'),
  );
  return [schema.getQueryType(), schema.getMutationType()].flatMap((type) =>
    type ? Object.keys(type.getFields()) : [],
  );
}

/** Answers 429 seen: not failures of the properties, but worth telling. */
const rateLimited: string[] = [];

/**
 * One running app over its own database with the sample fixture, its credentials and the data
 * sets its requesters made. The REST and GraphQL properties of an operation run at the same
 * time, each on its own target: requests of one target run one at a time, so its row counts
 * move only with its own requests.
 */
interface Target {
  app: TestApp;
  pools: FuzzPools;
  credentials: WeightedCredentials[];
  /** Row counts read after the last request, while nothing has moved them since. */
  knownCounts?: Record<string, number>;
  countRows: () => Promise<Record<string, number>>;
  close: () => Promise<void>;
}

async function startTarget(label: string): Promise<Target> {
  const { db, dataSource, close } = await openTestDatabase(label);
  const document = JSON.parse(fs.readFileSync(SAMPLE, 'utf8')) as ImportDocument;
  const ids = await loadData(dataSource, document);
  const user = (ref: string) => Number(ids.users[ref]);

  const key = await createTestApiKey(dataSource, 'localhost');
  const otherHost = await createTestApiKey(dataSource, 'school.example');
  const revoked = await createTestApiKey(dataSource, 'localhost');
  const operator = operatorServiceContext(dataSource);
  await revokeApiKey(operator, revoked.id);
  const token = (ref: string, keyId = key.id) => createTestToken(dataSource, user(ref), keyId);
  const teacher = await token('t1');
  const colleague = await token('t2');
  // s3 may not create private quizzes.
  const pupil = await token('s3');
  const forOtherKey = await token('t1', otherHost.id);
  const expiring = await createTestToken(dataSource, user('t1'), key.id, {
    TOKEN_TTL_SECONDS: '1',
  });
  const expiringSince = Date.now();

  // Nothing but requests may change the counted tables: the purges wait a day. Only failures
  // are logged: a refused request logs a warning whose redaction costs more than the request,
  // and the properties are about answers.
  const env = { PURGE_INTERVAL_SECONDS: '86400', LOG_LEVEL: 'error' };
  const app = await startTestApp(dataSource, env);

  const asTeacher = `apiKey=${key.secret}&accessToken=${teacher}`;
  const asColleague = `apiKey=${key.secret}&accessToken=${colleague}`;
  const anonymous = `apiKey=${key.secret}`;
  /** Sets made by their owners, so that real set ids, each of its owner, are fuzzed. */
  const sets: FuzzPools['sets'] = {};
  const make = async (owner: string, operation: string, query: string, target = app) => {
    const res = await target.get(`/${operation}?${query}`);
    const body = (await res.json()) as { dataSetId?: string; itemType?: ItemType };
    if (res.status !== 200 || !body.dataSetId || !body.itemType) {
      throw new Error(`fixture ${operation}?${query}: ${res.status} ${JSON.stringify(body)}`);
    }
    sets[owner] ??= {
      user: [],
      quiz: [],
      userGroup: [],
      computedResult: [],
      questionStatistic: [],
      quizStatistic: [],
    };
    sets[owner][body.itemType].push(body.dataSetId);
    return body.dataSetId;
  };
  const s1 = ids.sessions.S1;
  const users = await make('teacher', 'getUserSet', `sessionId=${s1}&${asTeacher}`);
  const quizzes = await make('teacher', 'getQuizSet', `sessionId=${s1}&${asTeacher}`);
  await make('teacher', 'getUserSet', `sessionId=${s1}&numberOfItemsPerPage=1&${asTeacher}`);
  await make('teacher', 'getQuizSet', `keywords=nothing-matches-this&${asTeacher}`);
  await make('teacher', 'getUserGroupSet', asTeacher);
  const sets1 = `userSetId=${users}&quizSetId=${quizzes}`;
  await make('teacher', 'getResults', `${sets1}&${asTeacher}`);
  await make(
    'teacher',
    'getResults',
    `${sets1}&aggregationFunctions=average,max&groupBy=quiz&${asTeacher}`,
  );
  await make('teacher', 'getQuestionStatistics', `${sets1}&${asTeacher}`);
  await make('teacher', 'getQuizStatistics', `${sets1}&numberOfItemsPerPage=1&${asTeacher}`);
  await make(
    'teacher',
    'computeDataSet',
    `dataSetId1=${users}&dataSetId2=${users}&operator=union&${asTeacher}`,
  );
  await make('colleague', 'getUserSet', `sessionId=${ids.sessions.S2}&${asColleague}`);
  await make('colleague', 'getQuizSet', `author=${user('t2')}&${asColleague}`);
  await make('colleague', 'getUserGroupSet', asColleague);
  const anonymousUsers = await make(
    'anonymous',
    'getUserSet',
    `quizId=${ids.quizzes.q1}&${anonymous}`,
  );
  const anonymousQuizzes = await make('anonymous', 'getQuizSet', `tag=math&${anonymous}`);
  await make(
    'anonymous',
    'getResults',
    `userSetId=${anonymousUsers}&quizSetId=${anonymousQuizzes}&aggregationFunctions=min&groupBy=user&${anonymous}`,
  );
  // The session addAnswers writes to: the teacher's, playing a quiz of every question type and
  // a survey, attended by the pupil.
  const played = ['q1', 'q3'];
  const made = await app.get(`/addSession?${asTeacher}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      session: {
        title: 'Fuzzed answers',
        quizIds: played.map((ref) => ids.quizzes[ref]),
        attendeeIds: [ids.users.s3, ids.users.s1],
      },
    }),
  });
  const answeringSession = (await made.json()) as { id?: string };
  if (made.status !== 200 || !answeringSession.id) {
    throw new Error(`fixture addSession: ${made.status} ${JSON.stringify(answeringSession)}`);
  }
  const answering: AnsweringSession = {
    sessionId: answeringSession.id,
    quizzes: played.map((ref) => ({
      quizId: String(ids.quizzes[ref]),
      questions: (document.quizzes?.find((quiz) => quiz.ref === ref)?.questions ?? []).map(
        (question) => ({
          type: normalizeQuestionType(question.type) ?? 'TrueFalse',
          nbPropositions: question.propositions?.length ?? 0,
        }),
      ),
    })),
    attendeeId: String(ids.users.s3),
  };

  // A set of another instance whose sets live one second: expired by the time the fuzz runs.
  // That instance closes its own pool on shutdown, so it gets one of its own.
  const shortLived = await startTestApp(await openDatabase(db.config), {
    ...env,
    DATASET_TTL_SECONDS: '1',
  });
  const expiredSetId = await make('expired', 'getQuizSet', `tag=math&${asTeacher}`, shortLived);
  delete sets.expired;
  await shortLived.close();
  await new Promise((resolve) =>
    setTimeout(resolve, Math.max(0, expiringSince + 1500 - Date.now())),
  );

  const credentials = fixtureCredentials({
    key: key.secret,
    otherHostKey: otherHost.secret,
    revokedKey: revoked.secret,
    teacher,
    colleague,
    pupil,
    forOtherKey,
    expiring,
  });

  return {
    app,
    pools: {
      quizIds: Object.values(ids.quizzes).map(String),
      userIds: Object.values(ids.users).map(String),
      sessionIds: [...Object.values(ids.sessions).map(String), answering.sessionId],
      sets,
      expiredSetId,
      unknownId: '2000000000',
      answering,
    },
    credentials,
    countRows: async () => {
      const [row] = (await dataSource.query(COUNT_ROWS)) as Record<string, unknown>[];
      return Object.fromEntries(MEASURED.map((name) => [name, Number(row[name])]));
    },
    close: async () => {
      await app.close();
      await close();
    },
  };
}

/** Sends a request as it is; fetch failing (no HTTP answer at all) fails the property. */
async function send(target: Target, request: FuzzRequest): Promise<Answer> {
  try {
    // Bytes, not a string, so that fetch adds no Content-Type of its own to a body without one.
    const res = await fetch(`${target.app.url}${request.path}`, {
      method: request.method,
      headers: request.headers,
      body: request.body === undefined ? undefined : Buffer.from(request.body),
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  } catch (error) {
    throw new FuzzFailure(`no HTTP answer: ${String(error)}`, request);
  }
}

/**
 * Sends a request and checks what holds on both transports: no 5xx, JSON, no leak. The row
 * counts before it are those read after the previous request, when that one wrote nothing.
 */
async function exchange(
  target: Target,
  request: FuzzRequest,
): Promise<{ answer: Answer; body: unknown; before: Record<string, number> }> {
  const before = (target.knownCounts ??= await target.countRows());
  target.knownCounts = undefined;
  const answer = await send(target, request);
  const fail = (problem: string): never => {
    throw new FuzzFailure(problem, request, answer);
  };
  if (answer.status >= 500) fail(`a ${answer.status} for a client's request`);
  if (answer.status === 429) rateLimited.push(new FuzzFailure('429', request, answer).message);
  const type = answer.headers.get('content-type') ?? '';
  const leak = leakIn(answer.text);
  if (leak) fail(`the body matches ${leak}`);
  // exportDataSet's file (its text is checked for leaks above; its content by its own suite).
  if (answer.status === 200 && request.path.startsWith('/exportDataSet?')) {
    if (!DOWNLOAD_TYPES.includes(type)) fail(`content type "${type}" for a download`);
    return { answer, body: DOWNLOADED, before };
  }
  if (!/^application\/(graphql-response\+)?json\b/.test(type)) fail(`content type "${type}"`);
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    fail('the body is not JSON');
  }
  return { answer, body, before };
}

async function expectRowsUnchanged(
  target: Target,
  request: FuzzRequest,
  answer: Answer,
  before: Record<string, number>,
  why: string,
): Promise<void> {
  const after = await target.countRows();
  target.knownCounts = after;
  const changed = MEASURED.filter((name) => after[name] !== before[name]);
  if (changed.length > 0) {
    const counts = changed.map((name) => `${name} ${before[name]} → ${after[name]}`);
    throw new FuzzFailure(`${why}, yet rows changed: ${counts.join(', ')}`, request, answer);
  }
}

async function restCase(target: Target, operation: string, request: FuzzRequest): Promise<void> {
  const { answer, body, before } = await exchange(target, request);
  if (body === DOWNLOADED) {
    await expectRowsUnchanged(target, request, answer, before, `${operation} only reads`);
    return;
  }
  // The check startTestApp's get() makes on every REST answer a suite sees.
  try {
    assertMatchesOpenApi(request.path, answer.status, body);
  } catch (error) {
    throw new FuzzFailure((error as Error).message.split('\n')[0], request, answer);
  }
  if (answer.status >= 400) {
    checkRestException(operation, request, answer, body);
    await expectRowsUnchanged(target, request, answer, before, 'a refused request');
    return;
  }
  if (!isObject(body)) throw new FuzzFailure('a success that is not an object', request, answer);
  const counts = operation === 'addAnswers' ? addAnswersCountsProblem(body) : undefined;
  if (counts) throw new FuzzFailure(counts, request, answer);
  if (!WRITING.has(operation)) {
    await expectRowsUnchanged(target, request, answer, before, `${operation} only reads`);
  }
}

async function graphQLCase(
  target: Target,
  field: string,
  request: FuzzRequest & { keys: string[] },
): Promise<void> {
  const { answer, body, before } = await exchange(target, request);
  const fail = (problem: string): never => {
    throw new FuzzFailure(problem, request, answer);
  };
  if (!isObject(body)) return fail('the answer is not a GraphQL response object');
  const { data, errors } = body;
  if (errors !== undefined) checkGraphQLErrors(field, request, answer, errors);
  if (answer.status >= 400 && errors === undefined) fail('a refusal without errors');
  if (answer.status < 400 && !('data' in body)) fail('an answer without data');
  const fields = isObject(data) ? data : {};
  // Root fields are nullable: a field that failed reads null and has an error of its own.
  for (const key of request.keys) {
    const own =
      Array.isArray(errors) &&
      errors.some((error) => isObject(error) && Array.isArray(error.path) && error.path[0] === key);
    if (fields[key] === null && !own) fail(`${key} is null without an error of its own`);
  }
  const answered = request.keys.some((key) => fields[key] !== undefined && fields[key] !== null);
  for (const key of field === 'addAnswers' ? request.keys : []) {
    const result = fields[key];
    const counts = isObject(result) ? addAnswersCountsProblem(result) : undefined;
    if (counts) fail(counts);
  }
  if (!WRITING.has(field)) {
    await expectRowsUnchanged(target, request, answer, before, `${field} only reads`);
  } else if (!answered) {
    await expectRowsUnchanged(target, request, answer, before, `${field} was refused`);
  }
}

/** Runs RUNS generated requests through a case; returns how many were sent. */
async function fuzz<T>(
  target: Target,
  requests: fc.Arbitrary<T>,
  check: (request: T) => Promise<void>,
): Promise<number> {
  let sent = 0;
  target.knownCounts = undefined;
  await fc.assert(
    fc.asyncProperty(requests, async (request) => {
      sent += 1;
      await check(request);
    }),
    { numRuns: RUNS, seed: SEED, path: PATH },
  );
  return sent;
}

describe('fuzzing every operation', () => {
  let rest: Target;
  let graphql: Target;

  beforeAll(async () => {
    console.info(describeFuzzSettings(SETTINGS));
    [rest, graphql] = await Promise.all([startTarget('fuzz_rest'), startTarget('fuzz_graphql')]);
  });

  afterAll(async () => {
    await Promise.all([rest?.close(), graphql?.close()]);
    if (rateLimited.length > 0) {
      console.warn(
        `${rateLimited.length} answers were 429 (rate limit); the first:\n${rateLimited[0]}`,
      );
    }
  });

  it('covers every REST operation and every GraphQL root field', () => {
    expect([...REST_NAMES].sort()).toStrictEqual(REST_OPERATIONS.map((op) => op.name).sort());
    for (const spec of restOperationSpecs(NAMING_POOLS)) {
      const served = REST_OPERATIONS.find((op) => op.name === spec.name);
      expect(served?.methods).toContain(spec.method);
    }
    expect([...GRAPHQL_NAMES].sort()).toStrictEqual(schemaRootFields().sort());
  });

  const operations = [...new Set([...REST_NAMES, ...GRAPHQL_NAMES])].map((name) => {
    const rest = REST_NAMES.includes(name);
    const graphQL = GRAPHQL_NAMES.includes(name);
    return {
      name,
      rest,
      graphQL,
      on: rest && graphQL ? 'REST and GraphQL' : rest ? 'REST' : 'GraphQL',
    };
  });

  it.each(operations)(
    '$name on $on: never a 5xx, contract errors, no leak, refused writes change nothing',
    async ({ name, rest: onRest, graphQL: onGraphQL }) => {
      const runs: Promise<number>[] = [];
      if (onRest) {
        runs.push(
          fuzz(rest, restRequest(name, rest.pools, rest.credentials), (request) =>
            restCase(rest, name, request),
          ),
        );
      }
      if (onGraphQL) {
        runs.push(
          fuzz(graphql, graphQLRequest(name, graphql.pools, graphql.credentials), (request) =>
            graphQLCase(graphql, name, request),
          ),
        );
      }
      // Both run to their end, so that a failure on one transport does not hide the other's.
      const outcomes = await Promise.allSettled(runs);
      const failures = outcomes.flatMap((outcome) =>
        outcome.status === 'rejected' ? [outcome.reason as Error] : [],
      );
      if (failures.length === 1) throw failures[0];
      if (failures.length > 1) {
        throw new Error(failures.map((failure) => failure.message).join('\n\n'));
      }
      for (const outcome of outcomes) {
        if (outcome.status === 'fulfilled') expect(outcome.value).toBe(RUNS);
      }
    },
    TIMEOUT_MS,
  );
});

import { createRequire } from 'node:module';
import type { Fixture } from './load-fixture';

/** The mix of requests a run sends, drawn by weight, and the autocannon run that sends them. */

// autocannon ships no types: the little of its API used here.
type Req = { method: string; path: string; headers: Record<string, string>; body?: string };
type Context = Record<string, unknown>;
type Hist = Record<'mean' | 'p50' | 'p97_5' | 'p99' | 'total', number>;
export type Result = {
  requests: Hist;
  latency: Hist;
  statusCodeStats: Record<string, { count: number }>;
  errors: number;
  timeouts: number;
  duration: number;
};
type OnLatency = (client: unknown, status: number, bytes: number, ms: number) => void;
type Autocannon = (
  options: object,
  done: (error: Error | null, result: Result) => void,
) => { on: (event: 'response', listener: OnLatency) => void };
const autocannon = createRequire(__filename)('autocannon') as Autocannon;

const GRAPHQL_GET_QUIZ = `query ($id: ID!) { getQuiz(quizId: $id) { id title visibility survey tags creationDate lastChangeDate nbQuestions author { id firstName lastName pictureURL } questions { position type title media { type url } ... on MultipleChoicesOneGoodAnswerQuestion { propositions } ... on MultipleChoicesSeveralGoodAnswersQuestion { propositions } ... on FreeAnswerTextQuestion { tolerance caseSensitive } ... on FreeAnswerNumberQuestion { tolerance } } } }`;
const GRAPHQL_GET_RESULTS = `query ($u: ID!, $q: ID!) { getResults(userSetId: $u, quizSetId: $q, resultTypes: [nbGoodAnswers, percentile], aggregationFunctions: [average], groupBy: user) { dataSetId totalNumberOfItems items { ... on ComputedResult { id userId aggregationFunction nbGoodAnswers percentile } } } }`;

/** Kind of request, group, weight (they sum to 100: the share of requests drawn). */
export const KINDS = [
  ['REST getQuiz', 'read', 18],
  ['REST getUser', 'read', 14],
  ['REST getDataSetPage', 'read', 12],
  ['GraphQL getQuiz', 'read', 16],
  ['REST getUserSet', 'set making', 7],
  ['REST getQuizSet', 'set making', 6],
  ['REST getResults', 'set making', 7],
  ['GraphQL getResults', 'set making', 5],
  ['REST addQuiz', 'write', 15],
] as const;
export type KindName = (typeof KINDS)[number][0];

let seed = 1;
/** mulberry32: the same draws every run. */
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

function rest(f: Fixture, operation: string, params: Record<string, string | number>): Req {
  const query = new URLSearchParams({ apiKey: f.apiKey, accessToken: f.token });
  for (const [name, value] of Object.entries(params)) query.set(name, String(value));
  return { method: 'GET', path: `/${operation}?${query}`, headers: {} };
}

function post(path: string, headers: Record<string, string>, body: object): Req {
  return {
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

function graphql(f: Fixture, query: string, variables: Record<string, string>): Req {
  const headers = { 'x-api-key': f.apiKey, authorization: `Bearer ${f.token}` };
  return post('/graphql', headers, { query, variables });
}

/** A valid quiz: title 3 to 250 characters, at least two distinct tags, three questions. */
const newQuiz = (n: number) => ({
  title: `Load test quiz ${n}`,
  visibility: 'public',
  survey: false,
  tags: ['load', `bench-${n % 50}`],
  questions: [
    {
      title: 'Larger?',
      type: 'MultipleChoicesOneGoodAnswer',
      propositions: ['2', '1'],
      goodAnswer: 0,
    },
    { title: '0.5 is 1/2', type: 'TrueFalse', goodAnswer: true },
    { title: '3 x 0.25', type: 'FreeAnswerNumber', tolerance: 0, goodAnswer: 0.75 },
  ],
});

function request(kind: KindName, f: Fixture, n: number): Req {
  const { userSetId, quizSetId } = pick(f.pairs);
  switch (kind) {
    case 'REST getQuiz':
      return rest(f, 'getQuiz', { quizId: pick(f.quizIds) });
    case 'REST getUser':
      return rest(f, 'getUser', { userId: pick(f.userIds) });
    case 'REST getDataSetPage': {
      const pageIndex = 1 + Math.floor(random() * Math.max(1, f.paged.numberOfPages));
      return rest(f, 'getDataSetPage', { dataSetId: f.paged.dataSetId, pageIndex });
    }
    case 'GraphQL getQuiz':
      return graphql(f, GRAPHQL_GET_QUIZ, { id: String(pick(f.quizIds)) });
    case 'REST getUserSet':
      return rest(f, 'getUserSet', { sessionId: pick(f.sessionIds) });
    case 'REST getQuizSet':
      return rest(f, 'getQuizSet', { tag: pick(f.tags) });
    case 'REST getResults': {
      const shape = { aggregationFunctions: 'average', groupBy: 'quiz' };
      const resultTypes = 'nbGoodAnswers,percentile';
      return rest(f, 'getResults', { userSetId, quizSetId, resultTypes, ...shape });
    }
    case 'GraphQL getResults':
      return graphql(f, GRAPHQL_GET_RESULTS, { u: userSetId, q: quizSetId });
    case 'REST addQuiz': {
      const query = new URLSearchParams({ apiKey: f.apiKey, accessToken: f.token });
      return post(`/addQuiz?${query}`, {}, { quiz: newQuiz(n) });
    }
  }
}

/** graphqlErrors: GraphQL answers resolver failures with 200 and errors[]; their codes. */
export type KindStats = {
  ms: number[];
  statuses: Map<number, number>;
  graphqlErrors: Map<string, number>;
};
export const bump = <K>(map: Map<K, number>, key: K, n = 1) =>
  map.set(key, (map.get(key) ?? 0) + n);

/** One autocannon run of the mix; with `stats`, each response counted under its kind. */
export function load(url: string, f: Fixture, connections: number, seconds: number, stats?: Stats) {
  let made = 0;
  // autocannon calls onResponse and then emits 'response' with the latency, synchronously.
  let last: KindStats | undefined;
  const setupRequest = (_req: Req, context: Context): Req => {
    let draw = random() * 100;
    const kind = KINDS.find(([, , weight]) => (draw -= weight) < 0) ?? KINDS[0];
    context.kind = kind[0];
    return request(kind[0], f, (made += 1));
  };
  const onResponse = (status: number, body: string, context: Context) => {
    last = stats?.get(context.kind as KindName);
    if (!last) return;
    bump(last.statuses, status);
    if (String(context.kind).startsWith('GraphQL') && body.includes('"errors"')) {
      const { errors } = JSON.parse(body) as { errors?: { extensions?: { code?: string } }[] };
      for (const e of errors ?? []) bump(last.graphqlErrors, e.extensions?.code ?? 'UNKNOWN');
    }
  };
  const options = { url, connections, duration: seconds, requests: [{ setupRequest, onResponse }] };
  return new Promise<Result>((resolve, reject) => {
    const tracker = autocannon(options, (error, result) =>
      error ? reject(error) : resolve(result),
    );
    tracker.on('response', (_client, _status, _bytes, ms) => last?.ms.push(ms));
  });
}

export type Stats = Map<KindName, KindStats>;

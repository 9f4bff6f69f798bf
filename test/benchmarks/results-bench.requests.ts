/** getResults through the service's two transports, REST and GraphQL. */
import http from 'node:http';
import { PAGE_SIZE, RESULT_TYPES, type Case, type Shape } from './results-bench.config';
import type { Service } from './results-bench.process';
import type { Prepared } from './results-bench.tiers';

export const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

export interface HttpRequest {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

/** `via`: another agent than the sequential one (the throughput runs open 32 sockets). */
export function httpRequest(
  options: HttpRequest,
  via: http.Agent = agent,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      options.url,
      { method: options.method, headers: options.headers, agent: via },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

export interface PageItem {
  userId?: string | null;
  quizId?: string | null;
  sessionId?: string | null;
  nbGoodAnswers?: number | null;
  percentile?: number | null;
}

export interface ServicePage {
  totalNumberOfItems: number;
  items: PageItem[];
}

export function aggregationOf(shape: Shape): { functions: string[]; groupBy: string } | null {
  return shape === 'detailed'
    ? null
    : { functions: ['average'], groupBy: shape === 'byUser' ? 'user' : 'quiz' };
}

/** `anonymous`: the API key alone, no token (the sets must then be the key's: Prepared.anonymous). */
export function restRequest(
  service: Service,
  p: Prepared,
  c: Case,
  anonymous = false,
): HttpRequest {
  const query = new URLSearchParams({
    apiKey: p.apiKey,
    ...(anonymous ? {} : { accessToken: p.token }),
    userSetId: String(c.userSetId),
    quizSetId: String(c.quizSetId),
    resultTypes: RESULT_TYPES.join(','),
    numberOfItemsPerPage: String(PAGE_SIZE),
  });
  const aggregation = aggregationOf(c.shape);
  if (aggregation) {
    query.set('aggregationFunctions', aggregation.functions.join(','));
    query.set('groupBy', aggregation.groupBy);
  }
  return { url: `${service.url}/getResults?${query.toString()}`, method: 'GET' };
}

export async function restGetResults(
  service: Service,
  p: Prepared,
  c: Case,
  anonymous = false,
): Promise<ServicePage> {
  const res = await httpRequest(restRequest(service, p, c, anonymous));
  if (res.status !== 200) throw new Error(`REST getResults ${res.status}: ${res.body}`);
  return JSON.parse(res.body) as ServicePage;
}

export const GRAPHQL_QUERY = `query Results($u: ID!, $q: ID!, $rt: [ResultType!], $af: [AggregationFunction!], $gb: GroupBy, $n: Int) {
  getResults(userSetId: $u, quizSetId: $q, resultTypes: $rt, aggregationFunctions: $af, groupBy: $gb, numberOfItemsPerPage: $n) {
    dataSetId totalNumberOfItems numberOfPages
    items { ... on ComputedResult { id userId quizId sessionId aggregationFunction nbGoodAnswers percentile } }
  }
}`;

export function graphqlRequest(service: Service, p: Prepared, c: Case): HttpRequest {
  const aggregation = aggregationOf(c.shape);
  const body = JSON.stringify({
    query: GRAPHQL_QUERY,
    variables: {
      u: String(c.userSetId),
      q: String(c.quizSetId),
      rt: RESULT_TYPES,
      af: aggregation?.functions ?? null,
      gb: aggregation?.groupBy ?? null,
      n: PAGE_SIZE,
    },
  });
  return {
    url: `${service.url}/graphql`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': p.apiKey,
      authorization: `Bearer ${p.token}`,
    },
    body,
  };
}

export async function graphqlGetResults(
  service: Service,
  p: Prepared,
  c: Case,
): Promise<ServicePage> {
  const res = await httpRequest(graphqlRequest(service, p, c));
  const json = JSON.parse(res.body) as { data?: { getResults: ServicePage }; errors?: unknown };
  if (res.status !== 200 || json.errors || !json.data) {
    throw new Error(`GraphQL getResults ${res.status}: ${res.body}`);
  }
  return json.data.getResults;
}

/** getQuestionStatistics and getQuizStatistics through REST and GraphQL, and a set's every item. */
import { PAGE_SIZE } from './results-bench.config';
import type { Service } from './results-bench.process';
import { httpRequest } from './results-bench.requests';
import type { Prepared } from './results-bench.tiers';
import type { StatisticsCase, StatisticsOperation } from './statistics-bench.floor';

export const OPERATION_NAME: Record<StatisticsOperation, string> = {
  question: 'getQuestionStatistics',
  quiz: 'getQuizStatistics',
};

/** The fields of both item types (REST sends them all; GraphQL is asked for the same). */
export type StatisticItem = Record<string, unknown>;

export interface StatisticsPage {
  dataSetId: string;
  totalNumberOfItems: number;
  numberOfPages: number;
  items: StatisticItem[];
}

async function getJson(service: Service, url: string): Promise<StatisticsPage> {
  const res = await httpRequest({ url: `${service.url}${url}`, method: 'GET' });
  if (res.status !== 200) throw new Error(`REST ${url.split('?')[0]} ${res.status}: ${res.body}`);
  return JSON.parse(res.body) as StatisticsPage;
}

export function restStatistics(
  service: Service,
  p: Prepared,
  operation: StatisticsOperation,
  c: StatisticsCase,
  pageSize = PAGE_SIZE,
): Promise<StatisticsPage> {
  const query = new URLSearchParams({
    apiKey: p.apiKey,
    accessToken: p.token,
    userSetId: String(c.userSetId),
    quizSetId: String(c.quizSetId),
    numberOfItemsPerPage: String(pageSize),
  });
  return getJson(service, `/${OPERATION_NAME[operation]}?${query.toString()}`);
}

const GRAPHQL_ITEMS: Record<StatisticsOperation, string> = {
  question:
    '... on QuestionStatistic { id quizId questionIndex title type nbAttempts nbAnswers facility discrimination choiceCounts }',
  quiz: '... on QuizStatistic { id quizId nbAttempts mean median stddev cronbachAlpha histogram }',
};

const graphqlQuery = (operation: StatisticsOperation) =>
  `query Statistics($u: ID!, $q: ID!, $n: Int) {
  ${OPERATION_NAME[operation]}(userSetId: $u, quizSetId: $q, numberOfItemsPerPage: $n) {
    dataSetId totalNumberOfItems numberOfPages
    items { ${GRAPHQL_ITEMS[operation]} }
  }
}`;

export async function graphqlStatistics(
  service: Service,
  p: Prepared,
  operation: StatisticsOperation,
  c: StatisticsCase,
): Promise<StatisticsPage> {
  const res = await httpRequest({
    url: `${service.url}/graphql`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': p.apiKey,
      authorization: `Bearer ${p.token}`,
    },
    body: JSON.stringify({
      query: graphqlQuery(operation),
      variables: { u: String(c.userSetId), q: String(c.quizSetId), n: PAGE_SIZE },
    }),
  });
  const json = JSON.parse(res.body) as {
    data?: Record<string, StatisticsPage | null>;
    errors?: unknown;
  };
  const page = json.data?.[OPERATION_NAME[operation]];
  if (res.status !== 200 || json.errors || !page) {
    throw new Error(`GraphQL ${OPERATION_NAME[operation]} ${res.status}: ${res.body}`);
  }
  return page;
}

/** Every item of a new set, by REST: the operation's first page, then getDataSetPage. */
export async function restAllItems(
  service: Service,
  p: Prepared,
  operation: StatisticsOperation,
  c: StatisticsCase,
): Promise<StatisticsPage> {
  const first = await restStatistics(service, p, operation, c, 1000);
  const items = [...first.items];
  for (let pageIndex = 2; pageIndex <= first.numberOfPages; pageIndex += 1) {
    const query = new URLSearchParams({
      apiKey: p.apiKey,
      accessToken: p.token,
      dataSetId: first.dataSetId,
      pageIndex: String(pageIndex),
    });
    items.push(...(await getJson(service, `/getDataSetPage?${query.toString()}`)).items);
  }
  return { ...first, items };
}

import {
  Client,
  fetchExchange,
  gql,
  mapExchange,
  type AnyVariables,
  type Exchange,
  type TypedDocumentNode,
} from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import { relayPagination } from '@urql/exchange-graphcache/extras';
import { buildSchema, introspectionFromSchema } from 'graphql';
import fs from 'node:fs';
import type { DataSource } from 'typeorm';
import { SCHEMA_FILE } from '../../src/api/contracts.emit';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap } from '../../src/data/import/import-document';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import {
  AVERAGES_QUERY,
  cachingClientsClass,
  DETAILED_QUERY,
  SETS_QUERY,
} from '../helpers/caching-clients.fixture';
import { BACKENDS, openBackend } from '../helpers/database';

/**
 * urql's Graphcache (a normalized cache) with the README's configuration against the running
 * service (contract.md §15): the introspected schema for fragments on DataSet and DataSetItem,
 * `keys` returning null for objects without an id, relayPagination on getDataSetItems, and not
 * one Graphcache warning.
 */

const DOCUMENT = cachingClientsClass('urql', 'Tina', 'U');

// The README's configuration, word for word: the introspection of schema/schema.graphql (the
// served API has introspection off in production), and no key for objects without an id.
const schema = introspectionFromSchema(buildSchema(fs.readFileSync(SCHEMA_FILE, 'utf8')));
const keys = Object.fromEntries(
  schema.__schema.types
    .filter((type) => type.kind === 'OBJECT' && !type.fields.some((field) => field.name === 'id'))
    .map((type) => [type.name, () => null]),
);
const resolvers = { Query: { getDataSetItems: relayPagination() } };

type Json = Record<string, unknown>;
type Page = { dataSetId: string; items: Json[] };

/** An answer less the `__typename` fields urql adds to every selection of the document it sends. */
function withoutTypename(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTypename);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([name]) => name !== '__typename')
      .map(([name, field]) => [name, withoutTypename(field)]),
  );
}

const SETS: TypedDocumentNode<{ users: Page; quizzes: Page }, { sessionId: string }> =
  gql(SETS_QUERY);

type ResultsVariables = { userSetId: string; quizSetId: string };
const DETAILED: TypedDocumentNode<{ getResults: Page }, ResultsVariables> = gql(DETAILED_QUERY);
const AVERAGES: TypedDocumentNode<{ getResults: Page }, ResultsVariables> = gql(AVERAGES_QUERY);

/** getDataSetPage reads any set: fragments on the DataSet interface and the DataSetItem union. */
const PAGE: TypedDocumentNode<
  { getDataSetPage: Page & { totalNumberOfItems: number } },
  { dataSetId: string }
> = gql`
  query Page($dataSetId: ID!) {
    getDataSetPage(dataSetId: $dataSetId) {
      ...PageFields
    }
  }
  fragment PageFields on DataSet {
    dataSetId
    totalNumberOfItems
    items {
      ...ItemFields
    }
  }
  fragment ItemFields on DataSetItem {
    ... on ComputedResult {
      id
      userId
      nbGoodAnswers
    }
    ... on User {
      id
      firstName
    }
  }
`;

type Connection = {
  totalCount: number;
  edges: { cursor: string; node: Json }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
};
type ItemsVariables = { dataSetId: string; first: number; after?: string | null };
const ITEMS: TypedDocumentNode<{ getDataSetItems: Connection }, ItemsVariables> = gql`
  query Items($dataSetId: ID!, $first: Int!, $after: String) {
    getDataSetItems(dataSetId: $dataSetId, first: $first, after: $after) {
      totalCount
      edges {
        cursor
        node {
          ... on ComputedResult {
            id
            userId
            quizId
            nbGoodAnswers
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

/** Graphcache loaded afresh: a module shows each warning only once. */
async function freshCacheExchange(): Promise<typeof cacheExchange> {
  let fresh: typeof cacheExchange | undefined;
  await jest.isolateModulesAsync(async () => {
    ({ cacheExchange: fresh } = await import('@urql/exchange-graphcache'));
  });
  return fresh!;
}

describe.each(BACKENDS)('urql Graphcache with the README configuration (%s)', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let ids: IdMap;
  let headers: Record<string, string>;
  const warnings: unknown[][] = [];
  let warnSpy: jest.SpyInstance;

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'urql_graphcache'));
    ids = await loadData(dataSource, DOCUMENT);
    const key = await createTestApiKey(dataSource, 'localhost');
    headers = {
      'X-Api-Key': key.secret,
      Authorization: `Bearer ${await createTestToken(dataSource, Number(ids.users.T), key.id)}`,
    };
    app = await startTestApp(dataSource);
    // Graphcache reports configuration gaps through console.warn (outside production); every
    // test with the README's configuration expects none.
    warnSpy = jest.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
      warnings.push(args);
    });
  });

  afterAll(async () => {
    warnSpy?.mockRestore();
    await app?.close();
    await close();
  });

  /**
   * A client with the given cache exchange; `network` keeps what the service itself answered,
   * less the `__typename` fields urql adds to every selection (Graphcache leaves out those the
   * query did not ask for).
   */
  const client = (cache: Exchange = cacheExchange({ schema, keys, resolvers })) => {
    const network = new Map<number, unknown>();
    const urql = new Client({
      url: `${app.url}/graphql`,
      fetchOptions: { headers },
      exchanges: [
        cache,
        // Between the cache and the fetch: sees the answer before Graphcache writes and reads it.
        mapExchange({
          onResult: (result) =>
            void network.set(result.operation.key, withoutTypename(result.data)),
        }),
        fetchExchange,
      ],
    });
    return { urql, network };
  };

  async function run<Data, Variables extends AnyVariables>(
    urql: Client,
    query: TypedDocumentNode<Data, Variables>,
    variables: Variables,
    requestPolicy: 'cache-first' | 'cache-only' = 'cache-first',
  ) {
    const result = await urql.query(query, variables, { requestPolicy }).toPromise();
    expect(result.error).toBeUndefined();
    expect(result.data).toBeDefined();
    return { data: result.data!, key: result.operation.key };
  }

  it('keeps every result set apart: the cache gives back what the network gave', async () => {
    const { urql, network } = client();
    const answers: {
      query: TypedDocumentNode<{ getResults: Page }, ResultsVariables>;
      variables: ResultsVariables;
      data: { getResults: Page };
    }[] = [];
    for (const sessionId of [ids.sessions.A, ids.sessions.B]) {
      const { data: sets } = await run(urql, SETS, { sessionId });
      expect(sets.users.items).toHaveLength(2);
      const variables = { userSetId: sets.users.dataSetId, quizSetId: sets.quizzes.dataSetId };
      for (const query of [DETAILED, AVERAGES]) {
        const { data, key } = await run(urql, query, variables);
        // What Graphcache delivers is the service's answer, read back through the cache.
        expect(data).toEqual(network.get(key));
        answers.push({ query, variables, data });
      }
    }
    const [detailedA, averagesA, detailedB, averagesB] = answers.map(
      (answer) => answer.data.getResults,
    );
    expect(detailedA.items).toHaveLength(4);
    expect(detailedB.items).toHaveLength(4);
    expect(averagesA.items.map((item) => [item.userId, item.nbGoodAnswers])).toEqual([
      [ids.users.p0, 2],
      [ids.users.p1, 1],
    ]);
    expect(averagesB.items.map((item) => [item.userId, item.nbGoodAnswers])).toEqual([
      [ids.users.p2, 2],
      [ids.users.p3, 1],
    ]);
    const all = [detailedA, averagesA, detailedB, averagesB].flatMap((page) => page.items);
    expect(new Set(all.map((item) => item.id)).size).toBe(all.length);
    // Once all four are cached, each reads back unchanged without a request.
    for (const { query, variables, data } of answers) {
      const again = await run(urql, query, variables, 'cache-only');
      expect(again.data).toEqual(data);
    }
    // Not one Graphcache warning for the README's configuration.
    expect(warnings).toEqual([]);
  });

  it('matches getDataSetPage fragments on DataSet and DataSetItem with the schema', async () => {
    const { urql, network } = client();
    const { data: sets } = await run(urql, SETS, { sessionId: ids.sessions.A });
    const { data: averages } = await run(urql, AVERAGES, {
      userSetId: sets.users.dataSetId,
      quizSetId: sets.quizzes.dataSetId,
    });
    const expected = {
      [sets.users.dataSetId]: sets.users.items,
      [averages.getResults.dataSetId]: averages.getResults.items.map(
        ({ id, userId, nbGoodAnswers }) => ({ id, userId, nbGoodAnswers }),
      ),
    };
    for (const [dataSetId, items] of Object.entries(expected)) {
      const { data, key } = await run(urql, PAGE, { dataSetId });
      expect(data).toEqual(network.get(key));
      // Whole items, not only their __typename: the fragments matched.
      expect(data.getDataSetPage.items).toEqual(items);
      expect(data.getDataSetPage.totalNumberOfItems).toBe(2);
      const again = await run(urql, PAGE, { dataSetId }, 'cache-only');
      expect(again.data).toEqual(data);
    }
    // Not one Graphcache warning for the README's configuration.
    expect(warnings).toEqual([]);
  });

  it('merges getDataSetItems pages with relayPagination into the set in order', async () => {
    const { urql, network } = client();
    const { data: sets } = await run(urql, SETS, { sessionId: ids.sessions.B });
    const { data: detailed } = await run(urql, DETAILED, {
      userSetId: sets.users.dataSetId,
      quizSetId: sets.quizzes.dataSetId,
    });
    const dataSetId = detailed.getResults.dataSetId;
    const inOrder = detailed.getResults.items.map(({ id, userId, quizId, nbGoodAnswers }) => ({
      id,
      userId,
      quizId,
      nbGoodAnswers,
    }));
    expect(inOrder).toHaveLength(4);

    const first = await run(urql, ITEMS, { dataSetId, first: 3 });
    const page = first.data.getDataSetItems;
    expect(page.edges.map((edge) => edge.node)).toEqual(inOrder.slice(0, 3));
    expect(page).toMatchObject({ totalCount: 4, pageInfo: { hasNextPage: true } });

    const next = await run(urql, ITEMS, { dataSetId, first: 3, after: page.pageInfo.endCursor });
    // The service answered the last item alone; Graphcache gives the pages merged.
    const answered = network.get(next.key) as { getDataSetItems: Connection };
    expect(answered.getDataSetItems.edges.map((edge) => edge.node)).toEqual(inOrder.slice(3));
    const merged = next.data.getDataSetItems;
    expect(merged.edges.map((edge) => edge.node)).toEqual(inOrder);
    expect(merged).toMatchObject({ totalCount: 4, pageInfo: { hasNextPage: false } });
    // The first page's query now reads the whole list from the cache too.
    const again = await run(urql, ITEMS, { dataSetId, first: 3 }, 'cache-only');
    expect(again.data.getDataSetItems.edges.map((edge) => edge.node)).toEqual(inOrder);
    // Not one Graphcache warning for the README's configuration.
    expect(warnings).toEqual([]);
  });

  it('warns without the keys, and without the schema: each is needed', async () => {
    const messages = () => warnings.splice(0).map((args) => String(args[0]));
    const withoutKeys = client((await freshCacheExchange())({ schema, resolvers }));
    const { data: sets } = await run(withoutKeys.urql, SETS, { sessionId: ids.sessions.A });
    expect(messages()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Invalid key: .*no key could be generated.*`UserPage`/s),
        expect.stringMatching(/^Invalid key: .*no key could be generated.*`QuizPage`/s),
      ]),
    );
    const withoutSchema = client((await freshCacheExchange())({ keys, resolvers }));
    await run(withoutSchema.urql, PAGE, { dataSetId: sets.users.dataSetId });
    expect(messages()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Heuristic Fragment Matching: .*`UserPage` type.*`DataSet`/s),
      ]),
    );
  });

  it('keys null the pages, the connection and other objects without an id, not entities', () => {
    const keyless = ['ComputedResultPage', 'UserPage', 'DataSetItemConnection', 'PageInfo'];
    expect(Object.keys(keys)).toEqual(expect.arrayContaining(keyless));
    for (const entity of ['User', 'ComputedResult', 'Quiz', 'Session', 'UserGroup']) {
      expect(keys).not.toHaveProperty(entity);
    }
  });
});

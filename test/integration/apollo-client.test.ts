import { ApolloClient, gql, HttpLink, InMemoryCache, type TypedDocumentNode } from '@apollo/client';
import { relayStylePagination } from '@apollo/client/utilities';
import { possibleTypes } from '@quiz-results/client';
import fs from 'node:fs';
import { filter, firstValueFrom } from 'rxjs';
import { buildSchema, isAbstractType } from 'graphql';
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
import { openTestDatabase } from '../helpers/database';

/**
 * Apollo Client with its default InMemoryCache against the running service (contract.md §15):
 * items of different result sets never share a cache entry (their ids are global), typed pages
 * need no possibleTypes, and the package's possibleTypes serve getDataSetPage's fragments.
 */

const DOCUMENT = cachingClientsClass('apollo', 'Tom', 'A');

type Json = Record<string, unknown>;
type Page = { dataSetId: string; items: Json[] };

const SETS: TypedDocumentNode<{ users: Page; quizzes: Page }, { sessionId: string }> =
  gql(SETS_QUERY);

type ResultsVariables = { userSetId: string; quizSetId: string };
const DETAILED: TypedDocumentNode<{ getResults: Page }, ResultsVariables> = gql(DETAILED_QUERY);
const AVERAGES: TypedDocumentNode<{ getResults: Page }, ResultsVariables> = gql(AVERAGES_QUERY);

/** getDataSetPage reads any set: fragments on the DataSet interface and the DataSetItem union. */
const PAGE: TypedDocumentNode<{ getDataSetPage: Page }, { dataSetId: string }> = gql`
  query Page($dataSetId: ID!) {
    getDataSetPage(dataSetId: $dataSetId) {
      ...PageFields
    }
  }
  fragment PageFields on DataSet {
    dataSetId
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
const ITEMS: TypedDocumentNode<
  { getDataSetItems: Connection },
  { dataSetId: string; first: number; after?: string | null }
> = gql`
  query Items($dataSetId: ID!, $first: Int!, $after: String) {
    getDataSetItems(dataSetId: $dataSetId, first: $first, after: $after) {
      totalCount
      edges {
        cursor
        node {
          ... on User {
            id
            firstName
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

describe('Apollo Client with its default cache', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let ids: IdMap;
  let headers: Record<string, string>;

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDatabase('apollo_client'));
    ids = await loadData(dataSource, DOCUMENT);
    const key = await createTestApiKey(dataSource, 'localhost');
    headers = {
      'X-Api-Key': key.secret,
      Authorization: `Bearer ${await createTestToken(dataSource, Number(ids.users.T), key.id)}`,
    };
    app = await startTestApp(dataSource);
  });

  afterAll(async () => {
    await app?.close();
    await close();
  });

  const client = (cache = new InMemoryCache()) =>
    new ApolloClient({ link: new HttpLink({ uri: `${app.url}/graphql`, headers }), cache });

  it('runs the typical flow twice, and reads back from the cache what the network gave', async () => {
    const apollo = client();
    const answers: {
      query: TypedDocumentNode<{ getResults: Page }, ResultsVariables>;
      variables: ResultsVariables;
      data: Page;
    }[] = [];
    for (const sessionId of [ids.sessions.A, ids.sessions.B]) {
      const { data: sets } = await apollo.query({ query: SETS, variables: { sessionId } });
      expect(sets?.users.items).toHaveLength(2);
      const variables = { userSetId: sets!.users.dataSetId, quizSetId: sets!.quizzes.dataSetId };
      for (const query of [DETAILED, AVERAGES]) {
        const { data } = await apollo.query({ query, variables });
        answers.push({ query, variables, data: data!.getResults });
      }
    }
    const [detailedA, averagesA, detailedB, averagesB] = answers.map((answer) => answer.data);
    // Two attempts per pupil of each class; the averages of its two pupils.
    expect(detailedA.items).toHaveLength(4);
    expect(averagesA.items.map((item) => [item.userId, item.nbGoodAnswers])).toEqual([
      [ids.users.p0, 2],
      [ids.users.p1, 1],
    ]);
    expect(averagesB.items.map((item) => [item.userId, item.nbGoodAnswers])).toEqual([
      [ids.users.p2, 2],
      [ids.users.p3, 1],
    ]);
    // Each set numbers its items from 1: the per-set numbers meet, the global ids never do.
    expect(detailedA.items[0].itemId).toBe('1');
    expect(averagesB.items[0].itemId).toBe('1');
    const all = [detailedA, averagesA, detailedB, averagesB].flatMap((page) => page.items);
    expect(new Set(all.map((item) => item.id)).size).toBe(all.length);
    expect(all.every((item) => item.id !== item.itemId)).toBe(true);
    // The cache holds each set's items apart: what it reads back is what the network gave.
    for (const { query, variables, data } of answers) {
      expect(apollo.readQuery({ query, variables })?.getResults).toEqual(data);
    }
    // And it gives the same again without a request.
    for (const { query, variables, data } of answers) {
      const again = await apollo.query({ query, variables, fetchPolicy: 'cache-only' });
      expect(again.data?.getResults).toEqual(data);
    }
    // The REST id of an item is GraphQL's itemId.
    const rest = (await (
      await fetch(
        `${app.url}/getDataSetPage?dataSetId=${averagesA.dataSetId}&apiKey=${headers['X-Api-Key']}&accessToken=${headers.Authorization.slice(7)}`,
      )
    ).json()) as { items: Json[] };
    expect(rest.items.map((item) => item.id)).toEqual(averagesA.items.map((item) => item.itemId));
    expect(averagesA.items.map((item) => item.id)).toEqual(
      rest.items.map((item) => `${averagesA.dataSetId}:${String(item.id)}`),
    );
  });

  it('reads getDataSetPage fragments from the cache with the package’s possibleTypes', async () => {
    const apollo = client(new InMemoryCache({ possibleTypes }));
    const { data: sets } = await apollo.query({
      query: SETS,
      variables: { sessionId: ids.sessions.A },
    });
    const { data: averages } = await apollo.query({
      query: AVERAGES,
      variables: { userSetId: sets!.users.dataSetId, quizSetId: sets!.quizzes.dataSetId },
    });
    for (const dataSetId of [sets!.users.dataSetId, averages!.getResults.dataSetId]) {
      const { data } = await apollo.query({ query: PAGE, variables: { dataSetId } });
      const page = data!.getDataSetPage;
      expect(page.items).toHaveLength(2);
      // Every item has its fields, not only its __typename.
      for (const item of page.items) expect(item.id).toEqual(expect.any(String));
      expect(apollo.readQuery({ query: PAGE, variables: { dataSetId } })?.getDataSetPage).toEqual(
        page,
      );
    }
  });

  it('pages getDataSetItems with relayStylePagination, a run at a time into one list', async () => {
    const apollo = client(
      new InMemoryCache({
        possibleTypes,
        typePolicies: {
          Query: { fields: { getDataSetItems: relayStylePagination(['dataSetId']) } },
        },
      }),
    );
    const { data: sets } = await apollo.query({
      query: SETS,
      variables: { sessionId: ids.sessions.B },
    });
    const dataSetId = sets!.users.dataSetId;
    const watch = apollo.watchQuery({ query: ITEMS, variables: { dataSetId, first: 1 } });
    // Kept watched while it pages, as a component would.
    const watching = watch.subscribe(() => undefined);
    const first = await firstValueFrom(
      watch.pipe(filter((result) => !result.loading && result.data !== undefined)),
    );
    // Complete once loaded: its data is the whole connection.
    const page = (first.data as { getDataSetItems: Connection }).getDataSetItems;
    expect(page.edges.map((edge) => edge.node.id)).toEqual([ids.users.p2]);
    expect(page.pageInfo.hasNextPage).toBe(true);
    const after = page.pageInfo.endCursor;
    await watch.fetchMore({ variables: { after } });
    watching.unsubscribe();
    const merged = apollo.readQuery({ query: ITEMS, variables: { dataSetId, first: 1 } });
    expect(merged?.getDataSetItems.edges.map((edge) => edge.node)).toEqual([
      { __typename: 'User', id: ids.users.p2, firstName: 'Pupil2' },
      { __typename: 'User', id: ids.users.p3, firstName: 'Pupil3' },
    ]);
    expect(merged?.getDataSetItems).toMatchObject({
      totalCount: 2,
      pageInfo: { hasNextPage: false },
    });
    // A cursor of another set is refused as a bad parameter.
    const refused = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        query:
          'query ($d: ID!, $a: String) { getDataSetItems(dataSetId: $d, after: $a) { totalCount } }',
        variables: { d: sets!.quizzes.dataSetId, a: after },
      }),
    });
    const body = (await refused.json()) as { errors: { extensions: Json }[] };
    expect(body.errors[0].extensions).toMatchObject({
      type: 'BadParameterException',
      operation: 'getDataSetItems',
      parameterName: 'after',
    });
  });

  it('ships possibleTypes equal to the served schema’s unions and interfaces', () => {
    const schema = buildSchema(fs.readFileSync(SCHEMA_FILE, 'utf8'));
    const fromSchema = Object.fromEntries(
      Object.values(schema.getTypeMap())
        .filter(isAbstractType)
        .map((type) => [
          type.name,
          schema
            .getPossibleTypes(type)
            .map(({ name }) => name)
            .sort(),
        ]),
    );
    expect(possibleTypes).toEqual(fromSchema);
  });
});

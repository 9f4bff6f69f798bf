import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap, ImportDocument } from '../../src/data/import/import-document';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend } from '../helpers/database';
import { graphql, type GraphQLErrorBody } from '../helpers/graphql';

/**
 * getDataSetItems (contract.md §15) refuses a set as getDataSetPage does (§5, §6): another
 * requester's set, an anonymous requester on a user's set, an unknown, expired or malformed id
 * read alike on REST getDataSetPage, GraphQL getDataSetPage and GraphQL getDataSetItems, but for
 * the operation's name. Its own arguments (`first` 0–1,000, `after` a cursor of the set) are
 * BadParameterExceptions, and the bounds of `first` page the set as Relay says.
 */

type Json = Record<string, unknown>;
type Who = 'anonymous' | 'otherKey' | 'A' | 'B';
type GraphQLAnswer = Awaited<ReturnType<typeof graphql>>;

const QUIZZES = Array.from({ length: 60 }, (_, i) => `q${String(i + 1).padStart(2, '0')}`);

const DOCUMENT: ImportDocument = {
  users: [
    { ref: 'A', email: 'a@school.example', firstName: 'Ada', lastName: 'Alpha' },
    { ref: 'B', email: 'b@school.example', firstName: 'Bob', lastName: 'Beta' },
  ],
  quizzes: QUIZZES.map((ref) => ({
    ref,
    author: 'A',
    title: `Quiz ${ref}`,
    visibility: 'public',
    survey: false,
    tags: ['many', 'paging'],
  })),
};

const ITEMS = `query ($dataSetId: ID!, $first: Int, $after: String) {
  getDataSetItems(dataSetId: $dataSetId, first: $first, after: $after) {
    dataSetId itemType totalCount
    edges { cursor node { __typename ... on Quiz { id title } } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

const PAGE = `query ($dataSetId: ID!, $pageIndex: Int) {
  getDataSetPage(dataSetId: $dataSetId, pageIndex: $pageIndex) { dataSetId totalNumberOfItems }
}`;

/** The GraphQL code of each REST status (contract.md §2). */
const CODE_OF_STATUS: Readonly<Record<number, string>> = {
  400: 'BAD_USER_INPUT',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
};

/** A message as contract.md §2 builds it from the exception's other fields. */
function contractMessage(body: Json): string {
  switch (body.type) {
    case 'UnauthorizedOperationException':
      return `Unauthorized operation: ${String(body.operation)} (${String(body.reason)})`;
    case 'MissingParameterException':
      return `Missing parameter: ${String(body.parameterName)}`;
    default:
      return `Bad parameter: ${String(body.parameterName)} (${String(body.reason)})`;
  }
}

/** The same exception as raised by another operation: the name and the message built from it. */
function asOperation(body: Json, operation: string): Json {
  const renamed = { ...body, operation };
  return { ...renamed, message: contractMessage(renamed) };
}

/** A resolver's failure: its root field null, one error on its path, the REST body as extensions. */
function expectGraphQLError(answer: GraphQLAnswer, operation: string, rest: Json, status: number) {
  const { message, ...extensions } = rest;
  expect(answer.status).toBe(200);
  expect(answer.body.data).toStrictEqual({ [operation]: null });
  expect(answer.body.errors).toHaveLength(1);
  const error = answer.body.errors?.[0] as GraphQLErrorBody;
  expect(error.message).toBe(message);
  expect(error.path).toStrictEqual([operation]);
  expect(error.extensions).toStrictEqual({ ...extensions, code: CODE_OF_STATUS[status] });
}

describe.each(BACKENDS)('getDataSetItems refusals and bounds on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  /** An instance whose sets live one second: its sets are expired by the time they are read. */
  let shortLived: TestApp;
  let ids: IdMap;
  const who = {} as Record<Who, string>;
  /** The 60 quizzes in id order: a set of user A and one of the API key alone. */
  const owned = {} as Record<'ofA' | 'ofKey', string>;
  /** A set of user A without members. */
  let emptySetOfA: string;
  let expiredSet: string;
  let expiredAt: number;

  async function rest(path: string, requester: Who): Promise<{ status: number; body: Json }> {
    const res = await app.get(`${path}&${who[requester]}`);
    return { status: res.status, body: (await res.json()) as Json };
  }

  async function makeQuizSet(requester: Who, tag: string, instance = app): Promise<Json> {
    const res = await instance.get(`/getQuizSet?tag=${tag}&${who[requester]}`);
    expect(res.status).toBe(200);
    return (await res.json()) as Json;
  }

  const items = (requester: Who, variables: Json) =>
    graphql(app.url, ITEMS, { variables, search: `?${who[requester]}` });

  /** A successful getDataSetItems: its connection. */
  async function connection(requester: Who, variables: Json): Promise<Json> {
    const answer = await items(requester, variables);
    expect(answer.body.errors).toBeUndefined();
    expect(answer.status).toBe(200);
    return answer.body.data?.getDataSetItems as Json;
  }

  /**
   * getDataSetPage's refusal on REST (status and type as `expected`, message per the contract),
   * then the same refusal on GraphQL getDataSetPage and, renamed, on GraphQL getDataSetItems.
   */
  async function expectRefusedAlike(
    dataSetId: string,
    requester: Who,
    expected: { status: number; type: string; parameterName?: string },
  ): Promise<Json> {
    const page = await rest(
      `/getDataSetPage?dataSetId=${encodeURIComponent(dataSetId)}`,
      requester,
    );
    const { parameterName, ...status } = expected;
    expect({ status: page.status, type: page.body.type }).toStrictEqual(status);
    // A missing parameter has no value to show.
    const shown = expected.type === 'MissingParameterException' ? {} : { providedValue: dataSetId };
    expect(page.body).toMatchObject({
      operation: 'getDataSetPage',
      ...(parameterName ? { parameterName, ...shown } : {}),
    });
    expect(page.body.message).toBe(contractMessage(page.body));
    const search = `?${who[requester]}`;
    expectGraphQLError(
      await graphql(app.url, PAGE, { variables: { dataSetId }, search }),
      'getDataSetPage',
      page.body,
      page.status,
    );
    const asItems = asOperation(page.body, 'getDataSetItems');
    // With and without its own arguments, even wrong ones: the set is checked first, as
    // getDataSetPage checks it before pageIndex, so it is refused whatever run is asked of it.
    for (const variables of [
      { dataSetId },
      { dataSetId, first: 0 },
      { dataSetId, first: 1000 },
      { dataSetId, first: -1 },
      { dataSetId, first: 1001 },
      { dataSetId, after: 'not a cursor!' },
    ]) {
      expectGraphQLError(
        await items(requester, variables),
        'getDataSetItems',
        asItems,
        page.status,
      );
    }
    return page.body;
  }

  /** A BadParameterException (400) on getDataSetItems' own argument. */
  function expectBadArgument(answer: GraphQLAnswer, parameterName: string, providedValue: string) {
    const error = answer.body.errors?.[0] as GraphQLErrorBody;
    expect(error?.extensions).toStrictEqual({
      code: 'BAD_USER_INPUT',
      type: 'BadParameterException',
      operation: 'getDataSetItems',
      reason: expect.any(String),
      parameterName,
      providedValue,
    });
    expectGraphQLError(
      answer,
      'getDataSetItems',
      {
        ...(error.extensions as Json),
        message: contractMessage(error.extensions as Json),
      },
      400,
    );
  }

  const cursor = (text: string) => Buffer.from(text).toString('base64url');

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'data_set_items_errors'));
    ids = await loadData(dataSource, DOCUMENT);
    const key = await createTestApiKey(dataSource, 'localhost');
    const otherKey = await createTestApiKey(dataSource, 'localhost');
    who.anonymous = `apiKey=${key.secret}`;
    who.otherKey = `apiKey=${otherKey.secret}`;
    for (const ref of ['A', 'B'] as const) {
      const token = await createTestToken(dataSource, Number(ids.users[ref]), key.id);
      who[ref] = `apiKey=${key.secret}&accessToken=${token}`;
    }
    app = await startTestApp(dataSource);
    shortLived = await startTestApp(dataSource, { DATASET_TTL_SECONDS: '1' });
    owned.ofA = String((await makeQuizSet('A', 'many')).dataSetId);
    owned.ofKey = String((await makeQuizSet('anonymous', 'many')).dataSetId);
    emptySetOfA = String((await makeQuizSet('A', 'none')).dataSetId);
    expiredSet = String((await makeQuizSet('anonymous', 'many', shortLived)).dataSetId);
    expiredAt = Date.now() + 1000;
  });

  afterAll(async () => {
    // Either close ends the shared data source; the other then finds it closed.
    await shortLived?.close();
    await app?.close();
    await close?.();
  });

  describe('the set, as getDataSetPage refuses it', () => {
    it.each([
      ['another user’s set', 'ofA', 'B', 403],
      ['a set an API key made alone, read by a user', 'ofKey', 'A', 403],
      ['another API key’s set', 'ofKey', 'otherKey', 403],
      ['a user’s set read with the key alone', 'ofA', 'anonymous', 401],
    ] as const)('%s: UnauthorizedOperationException', async (_name, set, requester, status) => {
      const body = await expectRefusedAlike(owned[set], requester, {
        status,
        type: 'UnauthorizedOperationException',
      });
      // Nothing about the set but its id (in the reason).
      expect(Object.keys(body).sort()).toStrictEqual(['message', 'operation', 'reason', 'type']);
    });

    it('an unknown set: 404 BadParameterException on dataSetId', async () => {
      await expectRefusedAlike('2000000000', 'A', {
        status: 404,
        type: 'BadParameterException',
        parameterName: 'dataSetId',
      });
    });

    it('an expired set: 404 BadParameterException on dataSetId, on either instance', async () => {
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, expiredAt - Date.now()) + 1100),
      );
      // The instance that made it knows the set from memory; the other reads it from the database.
      const answer = await graphql(shortLived.url, ITEMS, {
        variables: { dataSetId: expiredSet },
        search: `?${who.anonymous}`,
      });
      const body = await expectRefusedAlike(expiredSet, 'anonymous', {
        status: 404,
        type: 'BadParameterException',
        parameterName: 'dataSetId',
      });
      expectGraphQLError(answer, 'getDataSetItems', asOperation(body, 'getDataSetItems'), 404);
    });

    it.each(['abc', '0', '-1', '1.5', '99999999999'])(
      'a malformed set id %j: 400 BadParameterException on dataSetId',
      async (dataSetId) => {
        const body = await expectRefusedAlike(dataSetId, 'A', {
          status: 400,
          type: 'BadParameterException',
          parameterName: 'dataSetId',
        });
        // The id is refused first, not the cursor as one of "another" set.
        const first = await connection('A', { dataSetId: owned.ofA, first: 1 });
        expectGraphQLError(
          await items('A', { dataSetId, after: (first.pageInfo as Json).endCursor }),
          'getDataSetItems',
          asOperation(body, 'getDataSetItems'),
          400,
        );
      },
    );

    it('a blank set id: 400 MissingParameterException on dataSetId', async () => {
      // A blank id is no id: the resolver gets it (ID! holds " ") and says it is missing.
      await expectRefusedAlike(' ', 'A', {
        status: 400,
        type: 'MissingParameterException',
        parameterName: 'dataSetId',
      });
    });
  });

  describe('its own arguments', () => {
    it.each([-1, 1001, 2 ** 31 - 1, -(2 ** 31)])(
      'first %d: 400 BadParameterException on first',
      async (first) => {
        expectBadArgument(
          await items('A', { dataSetId: owned.ofA, first }),
          'first',
          String(first),
        );
      },
    );

    it.each([
      ['text that is no base64', () => 'not a cursor!'],
      ['base64 of no cursor', () => cursor('hello')],
      ['a position without its set', () => cursor('7')],
      ['a negative position', (id: string) => cursor(`${id}:-1`)],
      ['a fractional position', (id: string) => cursor(`${id}:1.5`)],
      ['a position in words', (id: string) => cursor(`${id}:one`)],
    ])('after %s: 400 BadParameterException on after', async (_name, after) => {
      const sent = after(owned.ofA);
      expectBadArgument(await items('A', { dataSetId: owned.ofA, after: sent }), 'after', sent);
    });

    it('after a cursor of another set: 400 BadParameterException on after', async () => {
      const ofKey = await connection('anonymous', { dataSetId: owned.ofKey, first: 1 });
      const foreign = (ofKey.pageInfo as Json).endCursor as string;
      expectBadArgument(
        await items('A', { dataSetId: owned.ofA, after: foreign }),
        'after',
        foreign,
      );
      // Another set of the same requester is no better.
      const ofA = await connection('A', { dataSetId: owned.ofA, first: 1 });
      expectBadArgument(
        await items('A', { dataSetId: emptySetOfA, after: (ofA.pageInfo as Json).endCursor }),
        'after',
        (ofA.pageInfo as Json).endCursor as string,
      );
    });

    it('pages on after a cursor of the same set named with leading zeros', async () => {
      const first = await connection('A', { dataSetId: owned.ofA, first: 1 });
      const next = await connection('A', {
        dataSetId: `00${owned.ofA}`,
        first: 1,
        after: (first.pageInfo as Json).endCursor,
      });
      expect((next.edges as Json[]).map((edge) => (edge.node as Json).title)).toStrictEqual([
        'Quiz q02',
      ]);
    });
  });

  describe('the bounds of first', () => {
    /** The quiz ids of getDataSetPage's page, as GraphQL ids. */
    async function pageIds(dataSetId: string, pageIndex: number): Promise<string[]> {
      const page = await rest(`/getDataSetPage?dataSetId=${dataSetId}&pageIndex=${pageIndex}`, 'A');
      expect(page.status).toBe(200);
      return (page.body.items as Json[]).map((item) => String(item.id));
    }
    const nodeIds = (run: Json) => (run.edges as Json[]).map((edge) => (edge.node as Json).id);

    it('without first: 50 edges, the set’s first page, then the other 10', async () => {
      const run = await connection('A', { dataSetId: owned.ofA });
      expect(run).toMatchObject({ dataSetId: owned.ofA, itemType: 'quiz', totalCount: 60 });
      expect(nodeIds(run)).toStrictEqual(await pageIds(owned.ofA, 1));
      expect(nodeIds(run)).toStrictEqual(QUIZZES.slice(0, 50).map((ref) => ids.quizzes[ref]));
      const edges = run.edges as Json[];
      expect(run.pageInfo).toStrictEqual({
        hasNextPage: true,
        hasPreviousPage: false,
        startCursor: edges[0]?.cursor,
        endCursor: edges[49]?.cursor,
      });
      expect(new Set(edges.map((edge) => edge.cursor)).size).toBe(50);
      const rest10 = await connection('A', {
        dataSetId: owned.ofA,
        after: (run.pageInfo as Json).endCursor,
      });
      expect(rest10).toMatchObject({ totalCount: 60 });
      expect(nodeIds(rest10)).toStrictEqual(await pageIds(owned.ofA, 2));
      expect(rest10.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    });

    it('first 0: no edges, the whole set counted, a next page while items remain', async () => {
      const none = await connection('A', { dataSetId: owned.ofA, first: 0 });
      expect(none).toStrictEqual({
        dataSetId: owned.ofA,
        itemType: 'quiz',
        totalCount: 60,
        edges: [],
        pageInfo: { hasNextPage: true, hasPreviousPage: false, startCursor: null, endCursor: null },
      });
      const all = await connection('A', { dataSetId: owned.ofA, first: 1000 });
      expect(nodeIds(all)).toStrictEqual(QUIZZES.map((ref) => ids.quizzes[ref]));
      expect(all.pageInfo).toMatchObject({ hasNextPage: false });
      const last = (all.pageInfo as Json).endCursor;
      expect(await connection('A', { dataSetId: owned.ofA, first: 0, after: last })).toMatchObject({
        totalCount: 60,
        edges: [],
        pageInfo: { hasNextPage: false, hasPreviousPage: true, startCursor: null, endCursor: null },
      });
      expect(await connection('A', { dataSetId: emptySetOfA, first: 0 })).toMatchObject({
        totalCount: 0,
        edges: [],
        pageInfo: { hasNextPage: false, hasPreviousPage: false },
      });
      expect(await connection('A', { dataSetId: emptySetOfA })).toMatchObject({
        totalCount: 0,
        edges: [],
        pageInfo: { hasNextPage: false },
      });
    });
  });
});

import { ApolloClient, InMemoryCache, gql } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { cacheExchange, Client as UrqlClient, fetchExchange } from '@urql/core';
import { GraphQLClient } from 'graphql-request';
import { createClient } from 'graphql-ws';
import type { DataSource } from 'typeorm';
import WebSocket from 'ws';
import { loadData } from '../../src/data/import/bulk-loader';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend } from '../helpers/database';
import { LIVE_CLASS } from '../helpers/fixtures';

/**
 * The GraphQL clients people use, as dev dependencies with their default settings (contract.md
 * §15), against the running service: urql (queries as GET, the key in X-Api-Key),
 * graphql-request through the typical flow, and a subscription through Apollo Client's
 * GraphQLWsLink. Expected results come from the fixture's answers, not from the service.
 */

type Json = Record<string, unknown>;

/** nbGoodAnswers of each attempt of session S, counted from LIVE_CLASS's answers by hand. */
function expectedAttemptsOfS(ids: { users: Json; quizzes: Json }): string[] {
  const goodAnswers = new Map(
    (LIVE_CLASS.quizzes ?? []).map((quiz) => [
      quiz.ref,
      (quiz.questions ?? []).map((question) => (question as { goodAnswer?: unknown }).goodAnswer),
    ]),
  );
  const good = new Map<string, number>();
  for (const answer of LIVE_CLASS.answers ?? []) {
    if (answer.session !== 'S') continue;
    const key = `${String(ids.users[answer.user])}/${String(ids.quizzes[answer.quiz])}`;
    const right = goodAnswers.get(answer.quiz)?.[answer.question] === answer.answer ? 1 : 0;
    good.set(key, (good.get(key) ?? 0) + right);
  }
  return [...good].map(([key, count]) => `${key}:${count}`).sort();
}

/** An attempt as `userId/quizId:nbGoodAnswers`, to compare sets of them. */
function attempts(items: readonly Json[]): string[] {
  return items
    .map((item) => `${String(item.userId)}/${String(item.quizId)}:${String(item.nbGoodAnswers)}`)
    .sort();
}

describe.each(BACKENDS)('third-party GraphQL clients on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let ids: { users: Json; quizzes: Json; sessions: Json };
  let key: { id: number; secret: string };
  let teacherToken: string;

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'third_party_clients'));
    ids = (await loadData(dataSource, LIVE_CLASS)) as typeof ids;
    key = await createTestApiKey(dataSource, 'localhost');
    teacherToken = await createTestToken(dataSource, Number(ids.users.t), key.id);
    app = await startTestApp(dataSource);
  });

  afterAll(async () => {
    await app?.close();
    await close();
  });

  it('urql with its defaults sends a query as GET with X-Api-Key, and gets the data', async () => {
    const client = new UrqlClient({
      url: `${app.url}/graphql`,
      // urql's documented setup; exchanges have no default.
      exchanges: [cacheExchange, fetchExchange],
      fetchOptions: { headers: { 'X-Api-Key': key.secret } },
    });
    const result = await client
      .query<{ getQuiz: { id: string; title: string; tags: string[] } }>(
        'query Quiz($id: ID!) { getQuiz(quizId: $id) { id title tags } }',
        { id: String(ids.quizzes.q1) },
      )
      .toPromise();
    expect(result.error).toBeUndefined();
    const q1 = (LIVE_CLASS.quizzes ?? [])[0];
    // The document cache adds __typename to every selection.
    expect(result.data?.getQuiz).toEqual({
      __typename: 'Quiz',
      id: String(ids.quizzes.q1),
      title: q1.title,
      tags: q1.tags,
    });
    // It went as GET: the service's own log line says so.
    const lines = app.logs.records().filter((record) => {
      const req = record.req as { method?: string; url?: string } | undefined;
      return req?.url?.startsWith('/graphql?') && req.method === 'GET';
    });
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines.map((line) => (line.res as { statusCode: number }).statusCode)).toContain(200);
  });

  it('graphql-request runs the typical flow with the token: user set, quiz set, results', async () => {
    const client = new GraphQLClient(`${app.url}/graphql`, {
      headers: { 'X-Api-Key': key.secret, Authorization: `Bearer ${teacherToken}` },
    });
    const sets = await client.request<{
      getUserSet: { dataSetId: string; totalNumberOfItems: number };
      getQuizSet: { dataSetId: string; totalNumberOfItems: number };
    }>(
      `query Sets($s: ID!) {
        getUserSet(sessionId: $s) { dataSetId totalNumberOfItems }
        getQuizSet(sessionId: $s) { dataSetId totalNumberOfItems }
      }`,
      { s: String(ids.sessions.S) },
    );
    const session = (LIVE_CLASS.sessions ?? []).find((s) => s.ref === 'S');
    expect(sets.getUserSet.totalNumberOfItems).toBe(session?.attendees?.length);
    expect(sets.getQuizSet.totalNumberOfItems).toBe(session?.quizzes?.length);

    const results = await client.request<{
      getResults: { totalNumberOfItems: number; items: Json[] };
    }>(
      `query Results($u: ID!, $q: ID!, $s: ID!) {
        getResults(userSetId: $u, quizSetId: $q, sessionId: $s, resultTypes: [nbGoodAnswers]) {
          totalNumberOfItems
          items { ... on ComputedResult { userId quizId nbGoodAnswers } }
        }
      }`,
      { u: sets.getUserSet.dataSetId, q: sets.getQuizSet.dataSetId, s: String(ids.sessions.S) },
    );
    expect(attempts(results.getResults.items)).toEqual(expectedAttemptsOfS(ids));
    expect(results.getResults.totalNumberOfItems).toBe(results.getResults.items.length);
  });

  it("delivers sessionResults through Apollo Client's GraphQLWsLink to the session's owner", async () => {
    const wsClient = createClient({
      url: `${app.url.replace(/^http/, 'ws')}/graphql`,
      // Node 20 has no global WebSocket: ws's, as the README says.
      webSocketImpl: WebSocket,
      connectionParams: { apiKey: key.secret, accessToken: teacherToken },
    });
    const client = new ApolloClient({
      link: new GraphQLWsLink(wsClient),
      cache: new InMemoryCache(),
    });
    try {
      const first = await new Promise<{ data?: unknown; error?: unknown }>((resolve, reject) => {
        const subscription = client
          .subscribe<{ sessionResults: Json[] }>({
            query: gql`
              subscription Live($s: ID!) {
                sessionResults(sessionId: $s, resultTypes: [nbGoodAnswers]) {
                  id
                  userId
                  quizId
                  nbGoodAnswers
                }
              }
            `,
            variables: { s: String(ids.sessions.S) },
          })
          .subscribe({
            next: (result) => {
              subscription.unsubscribe();
              resolve(result);
            },
            error: reject,
          });
      });
      expect(first.error).toBeUndefined();
      const items = (first.data as { sessionResults: Json[] }).sessionResults;
      expect(attempts(items)).toEqual(expectedAttemptsOfS(ids));
    } finally {
      client.stop();
      await wsClient.dispose();
    }
  });
});

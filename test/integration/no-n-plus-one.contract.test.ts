import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap, ImportDocument } from '../../src/data/import/import-document';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend } from '../helpers/database';
import { requestStatements, StatementCounter } from '../helpers/statement-counter';
import { graphql } from '../helpers/graphql';

/**
 * 50 quizzes by 10 authors, 2 questions each. q0 is private, played in a session P attended;
 * the others are public. Tag `small` marks q1..q5 (5 public quizzes), `mine` q0..q4 (5 quizzes
 * P sees, one of them private); P has flags on q0..q9.
 */
const QUIZ_COUNT = 50;
const AUTHORS = Array.from({ length: 10 }, (_, i) => `A${i}`);

const DOCUMENT: ImportDocument = {
  users: [
    ...AUTHORS.map((ref) => ({
      ref,
      email: `${ref.toLowerCase()}@school.example`,
      firstName: 'Author',
      lastName: ref,
    })),
    { ref: 'P', email: 'p@school.example', firstName: 'Pupil', lastName: 'P' },
  ],
  quizzes: Array.from({ length: QUIZ_COUNT }, (_, i) => ({
    ref: `q${i}`,
    author: AUTHORS[i % AUTHORS.length],
    title: `Quiz number ${i}`,
    visibility: i === 0 ? ('private' as const) : ('public' as const),
    survey: false,
    tags: [
      'all',
      `topic${i % 3}`,
      ...(i >= 1 && i <= 5 ? ['small'] : []),
      ...(i <= 4 ? ['mine'] : []),
    ],
    questions: [
      { title: `Question ${i}.1`, type: 'TrueFalse', goodAnswer: true },
      {
        title: `Question ${i}.2`,
        type: 'MultipleChoicesOneGoodAnswer',
        propositions: ['yes', 'no'],
        goodAnswer: 0,
      },
    ],
  })),
  sessions: [
    {
      ref: 'S',
      owner: 'A0',
      title: 'The private one',
      startDate: '2026-09-01 09:00:00',
      quizzes: ['q0'],
      attendees: [{ user: 'P' }],
    },
  ],
  flags: Array.from({ length: 10 }, (_, i) => ({ user: 'P', quiz: `q${i}`, favorite: true })),
};

describe.each(BACKENDS)('no N+1 on data set pages, REST and GraphQL (%s)', (backend) => {
  const logger = new StatementCounter();
  let dataSource: DataSource;
  let close: () => Promise<void> = async () => undefined;
  let app: TestApp;
  let ids: IdMap;
  const credentials = { anonymous: '', P: '' };

  async function get(path: string): Promise<Record<string, unknown>> {
    const res = await app.get(path);
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status).toBe(200);
    return body;
  }

  /** Statements run by getDataSetPage of a set, with the page it returned. */
  async function pageCost(requester: keyof typeof credentials, dataSetId: string) {
    const { result: page, statements } = await logger.count(() =>
      get(`/getDataSetPage?${credentials[requester]}&dataSetId=${dataSetId}`),
    );
    return { page, statements: requestStatements(statements) };
  }

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'n_plus_one', { logger }));
    ids = await loadData(dataSource, DOCUMENT);
    const key = await createTestApiKey(dataSource, 'localhost');
    credentials.anonymous = `apiKey=${key.secret}`;
    credentials.P = `apiKey=${key.secret}&accessToken=${await createTestToken(dataSource, Number(ids.users.P), key.id)}`;
    app = await startTestApp(dataSource);
    // The credentials cache serves once a read of credential changes confirmed it (a request
    // starts the watch): no lookup then falls into a count by chance.
    await app.get(`/getUser?userId=${ids.users.P}&${credentials.P}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  });

  afterAll(async () => {
    // Closing the app closes the data source.
    await app?.close();
    await close();
  });

  it.each([
    ['anonymous', 'small'],
    ['P', 'mine'],
  ] as const)(
    'a page of 5 quizzes and a page of 50 cost the same statements (%s)',
    async (requester, smallTag) => {
      const make = async (tag: string) =>
        String(
          (
            await get(
              `/getQuizSet?${credentials[requester]}&tag=${tag}&numberOfItemsPerPage=${QUIZ_COUNT}`,
            )
          ).dataSetId,
        );
      const small = await pageCost(requester, await make(smallTag));
      const large = await pageCost(requester, await make('all'));

      const smallItems = small.page.items as Record<string, unknown>[];
      const largeItems = large.page.items as Record<string, unknown>[];
      expect(smallItems).toHaveLength(5);
      // Anonymous requesters do not see the private q0.
      expect(largeItems).toHaveLength(requester === 'anonymous' ? QUIZ_COUNT - 1 : QUIZ_COUNT);
      // The pages are complete: authors, tags and questions of every quiz were loaded.
      for (const item of largeItems) {
        expect(item).toMatchObject({
          author: { firstName: 'Author' },
          nbQuestions: 2,
          tags: expect.arrayContaining(['all']) as unknown,
        });
        expect(item.questions).toHaveLength(2);
        if (requester === 'P') expect(typeof item.favorite).toBe('boolean');
      }
      if (requester === 'P') {
        expect(smallItems.map((item) => item.id)).toContain(ids.quizzes.q0);
        expect(largeItems.find((item) => item.id === ids.quizzes.q1)).toMatchObject({
          favorite: true,
        });
      }

      expect(large.statements.length).toBe(small.statements.length);
      // A handful of batched reads, not one per quiz.
      expect(small.statements.length).toBeLessThan(15);
    },
  );

  it.each(['anonymous', 'P'] as const)(
    'a GraphQL page of 5 quizzes and one of 50, with authors and questions, cost the same statements (%s)',
    async (requester) => {
      const query = `query ($tag: String!) {
        getQuizSet(tag: $tag, numberOfItemsPerPage: 50) {
          totalNumberOfItems
          items { ... on Quiz { id title favorite author { id firstName lastName } questions { position title } tags } }
        }
      }`;
      const cost = async (tag: string) => {
        const { result, statements } = await logger.count(() =>
          graphql(app.url, query, { variables: { tag }, search: `?${credentials[requester]}` }),
        );
        expect(result.status).toBe(200);
        expect(result.body.errors).toBeUndefined();
        const set = result.body.data?.getQuizSet as { items: Record<string, unknown>[] };
        return { items: set.items, statements: requestStatements(statements) };
      };
      const small = await cost(requester === 'anonymous' ? 'small' : 'mine');
      const large = await cost('all');
      expect(small.items).toHaveLength(5);
      expect(large.items).toHaveLength(requester === 'anonymous' ? QUIZ_COUNT - 1 : QUIZ_COUNT);
      for (const item of large.items) {
        expect(item).toMatchObject({ author: { firstName: 'Author' } });
        expect(item.questions).toHaveLength(2);
      }
      // Making the set is one statement whatever its size; reading the page is batched. The
      // charge is paid in memory from a leased slice (a lease, when one falls in, is no cost of
      // the page: requestStatements leaves it out, as it does background reads).
      expect(large.statements.length).toBe(small.statements.length);
      expect(small.statements.length).toBeLessThan(24);
    },
  );

  it('a GraphQL page of quiz statistics with their questions and quizzes: 50 quizzes cost no more statements than 5', async () => {
    const sets = async (tag: string) => {
      const users = await get(`/getUserSet?${credentials.P}&userId=${ids.users.P}`);
      const quizzes = await get(`/getQuizSet?${credentials.P}&tag=${tag}`);
      return { u: String(users.dataSetId), q: String(quizzes.dataSetId) };
    };
    const query = `query ($u: ID!, $q: ID!) {
      getQuizStatistics(userSetId: $u, quizSetId: $q, numberOfItemsPerPage: 50) {
        items { ... on QuizStatistic { quizId nbAttempts histogram quiz { title author { lastName } }
          questions { questionIndex title facility quiz { title } } } }
      }
    }`;
    const cost = async (tag: string) => {
      const variables = await sets(tag);
      const { result, statements } = await logger.count(() =>
        graphql(app.url, query, { variables, search: `?${credentials.P}` }),
      );
      expect(result.body.errors).toBeUndefined();
      const set = result.body.data?.getQuizStatistics as { items: Record<string, unknown>[] };
      return { items: set.items, statements: requestStatements(statements) };
    };
    const small = await cost('mine');
    const large = await cost('all');
    expect([small.items.length, large.items.length]).toEqual([5, QUIZ_COUNT]);
    for (const item of large.items) {
      expect(item.questions).toHaveLength(2);
      expect(item.quiz).toMatchObject({ author: { lastName: expect.any(String) } });
    }
    // No more for 50 than for 5. (The 5 cost a little more here: the author of the private
    // quiz, whose view waits for the read decision, wrote no other quiz among them.)
    expect(large.statements.length).toBeLessThanOrEqual(small.statements.length);
    expect(small.statements.length).toBeLessThan(32);
  });
});

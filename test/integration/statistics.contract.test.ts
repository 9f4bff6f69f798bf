import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap, ImportDocument } from '../../src/data/import/import-document';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend } from '../helpers/database';
import { graphql } from '../helpers/graphql';
import { QuizApiClient } from '@quiz-results/client';
import { DataSet } from '../../src/db/entities';
import { databaseOf } from '../../src/db/database';
import { purgeExpiredDataSets } from '../../src/services/sets/data-set.service';

/**
 * getQuestionStatistics and getQuizStatistics (contract.md §12) as clients meet them: who may
 * ask, which attempts each requester's statistics count, the errors of getResults on both
 * transports, paging, export, and QuizStatistic.questions. The numbers themselves are held by
 * statistics-oracle and statistics-known-values.
 *
 * Teachers T (owns S1) and U (owns S2); pupils a, b, c attend both. Quiz Q: two TrueFalse
 * questions (good answer true) and a multiple choice of 3 propositions (good: 0 and 2).
 * - In S1: a answers all three well; b answers the first well and chooses [0] in the third.
 * - In S2: c answers the first wrong and nothing else.
 * So T counts 2 attempts of Q (S1), U counts 1 (S2).
 */

const DOCUMENT: ImportDocument = {
  users: ['T', 'U', 'a', 'b', 'c'].map((ref) => ({
    ref,
    email: `${ref.toLowerCase()}@statistics.example`,
    firstName: ref,
    lastName: 'Statistics',
  })),
  quizzes: [
    {
      ref: 'Q',
      author: 'T',
      title: 'Statistics quiz',
      visibility: 'public',
      survey: false,
      tags: ['stats', 'itemanalysis'],
      questions: [
        { title: 'First', type: 'TrueFalse', goodAnswer: true },
        { title: 'Second', type: 'TrueFalse', goodAnswer: true },
        {
          title: 'Third',
          type: 'MultipleChoicesSeveralGoodAnswers',
          propositions: ['zero', 'one', 'two'],
          goodAnswer: [0, 2],
        },
      ],
    },
  ],
  sessions: ['S1', 'S2'].map((ref, index) => ({
    ref,
    owner: index === 0 ? 'T' : 'U',
    title: `Statistics ${ref}`,
    startDate: `2026-10-0${index + 1} 08:00:00`,
    quizzes: ['Q'],
    attendees: ['a', 'b', 'c'].map((user) => ({ user })),
  })),
  answers: [
    {
      session: 'S1',
      user: 'a',
      quiz: 'Q',
      question: 0,
      answer: true,
      answeredAt: '2026-10-01 09:00:00',
    },
    {
      session: 'S1',
      user: 'a',
      quiz: 'Q',
      question: 1,
      answer: true,
      answeredAt: '2026-10-01 09:00:10',
    },
    {
      session: 'S1',
      user: 'a',
      quiz: 'Q',
      question: 2,
      answer: [0, 2],
      answeredAt: '2026-10-01 09:00:20',
    },
    {
      session: 'S1',
      user: 'b',
      quiz: 'Q',
      question: 0,
      answer: true,
      answeredAt: '2026-10-01 09:00:00',
    },
    {
      session: 'S1',
      user: 'b',
      quiz: 'Q',
      question: 2,
      answer: [0],
      answeredAt: '2026-10-01 09:00:30',
    },
    {
      session: 'S2',
      user: 'c',
      quiz: 'Q',
      question: 0,
      answer: false,
      answeredAt: '2026-10-02 09:00:00',
    },
  ],
};

type Requester = 'anonymous' | 'T' | 'U';
type Body = Record<string, unknown>;
type Item = Record<string, unknown>;

const OPERATIONS = ['getQuestionStatistics', 'getQuizStatistics'] as const;

describe.each(BACKENDS)('item statistics on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let ids: IdMap;
  const credentials = {} as Record<Requester, { apiKey: string; accessToken?: string }>;
  const sets = {} as Record<Requester, { userSetId: string; quizSetId: string }>;

  async function rest(operation: string, requester: Requester, params: Record<string, string>) {
    const query = new URLSearchParams(
      Object.entries({ ...credentials[requester], ...params }).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      ),
    );
    const res = await app.get(`/${operation}?${query.toString()}`);
    return { status: res.status, body: (await res.json()) as Body };
  }

  async function page(operation: string, requester: Requester, params: Record<string, string>) {
    const reply = await rest(operation, requester, params);
    expect({ operation, status: reply.status }).toEqual({ operation, status: 200 });
    return reply.body as Body & { dataSetId: string; items: Item[] };
  }

  function headers(requester: Requester): Record<string, string> {
    const { apiKey, accessToken } = credentials[requester];
    return {
      'x-api-key': apiKey,
      ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
    };
  }

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'statistics'));
    ids = await loadData(dataSource, DOCUMENT);
    const key = await createTestApiKey(dataSource, 'localhost');
    credentials.anonymous = { apiKey: key.secret };
    for (const ref of ['T', 'U'] as const) {
      credentials[ref] = {
        apiKey: key.secret,
        accessToken: await createTestToken(dataSource, Number(ids.users[ref]), key.id),
      };
    }
    app = await startTestApp(dataSource);
    for (const requester of ['anonymous', 'T', 'U'] as const) {
      const users = await page('getUserSet', requester, { quizId: String(ids.quizzes.Q) });
      const quizzes = await page('getQuizSet', requester, { tag: 'itemanalysis' });
      sets[requester] = { userSetId: users.dataSetId, quizSetId: quizzes.dataSetId };
    }
  });

  afterAll(async () => {
    await app?.close();
    await close?.();
  });

  it('counts only the attempts the requester may see in detail: its sessions and its own', async () => {
    const counts = async (requester: 'T' | 'U') => {
      const quizzes = await page('getQuizStatistics', requester, sets[requester]);
      const questions = await page('getQuestionStatistics', requester, sets[requester]);
      return {
        quiz: quizzes.items.map((item) => [item.quizId, item.nbAttempts]),
        questions: questions.items.map((item) => [item.questionIndex, item.nbAnswers]),
      };
    };
    const quizId = String(ids.quizzes.Q);
    expect(await counts('T')).toEqual({
      quiz: [[quizId, 2]],
      questions: [
        [0, 2],
        [1, 1],
        [2, 2],
      ],
    });
    expect(await counts('U')).toEqual({
      quiz: [[quizId, 1]],
      questions: [
        [0, 1],
        [1, 0],
        [2, 0],
      ],
    });
  });

  it('gives the items of contract §12 on REST, ids as strings', async () => {
    const questions = await page('getQuestionStatistics', 'T', sets.T);
    expect(questions).toMatchObject({ itemType: 'questionStatistic', totalNumberOfItems: 3 });
    // T's two attempts: a 3 good, b 1 good. Third question: a [0,2], b [0] → counts 2, 0, 1.
    expect(questions.items[2]).toEqual({
      id: '3',
      quizId: String(ids.quizzes.Q),
      questionIndex: 2,
      title: 'Third',
      type: 'MultipleChoicesSeveralGoodAnswers',
      nbAttempts: 2,
      nbAnswers: 2,
      facility: 50,
      // x = (1, 0), rest = (2, 1): a perfect correlation.
      discrimination: 1,
      choiceCounts: [2, 0, 1],
    });
    const quizzes = await page('getQuizStatistics', 'T', sets.T);
    expect(quizzes.items).toEqual([
      {
        id: '1',
        quizId: String(ids.quizzes.Q),
        nbAttempts: 2,
        // 100 % and 33.33 %.
        mean: 66.67,
        median: 66.67,
        stddev: 33.33,
        cronbachAlpha: expect.any(Number),
        histogram: [0, 0, 0, 1, 0, 0, 0, 0, 0, 1],
      },
    ]);
  });

  it('refuses anonymous requesters on both transports, before reading the sets', async () => {
    for (const operation of OPERATIONS) {
      const reply = await rest(operation, 'anonymous', sets.anonymous);
      expect([operation, reply.status, reply.body.type]).toEqual([
        operation,
        401,
        'UnauthorizedOperationException',
      ]);
      const { body } = await graphql(
        app.url,
        `query($u: ID!, $q: ID!) { ${operation}(userSetId: $u, quizSetId: $q) { dataSetId } }`,
        {
          variables: { u: sets.anonymous.userSetId, q: sets.anonymous.quizSetId },
          headers: headers('anonymous'),
        },
      );
      expect([
        operation,
        body.errors?.[0]?.extensions?.type,
        body.errors?.[0]?.extensions?.code,
      ]).toEqual([operation, 'UnauthorizedOperationException', 'UNAUTHENTICATED']);
    }
  });

  it("answers the errors of getResults: missing, wrong item type, another requester's, unknown", async () => {
    // A 403 names no parameter, as for getResults: the set exists, it is someone else's.
    const cases: [string, Record<string, string>, number, string, string | undefined][] = [
      ['missing userSetId', { userSetId: '' }, 400, 'MissingParameterException', 'userSetId'],
      ['quiz set as users', { userSetId: 'QUIZ' }, 400, 'BadParameterException', 'userSetId'],
      ['user set as quizzes', { quizSetId: 'USER' }, 400, 'BadParameterException', 'quizSetId'],
      ["U's user set", { userSetId: 'OTHER' }, 403, 'UnauthorizedOperationException', undefined],
      ['unknown set', { quizSetId: '999999' }, 404, 'BadParameterException', 'quizSetId'],
      ['bad sessionIds', { sessionIds: '1,x' }, 400, 'BadParameterException', 'sessionIds'],
    ];
    const resolve = (value: string) =>
      value === 'QUIZ'
        ? sets.T.quizSetId
        : value === 'USER'
          ? sets.T.userSetId
          : value === 'OTHER'
            ? sets.U.userSetId
            : value;
    for (const operation of OPERATIONS) {
      for (const [name, change, status, type, parameterName] of cases) {
        const params = Object.fromEntries(
          Object.entries({ ...sets.T, ...change })
            .filter(([, value]) => value !== '')
            .map(([key, value]) => [key, resolve(value)]),
        );
        const reply = await rest(operation, 'T', params);
        expect([operation, name, reply.status, reply.body.type, reply.body.parameterName]).toEqual([
          operation,
          name,
          status,
          type,
          parameterName,
        ]);
        expect(reply.body.operation).toBe(operation);
        if (name === 'missing userSetId' || name === 'bad sessionIds') continue;
        const { body } = await graphql(
          app.url,
          `query($u: ID!, $q: ID!) { ${operation}(userSetId: $u, quizSetId: $q) { dataSetId } }`,
          { variables: { u: params.userSetId, q: params.quizSetId }, headers: headers('T') },
        );
        expect([operation, name, body.errors?.[0]?.extensions?.type]).toEqual([
          operation,
          name,
          type,
        ]);
      }
    }
  });

  it('keeps the set for paging by its maker only, refuses to combine it, and exports it', async () => {
    const first = await page('getQuestionStatistics', 'T', {
      ...sets.T,
      numberOfItemsPerPage: '2',
    });
    expect(first).toMatchObject({ numberOfPages: 2, totalNumberOfItems: 3 });
    const second = await page('getDataSetPage', 'T', {
      dataSetId: first.dataSetId,
      pageIndex: '2',
    });
    expect(second.items.map((item) => item.title)).toEqual(['Third']);
    const stranger = await rest('getDataSetPage', 'U', { dataSetId: first.dataSetId });
    expect([stranger.status, stranger.body.type]).toEqual([403, 'UnauthorizedOperationException']);
    const combined = await rest('computeDataSet', 'T', {
      dataSetId1: first.dataSetId,
      dataSetId2: first.dataSetId,
      operator: 'union',
    });
    expect([combined.status, combined.body.type]).toEqual([400, 'BadParameterException']);
    const csv = await app.get(
      `/exportDataSet?apiKey=${credentials.T.apiKey}&accessToken=${credentials.T.accessToken}&dataSetId=${first.dataSetId}&format=csv`,
    );
    const lines = (await csv.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'id,quizId,questionIndex,title,type,nbAttempts,nbAnswers,facility,discrimination,choiceCounts',
    );
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe(
      `3,${ids.quizzes.Q},2,Third,MultipleChoicesSeveralGoodAnswers,2,2,50,1,"[2,0,1]"`,
    );
  });

  it('purges expired item analysis sets, members and all', async () => {
    const quizzes = await page('getQuizStatistics', 'T', sets.T);
    const questions = await page('getQuestionStatistics', 'T', sets.T);
    const kept = await page('getQuestionStatistics', 'T', sets.T);
    const rows = async (table: string, id: string) =>
      Number(
        (
          (await dataSource.query(`SELECT COUNT(*) AS n FROM ${table} WHERE data_set_id = ?`, [
            Number(id),
          ])) as { n: unknown }[]
        )[0]?.n,
      );
    for (const id of [quizzes.dataSetId, questions.dataSetId]) {
      await dataSource
        .getRepository(DataSet)
        .update(Number(id), { expiresAt: new Date(Date.now() - 60_000) });
    }
    await purgeExpiredDataSets({ db: databaseOf(dataSource) });
    expect([
      await rows('quiz_statistics', quizzes.dataSetId),
      await rows('question_statistics', questions.dataSetId),
      await rows('question_statistics', kept.dataSetId),
    ]).toEqual([0, 0, 3]);
  });

  it('GraphQL: QuizStatistic.questions needs the sets its statistics were made from', async () => {
    // A user set of its own, which then expires; the statistics set made from it does not.
    const users = await page('getUserSet', 'T', { quizId: String(ids.quizzes.Q) });
    const made = await page('getQuizStatistics', 'T', { ...sets.T, userSetId: users.dataSetId });
    const questions = `query($id: ID!) {
      getDataSetPage(dataSetId: $id) { items { ... on QuizStatistic { nbAttempts questions { title } } } }
    }`;
    const before = await graphql(app.url, questions, {
      variables: { id: made.dataSetId },
      headers: headers('T'),
    });
    expect(before.body.errors).toBeUndefined();
    await dataSource
      .getRepository(DataSet)
      .update(Number(users.dataSetId), { expiresAt: new Date(Date.now() - 60_000) });
    await purgeExpiredDataSets({ db: databaseOf(dataSource) });
    const after = await graphql(app.url, questions, {
      variables: { id: made.dataSetId },
      headers: headers('T'),
    });
    expect(after.body.errors?.map((error) => [error.path, error.extensions?.type])).toEqual([
      [['getDataSetPage', 'items', 0, 'questions'], 'BadParameterException'],
    ]);
    expect(after.body.errors?.[0]?.message).toMatch(/userSetId/);
  });

  it('the client pages both sets like REST', async () => {
    const api = new QuizApiClient({
      baseUrl: app.url,
      apiKey: credentials.T.apiKey,
      accessToken: credentials.T.accessToken,
    });
    const questions = await api.getQuestionStatistics({ ...sets.T, numberOfItemsPerPage: 2 });
    const all: unknown[] = [];
    for await (const item of questions) all.push(item);
    const rest = await page('getQuestionStatistics', 'T', sets.T);
    expect(all).toEqual(rest.items);
    const quizzes = await api.getQuizStatistics({
      ...sets.T,
      sessionIds: [ids.sessions.S1 as string],
    });
    expect(quizzes.itemType).toBe('quizStatistic');
    expect(quizzes.items.map((item) => [item.quizId, item.nbAttempts])).toEqual([
      [String(ids.quizzes.Q), 2],
    ]);
    // T's attempts in U's session: none.
    const elsewhere = await api.getQuizStatistics({
      ...sets.T,
      sessionId: ids.sessions.S2 as string,
    });
    expect(elsewhere.items.map((item) => [item.nbAttempts, item.mean, item.histogram])).toEqual([
      [0, null, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]],
    ]);
  });

  it('GraphQL: QuizStatistic.questions and quiz, equal to the question statistics', async () => {
    const { body } = await graphql(
      app.url,
      `
        query ($u: ID!, $q: ID!) {
          quizzes: getQuizStatistics(userSetId: $u, quizSetId: $q) {
            itemType
            items {
              ... on QuizStatistic {
                quizId
                nbAttempts
                histogram
                quiz {
                  title
                }
                questions {
                  ...Question
                }
              }
            }
          }
          questions: getQuestionStatistics(userSetId: $u, quizSetId: $q) {
            items {
              ... on QuestionStatistic {
                ...Question
                quiz {
                  title
                }
              }
            }
          }
        }
        fragment Question on QuestionStatistic {
          itemId
          questionIndex
          title
          type
          facility
          discrimination
          choiceCounts
          nbAnswers
        }
      `,
      { variables: { u: sets.T.userSetId, q: sets.T.quizSetId }, headers: headers('T') },
    );
    expect(body.errors).toBeUndefined();
    const data = body.data as {
      quizzes: { itemType: string; items: (Item & { questions: Item[] })[] };
      questions: { items: Item[] };
    };
    expect(data.quizzes.itemType).toBe('quizStatistic');
    expect(data.quizzes.items[0]).toMatchObject({
      quizId: String(ids.quizzes.Q),
      nbAttempts: 2,
      quiz: { title: 'Statistics quiz' },
    });
    expect(data.questions.items.map((item) => item.quiz)).toEqual(
      Array(3).fill({ title: 'Statistics quiz' }),
    );
    // Same numbers; itemIds are positions within each list (ids name the set, contract §15).
    const withoutQuiz = data.questions.items.map(({ quiz: _quiz, ...rest }) => rest);
    expect(data.quizzes.items[0]?.questions).toEqual(withoutQuiz);
  });
});

import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap, ImportDocument } from '../../src/data/import/import-document';
import { openDatabase } from '../../src/db/data-source';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openTestDatabase, type TestDatabase } from '../helpers/database';
import { graphql } from '../helpers/graphql';

/**
 * The cost of abstract selections (contract.md §15, §11): a selection on a union or an
 * interface costs its most expensive possible type, so a session's three sets with full item
 * fragments are an ordinary request; a page size over 1,000 is the BadParameterException of
 * REST, not a cost refusal.
 */

const DOCUMENT: ImportDocument = {
  users: [
    { ref: 'T', email: 't@cost.example', firstName: 'Tara', lastName: 'Teacher' },
    { ref: 'p', email: 'p@cost.example', firstName: 'Paul', lastName: 'Pupil' },
  ],
  quizzes: [
    {
      ref: 'q',
      author: 'T',
      title: 'Costs',
      visibility: 'public',
      survey: false,
      tags: ['cost', 'limits'],
      questions: [
        { title: 'Yes?', type: 'TrueFalse', goodAnswer: true },
        {
          title: 'Pick',
          type: 'MultipleChoicesOneGoodAnswer',
          propositions: ['a', 'b'],
          goodAnswer: 1,
        },
      ],
    },
  ],
  sessions: [
    {
      ref: 'S',
      owner: 'T',
      title: 'Monday',
      startDate: '2026-10-01 09:00:00',
      quizzes: ['q'],
      attendees: [{ user: 'p' }],
    },
  ],
  answers: [
    {
      session: 'S',
      user: 'p',
      quiz: 'q',
      question: 0,
      answer: true,
      answeredAt: '2026-10-01 09:01:00',
    },
  ],
};

/**
 * Every field of every item type, nested objects in full; the statistics' quizId and nbAnswers
 * aliased, for ComputedResult has fields of those names and other types.
 */
const FRAGMENTS = `
fragment UserFields on User { id firstName lastName pictureURL }
fragment QuestionFields on Question {
  title type position media { type url }
  ... on MultipleChoicesOneGoodAnswerQuestion { propositions one: goodAnswer }
  ... on MultipleChoicesSeveralGoodAnswersQuestion { propositions several: goodAnswer }
  ... on TrueFalseQuestion { trueFalse: goodAnswer }
  ... on FreeAnswerTextQuestion { text: goodAnswer tolerance caseSensitive }
  ... on FreeAnswerNumberQuestion { number: goodAnswer tolerance }
}
fragment QuizFields on Quiz {
  id title visibility survey tags creationDate lastChangeDate defaultDuration imported favorite
  nbQuestions author { ...UserFields } questions { ...QuestionFields }
}
fragment SessionFields on Session {
  id title startDate quizIds nbAttendees joinCode joinCodeExpiresAt owner { ...UserFields }
}
fragment ResultFields on ComputedResult {
  id itemId userId quizId sessionId aggregationFunction nbGoodAnswers goodAnswersPercent
  percentile nbAnswers duration user { ...UserFields } quiz { ...QuizFields }
  session { ...SessionFields }
}
fragment GroupFields on UserGroup { id name nbMembers }
fragment QuestionStatisticFields on QuestionStatistic {
  id itemId statisticQuizId: quizId questionIndex title type nbAttempts statisticAnswers: nbAnswers facility discrimination
  choiceCounts quiz { ...QuizFields }
}
fragment QuizStatisticFields on QuizStatistic {
  id itemId statisticQuizId: quizId nbAttempts mean median stddev cronbachAlpha histogram quiz { ...QuizFields }
  questions { id itemId title facility }
}
fragment Page on DataSet {
  dataSetId itemType numberOfPages numberOfItemsPerPage totalNumberOfItems currentPageIndex
}
`;

/** `query` with the fragments it spreads, and theirs (an unused fragment is invalid GraphQL). */
function withFragments(query: string): string {
  const definitions = new Map(
    FRAGMENTS.split(/\n(?=fragment )/)
      .map((text) => text.trim())
      .filter((text) => text.startsWith('fragment '))
      .map((text) => [text.split(' ')[1], text]),
  );
  const used = new Set<string>();
  let text = query;
  for (;;) {
    const next = [...text.matchAll(/\.\.\.(\w+)/g)]
      .map((match) => match[1])
      .filter((name) => definitions.has(name) && !used.has(name));
    if (next.length === 0)
      return [query, ...[...used].map((name) => definitions.get(name))].join('\n');
    for (const name of next) used.add(name);
    text = next.map((name) => definitions.get(name)).join('\n');
  }
}

const SESSION_RESULTS = `query ($sessionId: ID!) {
  getSessionResults(sessionId: $sessionId) {
    userSet { ...Page items { ...UserFields } }
    quizSet { ...Page items { ...QuizFields } }
    results { ...Page items { ...ResultFields } }
  }
}`;

/** The item fragments a getDataSetPage document may spread, by item type. */
const ITEM_FRAGMENTS = [
  'UserFields',
  'QuizFields',
  'ResultFields',
  'GroupFields',
  'QuestionStatisticFields',
  'QuizStatisticFields',
];
const pageDocument = (fragments: string[]) =>
  `query ($dataSetId: ID!) { getDataSetPage(dataSetId: $dataSetId) { ...Page items { ${fragments
    .map((name) => `...${name}`)
    .join(' ')} } } }`;

describe('the cost of abstract selections and the page size', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  /** An instance whose GRAPHQL_MAX_COST of 1 refuses everything, telling each document's cost. */
  let meter: TestApp;
  let ids: IdMap;
  let credentials: string;

  beforeAll(async () => {
    ({ db, dataSource, close } = await openTestDatabase('gql_cost'));
    ids = await loadData(dataSource, DOCUMENT);
    const key = await createTestApiKey(dataSource, 'localhost');
    credentials = `apiKey=${key.secret}&accessToken=${await createTestToken(dataSource, Number(ids.users.T), key.id)}`;
    app = await startTestApp(dataSource);
    meter = await startTestApp(await openDatabase(db.config), { GRAPHQL_MAX_COST: '1' });
  });

  afterAll(async () => {
    await meter?.close();
    await app?.close();
    await close();
  });

  /** The cost the service computes for a document (the `actual` of its refusal at limit 1). */
  async function costOf(query: string, variables: Record<string, unknown>): Promise<number> {
    const { status, body } = await graphql(meter.url, withFragments(query), {
      variables,
      search: `?${credentials}`,
    });
    expect(status).toBe(400);
    const extensions = body.errors?.[0]?.extensions;
    expect(extensions).toMatchObject({ type: 'QueryTooComplexException', limit: 1 });
    return extensions?.actual as number;
  }

  it('runs getSessionResults with full item fragments, at under a quarter of GRAPHQL_MAX_COST', async () => {
    const variables = { sessionId: ids.sessions.S };
    const cost = await costOf(SESSION_RESULTS, variables);
    // The default GRAPHQL_MAX_COST is 20,000.
    expect(cost).toBeLessThan(20_000 / 4);
    const { status, body } = await graphql(app.url, withFragments(SESSION_RESULTS), {
      variables,
      search: `?${credentials}`,
    });
    expect({ status, errors: body.errors }).toEqual({ status: 200, errors: undefined });
    const flow = body.data?.getSessionResults as Record<
      string,
      { items: Record<string, unknown>[] }
    >;
    expect(flow.userSet.items).toEqual([
      { id: ids.users.p, firstName: 'Paul', lastName: 'Pupil', pictureURL: null },
    ]);
    expect(flow.quizSet.items[0]).toMatchObject({ id: ids.quizzes.q, nbQuestions: 2 });
    expect(flow.results.items[0]).toMatchObject({
      userId: ids.users.p,
      nbGoodAnswers: 1,
      quiz: { title: 'Costs', questions: [{ trueFalse: true }, { one: 1 }] },
      session: { id: ids.sessions.S, owner: { id: ids.users.T } },
    });
  });

  it('counts a selection on a union or an interface as its most expensive type, not the sum', async () => {
    const variables = { dataSetId: '1' };
    const alone = await Promise.all(
      ITEM_FRAGMENTS.map((name) => costOf(pageDocument([name]), variables)),
    );
    const all = await costOf(pageDocument(ITEM_FRAGMENTS), variables);
    expect(all).toBe(Math.max(...alone));
    const sum = alone.reduce((total, cost) => total + cost, 0);
    expect(all).toBeLessThan(sum);
    // The interface DataSet too: fragments on two page types cost the dearer one.
    const typed = (type: string, fragment: string) => `... on ${type} { items { ...${fragment} } }`;
    const both = `query ($dataSetId: ID!) { getDataSetPage(dataSetId: $dataSetId) { ${typed('UserPage', 'UserFields')} ${typed('ComputedResultPage', 'ResultFields')} } }`;
    const results = `query ($dataSetId: ID!) { getDataSetPage(dataSetId: $dataSetId) { ${typed('ComputedResultPage', 'ResultFields')} } }`;
    expect(await costOf(both, variables)).toBe(await costOf(results, variables));
  });

  it('refuses a page size of 1,001 as BadParameterException on numberOfItemsPerPage, on both wires', async () => {
    const rest = await fetch(
      `${app.url}/getUserSet?userId=${ids.users.p}&numberOfItemsPerPage=1001&${credentials}`,
    );
    const restBody = (await rest.json()) as Record<string, unknown>;
    expect(rest.status).toBe(400);
    expect(restBody).toMatchObject({
      type: 'BadParameterException',
      operation: 'getUserSet',
      parameterName: 'numberOfItemsPerPage',
      providedValue: '1001',
    });
    for (const [operation, args] of [
      ['getUserSet', `userId: "${ids.users.p}"`],
      ['getSessionResults', `sessionId: "${ids.sessions.S}"`],
    ] as const) {
      const items =
        operation === 'getUserSet'
          ? 'items { ...UserFields }'
          : 'userSet { items { ...UserFields } }';
      const { status, body } = await graphql(
        app.url,
        `query ($size: Int) { ${operation}(${args}, numberOfItemsPerPage: $size) { ${items} } } fragment UserFields on User { id firstName }`,
        { variables: { size: 1001 }, search: `?${credentials}` },
      );
      expect(status).toBe(200);
      expect(body.data).toEqual({ [operation]: null });
      expect(body.errors?.map((error) => error.extensions)).toEqual([
        {
          code: 'BAD_USER_INPUT',
          type: 'BadParameterException',
          operation,
          reason: restBody.reason,
          parameterName: 'numberOfItemsPerPage',
          providedValue: restBody.providedValue,
        },
      ]);
    }
  });
});

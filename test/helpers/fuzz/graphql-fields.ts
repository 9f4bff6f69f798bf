import fc from 'fast-check';
import {
  ADD_ANSWERS_RESULT,
  COMPUTED_RESULT_PAGE,
  DATA_SET,
  DATA_SET_ITEM_CONNECTION,
  ITEM_ATTRIBUTE,
  PERSONAL_DATA,
  QUESTION_STATISTIC_PAGE,
  QUIZ,
  QUIZ_PAGE,
  QUIZ_STATISTIC_PAGE,
  SESSION,
  SESSION_RESULTS,
  USER,
  USER_GROUP_PAGE,
  USER_PAGE,
  type ObjectShape,
} from './graphql-shapes';
import { answersPayload, quizPayload, sessionPayload } from './payloads';
import { webhookRootFields } from './webhook-fuzz';
import { answeringSessionIds, setIds, type FuzzPools } from './pools';
import {
  AGGREGATION_FUNCTIONS,
  dateValues,
  enumValues,
  GROUP_BY,
  idValues,
  INCLUDE_QUIZZES,
  joinCodeValues,
  QUIZ_ATTRIBUTE_NAMES,
  RESULT_TYPES,
  searchValues,
  SET_OPERATORS,
  USER_ATTRIBUTE_NAMES,
  type ParamValues,
} from './values';

/*
 * GraphQL root fields: their arguments, with values for each, and what they return.
 */

/** A GraphQL argument: its type in the schema, and values for it. */
export interface GraphQLArgument {
  type: string;
  /** Values of the argument's type a client would send. */
  clean: fc.Arbitrary<unknown>;
  /** Odd values too, some of another type (variables may carry anything). */
  any: fc.Arbitrary<unknown>;
  /** The enum's names, written bare as inline literals. */
  enumValues?: readonly string[];
}

export interface RootFieldSpec {
  name: string;
  operation: 'query' | 'mutation';
  args: Record<string, GraphQLArgument>;
  returns: ObjectShape;
}

/** An ID: as a string or a number (both are IDs in GraphQL), or the odd texts of REST. */
function idArgument(pool: readonly string[], unknownId: string, nonNull = false): GraphQLArgument {
  const text = idValues(pool, unknownId);
  return {
    type: nonNull ? 'ID!' : 'ID',
    clean: fc.oneof(
      { weight: 3, arbitrary: text.clean },
      { weight: 1, arbitrary: fc.constantFrom(...pool).map(Number) },
    ),
    any: fc.oneof(
      { weight: 4, arbitrary: text.any },
      {
        weight: 1,
        arbitrary: fc.oneof(fc.integer(), fc.double(), fc.constantFrom(2 ** 31, -1, 0, 1e21)),
      },
    ),
  };
}

const INT: GraphQLArgument = {
  type: 'Int',
  clean: fc.constantFrom(1, 2, 3, 10, 50, 1000),
  any: fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: -3, max: 1100 }) },
    { weight: 1, arbitrary: fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 1.5, 1e21, '5', '') },
    { weight: 1, arbitrary: fc.integer() },
  ),
};

function stringArgument(text: ParamValues, nonNull = false): GraphQLArgument {
  return { type: nonNull ? 'String!' : 'String', clean: text.clean, any: text.any };
}

const BOOLEAN: GraphQLArgument = {
  type: 'Boolean',
  clean: fc.boolean(),
  any: fc.oneof(fc.boolean(), fc.constantFrom('true', 1, 0, null)),
};

function enumArgument(type: string, names: readonly string[], list = false): GraphQLArgument {
  const valid = fc.constantFrom(...names);
  const one = fc.oneof(
    { weight: 5, arbitrary: valid },
    { weight: 1, arbitrary: fc.constantFrom('MIN', 'nope', 'user,quiz', '', 'null') },
  );
  return {
    type: list ? `[${type}!]` : type,
    clean: list ? fc.uniqueArray(valid, { minLength: 1, maxLength: names.length }) : valid,
    any: list
      ? fc.oneof(
          { weight: 4, arbitrary: fc.uniqueArray(one, { maxLength: 4 }) },
          { weight: 1, arbitrary: fc.array(one, { maxLength: 4 }) },
          // A single value stands for a list of one in GraphQL.
          { weight: 1, arbitrary: one },
          { weight: 1, arbitrary: fc.array(one, { maxLength: 3 }).map((items) => items.join(',')) },
        )
      : one,
    enumValues: names,
  };
}

/** Every root field of schema/schema.graphql with its arguments. */
export function rootFieldSpecs(pools: FuzzPools, owner?: string): RootFieldSpec[] {
  const { unknownId } = pools;
  const id = (pool: readonly string[], nonNull = false) => idArgument(pool, unknownId, nonNull);
  const results = {
    aggregationFunctions: enumArgument('AggregationFunction', AGGREGATION_FUNCTIONS, true),
    groupBy: enumArgument('GroupBy', GROUP_BY),
    includeQuizzes: enumArgument('IncludeQuizzes', INCLUDE_QUIZZES),
    numberOfItemsPerPage: INT,
    resultTypes: enumArgument('ResultType', RESULT_TYPES, true),
  };
  const sessionIds = idArgument(pools.sessionIds, unknownId);
  // The sets and sessions of a computation over attempts (results, item analysis).
  const overAttempts = {
    quizSetId: id(setIds(pools, owner, 'quiz'), true),
    sessionId: id(pools.sessionIds),
    sessionIds: {
      type: '[ID!]',
      clean: fc.uniqueArray(sessionIds.clean, { minLength: 1, maxLength: 3 }),
      any: fc.oneof(fc.array(sessionIds.any, { maxLength: 4 }), sessionIds.any),
    },
    userSetId: id(setIds(pools, owner, 'user'), true),
  };
  const session = sessionPayload(pools);
  const answers = answersPayload(pools);
  return [
    {
      name: 'getQuiz',
      operation: 'query',
      args: { quizId: id(pools.quizIds, true) },
      returns: QUIZ,
    },
    {
      name: 'addQuiz',
      operation: 'mutation',
      args: { quiz: { type: 'QuizInput!', clean: quizPayload, any: quizPayload } },
      returns: QUIZ,
    },
    {
      name: 'getQuizSet',
      operation: 'query',
      args: {
        author: id(pools.userIds),
        creationDate: stringArgument(dateValues),
        keywords: stringArgument(searchValues),
        modificationDate: stringArgument(dateValues),
        numberOfItemsPerPage: INT,
        player: id(pools.userIds),
        quizId: id(pools.quizIds),
        sessionId: id(pools.sessionIds),
        tag: stringArgument(searchValues),
      },
      returns: QUIZ_PAGE,
    },
    {
      name: 'getQuizAttribute',
      operation: 'query',
      args: {
        attributeName: stringArgument(enumValues(QUIZ_ATTRIBUTE_NAMES), true),
        quizId: id(pools.quizIds, true),
      },
      returns: ITEM_ATTRIBUTE,
    },
    {
      name: 'getUser',
      operation: 'query',
      args: { userId: id(pools.userIds, true) },
      returns: USER,
    },
    {
      name: 'getUserAttribute',
      operation: 'query',
      args: {
        attributeName: stringArgument(enumValues(USER_ATTRIBUTE_NAMES), true),
        userId: id(pools.userIds, true),
      },
      returns: ITEM_ATTRIBUTE,
    },
    {
      name: 'getUserSet',
      operation: 'query',
      args: {
        numberOfItemsPerPage: INT,
        quizId: id(pools.quizIds),
        raisedHand: BOOLEAN,
        sessionId: id(pools.sessionIds),
        userGroupSetId: id(setIds(pools, owner, 'userGroup')),
        userId: id(pools.userIds),
      },
      returns: USER_PAGE,
    },
    {
      name: 'getUserGroupSet',
      operation: 'query',
      args: { numberOfItemsPerPage: INT, search: stringArgument(searchValues) },
      returns: USER_GROUP_PAGE,
    },
    {
      name: 'getResults',
      operation: 'query',
      args: { ...results, ...overAttempts },
      returns: COMPUTED_RESULT_PAGE,
    },
    ...(['getQuestionStatistics', 'getQuizStatistics'] as const).map((name) => ({
      name,
      operation: 'query' as const,
      args: { numberOfItemsPerPage: INT, ...overAttempts },
      returns: name === 'getQuizStatistics' ? QUIZ_STATISTIC_PAGE : QUESTION_STATISTIC_PAGE,
    })),
    {
      name: 'getSessionResults',
      operation: 'query',
      args: { ...results, sessionId: id(pools.sessionIds, true) },
      returns: SESSION_RESULTS,
    },
    {
      name: 'computeDataSet',
      operation: 'query',
      args: {
        dataSetId1: id(setIds(pools, owner), true),
        dataSetId2: id(setIds(pools, owner), true),
        numberOfItemsPerPage: INT,
        operator: { ...enumArgument('SetOperator', SET_OPERATORS), type: 'SetOperator!' },
      },
      returns: DATA_SET,
    },
    {
      name: 'getDataSetPage',
      operation: 'query',
      args: { dataSetId: id(setIds(pools, owner), true), pageIndex: INT },
      returns: DATA_SET,
    },
    {
      name: 'getDataSetItems',
      operation: 'query',
      args: {
        dataSetId: id(setIds(pools, owner), true),
        first: INT,
        // A cursor: opaque text, some of it the base64url of another set's position.
        after: {
          type: 'String',
          clean: fc.constantFrom('MTox', 'bm9wZQ', ''),
          any: fc.oneof(fc.string(), fc.constantFrom('MTox', '%%%', 'x'.repeat(300))),
        },
      },
      returns: DATA_SET_ITEM_CONNECTION,
    },
    {
      name: 'addSession',
      operation: 'mutation',
      args: { session: { type: 'SessionInput!', clean: session, any: session } },
      returns: SESSION,
    },
    {
      name: 'getSession',
      operation: 'query',
      args: { sessionId: id(pools.sessionIds, true) },
      returns: SESSION,
    },
    {
      name: 'joinSession',
      operation: 'mutation',
      args: { joinCode: stringArgument(joinCodeValues, true) },
      returns: SESSION,
    },
    {
      name: 'addAnswers',
      operation: 'mutation',
      args: {
        answers: { type: '[AnswerInput!]!', clean: answers, any: answers },
        sessionId: id(answeringSessionIds(pools), true),
      },
      returns: ADD_ANSWERS_RESULT,
    },
    { name: 'exportPersonalData', operation: 'query', args: {}, returns: PERSONAL_DATA },
    ...webhookRootFields(id, INT),
  ];
}

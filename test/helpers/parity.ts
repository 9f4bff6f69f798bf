import { graphql, type GraphQLErrorBody } from './graphql';
import { QUIZ_FIELDS } from '../../src/services/quizzes/quiz.views';

type Json = Record<string, unknown>;

/** The fields of the GraphQL User type; REST leaves out the ones the requester may not see. */
const USER_FIELDS = ['id', 'firstName', 'lastName', 'pictureURL'] as const;
const ITEM_ATTRIBUTE_FIELDS = 'itemType itemId itemName itemValue';

/** Each REST operation as a GraphQL query taking its query-string parameters as variables. */
export const PARITY_QUERIES = {
  getUser: `query ($userId: ID!) { getUser(userId: $userId) { ${USER_FIELDS.join(' ')} } }`,
  getUserAttribute:
    'query ($userId: ID!, $attributeName: String!) ' +
    `{ getUserAttribute(userId: $userId, attributeName: $attributeName) { ${ITEM_ATTRIBUTE_FIELDS} } }`,
  getQuizAttribute:
    'query ($quizId: ID!, $attributeName: String!) ' +
    `{ getQuizAttribute(quizId: $quizId, attributeName: $attributeName) { ${ITEM_ATTRIBUTE_FIELDS} } }`,
} as const;

export type ParityOperation = keyof typeof PARITY_QUERIES;

/** The GraphQL code of each REST status a resolver may fail with (contract.md §2). */
const CODE_OF_STATUS: Readonly<Record<number, string>> = {
  400: 'BAD_USER_INPUT',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
};

export interface ParityAnswer {
  /** The REST answer, for the case's own assertions. */
  status: number;
  body: Json;
  graphql: Awaited<ReturnType<typeof graphql>>;
}

/** Keys of a REST object that GraphQL has no field for: any would be lost on GraphQL. */
function expectOnlyFields(body: Json, fields: readonly string[]): void {
  expect(Object.keys(body).filter((key) => !fields.includes(key))).toStrictEqual([]);
}

/** A User as GraphQL reads it: every field, null where REST leaves it out. */
function expectedUser(body: Json): Json {
  expectOnlyFields(body, USER_FIELDS);
  return Object.fromEntries(
    USER_FIELDS.map((field) => [field, field in body ? body[field] : null]),
  );
}

/** The GraphQL data a REST success must read as: a User has every field, null where REST has none. */
function expectedData(operation: ParityOperation, body: Json): Json {
  if (operation !== 'getUser') return body;
  return expectedUser(body);
}

/**
 * A REST exception read on GraphQL: the resolver failed, so its (nullable) root field reads
 * null (HTTP 200) and there is one
 * error on the operation's path, with the REST message and the REST body (without `message`)
 * plus the code of the REST status as extensions.
 */
function expectSameError(
  operation: string,
  rest: { status: number; body: Json },
  gql: Awaited<ReturnType<typeof graphql>>,
): void {
  const { message, ...extensions } = rest.body;
  const code = CODE_OF_STATUS[rest.status];
  expect(code).toBeDefined();
  expect(gql.body.data).toStrictEqual({ [operation]: null });
  expect(gql.status).toBe(200);
  expect(gql.body.errors).toHaveLength(1);
  const error = gql.body.errors?.[0] as GraphQLErrorBody;
  expect(error.message).toBe(message);
  expect(error.path).toStrictEqual([operation]);
  expect(error.extensions).toStrictEqual({ ...extensions, code });
}

/**
 * Runs `operation` on REST (GET with `params` and `credentials` in the query string) and on
 * GraphQL (the same parameters as variables, the same credentials in the query string), and
 * asserts that both give the same outcome:
 * - REST success: GraphQL answers 200 without errors, and its data equals the REST JSON (a User
 *   reads null where REST leaves the field out);
 * - REST exception: the resolver failed, so GraphQL answers 200 with its field null and one error
 *   on the operation's path whose message is the REST message and whose extensions are the REST
 *   body without `message`, plus the code of the REST status.
 * Credentials must be valid: a request refused as a whole (no `data`) is not parity here.
 * Returns the REST answer, so the case keeps its own assertions on it.
 */
export async function expectParity(
  baseUrl: string,
  operation: ParityOperation,
  params: Record<string, string>,
  credentials: string,
): Promise<ParityAnswer> {
  const res = await fetch(`${baseUrl}/${operation}?${new URLSearchParams(params)}&${credentials}`);
  const rest = { status: res.status, body: (await res.json()) as Json };
  const gql = await graphql(baseUrl, PARITY_QUERIES[operation], {
    variables: params,
    search: `?${credentials}`,
  });

  if (rest.status === 200) {
    expect(gql.body.errors).toBeUndefined();
    expect(gql.status).toBe(200);
    expect(gql.body.data).toStrictEqual({ [operation]: expectedData(operation, rest.body) });
  } else {
    expectSameError(operation, rest, gql);
  }
  return { ...rest, graphql: gql };
}

/*
 * Data sets: getQuizSet, getUserSet, getUserGroupSet, getDataSetPage, computeDataSet.
 */

/** The arguments of each set operation with their GraphQL types (schema.graphql). */
const SET_ARGUMENTS = {
  getQuizSet: {
    keywords: 'String',
    quizId: 'ID',
    tag: 'String',
    author: 'ID',
    player: 'ID',
    sessionId: 'ID',
    creationDate: 'String',
    modificationDate: 'String',
    numberOfItemsPerPage: 'Int',
  },
  getUserSet: {
    userId: 'ID',
    userGroupSetId: 'ID',
    sessionId: 'ID',
    raisedHand: 'Boolean',
    quizId: 'ID',
    numberOfItemsPerPage: 'Int',
  },
  getUserGroupSet: { search: 'String', numberOfItemsPerPage: 'Int' },
  getDataSetPage: { dataSetId: 'ID!', pageIndex: 'Int' },
  computeDataSet: {
    dataSetId1: 'ID!',
    dataSetId2: 'ID!',
    operator: 'SetOperator!',
    numberOfItemsPerPage: 'Int',
  },
} as const satisfies Record<string, Record<string, string>>;

export type SetOperation = keyof typeof SET_ARGUMENTS;

/** Fields of the DataSet envelope; REST sends the same ones. */
const PAGE_FIELDS = [
  'dataSetId',
  'itemType',
  'numberOfPages',
  'numberOfItemsPerPage',
  'totalNumberOfItems',
  'items',
  'currentPageIndex',
] as const;
const USER_GROUP_FIELDS = ['id', 'name', 'nbMembers'] as const;

/**
 * The fields of each question type besides type, title, media and goodAnswer, and the alias
 * its goodAnswer is selected under: goodAnswer has a different type on each question type, so
 * one selection cannot name them all `goodAnswer` (GraphQL refuses fields that cannot merge).
 */
const QUESTION_TYPES: Record<string, { object: string; fields: string[]; goodAnswer: string }> = {
  MultipleChoicesOneGoodAnswer: {
    object: 'MultipleChoicesOneGoodAnswerQuestion',
    fields: ['propositions'],
    goodAnswer: 'goodAnswerIndex',
  },
  MultipleChoicesSeveralGoodAnswers: {
    object: 'MultipleChoicesSeveralGoodAnswersQuestion',
    fields: ['propositions'],
    goodAnswer: 'goodAnswerIndexes',
  },
  TrueFalse: { object: 'TrueFalseQuestion', fields: [], goodAnswer: 'goodAnswerBoolean' },
  FreeAnswerText: {
    object: 'FreeAnswerTextQuestion',
    fields: ['tolerance', 'caseSensitive'],
    goodAnswer: 'goodAnswerText',
  },
  FreeAnswerNumber: {
    object: 'FreeAnswerNumberQuestion',
    fields: ['tolerance'],
    goodAnswer: 'goodAnswerNumber',
  },
};

const USER_SELECTION = `{ ${USER_FIELDS.join(' ')} }`;
const QUESTION_SELECTION = `{ type title media { type url } ${Object.values(QUESTION_TYPES)
  .map(
    ({ object, fields, goodAnswer }) =>
      `... on ${object} { ${[...fields, `${goodAnswer}: goodAnswer`].join(' ')} }`,
  )
  .join(' ')} }`;

/** Every field of a DataSet page and of each kind of item, as REST sends them. */
export const DATA_SET_SELECTION =
  `{ ${PAGE_FIELDS.filter((field) => field !== 'items').join(' ')} items { __typename ` +
  `... on User ${USER_SELECTION} ` +
  `... on UserGroup { ${USER_GROUP_FIELDS.join(' ')} } ` +
  `... on Quiz { ${QUIZ_FIELDS.filter((field) => field !== 'author' && field !== 'questions').join(' ')} ` +
  `author ${USER_SELECTION} questions ${QUESTION_SELECTION} } } }`;

/** Each set operation as a GraphQL query taking every argument as a variable. */
export const SET_QUERIES = Object.fromEntries(
  Object.entries(SET_ARGUMENTS).map(([operation, args]) => {
    const entries = Object.entries(args as Record<string, string>);
    const variables = entries.map(([name, type]) => `$${name}: ${type}`).join(', ');
    const passed = entries.map(([name]) => `${name}: $${name}`).join(', ');
    return [operation, `query (${variables}) { ${operation}(${passed}) ${DATA_SET_SELECTION} }`];
  }),
) as Record<SetOperation, string>;

const SET_OPERATORS = ['union', 'intersection', 'difference'];

/**
 * A REST parameter as the value of its GraphQL argument type, or undefined when that type has
 * no such value (a non-integer Int, a Boolean other than true|false|1|0, an unknown operator).
 */
function graphQLValue(type: string, text: string): string | number | boolean | undefined {
  switch (type.replace(/!$/, '')) {
    case 'Int':
      return /^-?\d{1,10}$/.test(text) && Math.abs(Number(text)) < 2 ** 31
        ? Number(text)
        : undefined;
    case 'Boolean':
      return { true: true, 1: true, false: false, 0: false }[text];
    case 'SetOperator':
      return SET_OPERATORS.includes(text) ? text : undefined;
    default:
      // ID and String take any text.
      return text;
  }
}

/** Apollo refused the request as a whole (HTTP 400, no `data`): one error per expected message start. */
function expectRefusedByApollo(
  gql: Awaited<ReturnType<typeof graphql>>,
  code: 'BAD_USER_INPUT' | 'GRAPHQL_VALIDATION_FAILED',
  messageStarts: string[],
): void {
  expect(gql.status).toBe(400);
  expect(gql.body).not.toHaveProperty('data');
  const errors = gql.body.errors ?? [];
  expect(errors.map((error) => error.extensions?.code)).toStrictEqual(
    messageStarts.map(() => code),
  );
  for (const start of messageStarts) {
    expect(errors.filter((error) => error.message.startsWith(start))).toHaveLength(1);
  }
}

/** `YYYY-MM-DD hh:mm:ss` of a DateTimeISO value: the same instant in the REST format. */
function legacyDate(value: unknown): string {
  expect(value).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/);
  const iso = value as string;
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** A GraphQL item with the query's own artefacts undone: REST dates, goodAnswer unaliased. */
function normalisedItem(item: Json): Json {
  if (item.__typename !== 'Quiz') return item;
  return {
    ...item,
    creationDate: legacyDate(item.creationDate),
    lastChangeDate: legacyDate(item.lastChangeDate),
    questions: (item.questions as Json[]).map((question) => {
      const alias = QUESTION_TYPES[question.type as string].goodAnswer;
      const { [alias]: goodAnswer, ...fields } = question;
      return { ...fields, goodAnswer };
    }),
  };
}

/** A REST question as GraphQL reads it: every field of its type, null where REST has none. */
function expectedQuestion(question: Json): Json {
  const kind = QUESTION_TYPES[question.type as string];
  expect(kind).toBeDefined();
  const fields = ['type', 'title', 'media', 'goodAnswer', ...kind.fields];
  expectOnlyFields(question, fields);
  return Object.fromEntries(fields.map((field) => [field, question[field] ?? null]));
}

/** A REST item as GraphQL reads it (dates stay in the REST format: see normalisedItem). */
function expectedItem(itemType: unknown, item: Json): Json {
  switch (itemType) {
    case 'user':
      return { __typename: 'User', ...expectedUser(item) };
    case 'userGroup':
      expectOnlyFields(item, USER_GROUP_FIELDS);
      return { __typename: 'UserGroup', ...item };
    case 'quiz':
      expectOnlyFields(item, QUIZ_FIELDS);
      return {
        __typename: 'Quiz',
        ...Object.fromEntries(QUIZ_FIELDS.map((field) => [field, item[field] ?? null])),
        author: expectedUser(item.author as Json),
        questions: (item.questions as Json[]).map(expectedQuestion),
      };
    default:
      throw new Error(`no GraphQL parity for ${String(itemType)} items`);
  }
}

export interface SetParityAnswer {
  graphql: Awaited<ReturnType<typeof graphql>>;
  /** The GraphQL page, when both transports succeeded. */
  page?: Json;
}

/**
 * Runs a set operation on GraphQL with the parameters and credentials of a REST call already
 * made (`rest`: its answer) and asserts the same outcome:
 * - REST success: GraphQL answers 200 without errors with the same page. getDataSetPage reads
 *   the same set, so the pages are equal; the other operations make a new set on each call, so
 *   GraphQL's dataSetId is another one and everything else (item type, counts, page, items) is
 *   equal. Items read as on REST once the transport's forms are undone: dates are DateTimeISO
 *   instead of `YYYY-MM-DD hh:mm:ss`, and a field REST leaves out is null.
 * - REST exception: the resolver failed with the same error (see expectSameError).
 * - Input GraphQL cannot express, because a value does not fit the argument's type ("x" for an
 *   Int, "yes" for a Boolean, "xor" for the SetOperator enum) or a required argument (ID!) is
 *   absent: Apollo refuses the request itself (HTTP 400 BAD_USER_INPUT, no `data`, no resolver
 *   run), and REST refuses it too (400). A parameter GraphQL has no argument for: the document
 *   is invalid (HTTP 400 GRAPHQL_VALIDATION_FAILED); since REST ignores unknown parameters, the
 *   known ones alone must then give REST's answer on GraphQL, which is asserted as above.
 */
export async function expectSetParity(
  baseUrl: string,
  operation: SetOperation,
  params: Record<string, string>,
  credentials: string,
  rest: { status: number; body: Json },
): Promise<SetParityAnswer> {
  const search = `?${credentials}`;
  const types: Record<string, string> = SET_ARGUMENTS[operation];
  const variables: Record<string, unknown> = {};
  const refusals: string[] = [];
  const unknown: string[] = [];
  for (const [name, text] of Object.entries(params)) {
    if (!(name in types)) {
      unknown.push(name);
      continue;
    }
    const value = graphQLValue(types[name], text);
    // Sent as it is, so that Apollo is the one refusing it.
    variables[name] = value ?? text;
    if (value === undefined) {
      refusals.push(`Variable "$${name}" got invalid value ${JSON.stringify(text)}; `);
    }
  }

  if (unknown.length > 0) {
    // The known parameters as variables, the unknown ones as arguments of the document.
    const declared = Object.keys(variables).map((name) => `$${name}: ${types[name]}`);
    const args = [
      ...Object.keys(variables).map((name) => `${name}: $${name}`),
      ...unknown.map((name) => `${name}: ${JSON.stringify(params[name])}`),
    ];
    const document =
      `query${declared.length > 0 ? ` (${declared.join(', ')})` : ''} ` +
      `{ ${operation}(${args.join(', ')}) { dataSetId } }`;
    const gql = await graphql(baseUrl, document, { variables, search });
    expectRefusedByApollo(
      gql,
      'GRAPHQL_VALIDATION_FAILED',
      unknown.map((name) => `Unknown argument "${name}" on field "Query.${operation}".`),
    );
    // REST ignores the parameters it does not know: the others alone give its answer on GraphQL.
    const known = Object.fromEntries(Object.entries(params).filter(([name]) => name in types));
    await expectSetParity(baseUrl, operation, known, credentials, rest);
    return { graphql: gql };
  }

  for (const [name, type] of Object.entries(types)) {
    if (type.endsWith('!') && !(name in params)) {
      refusals.push(`Variable "$${name}" of required type "${type}" was not provided.`);
    }
  }
  const gql = await graphql(baseUrl, SET_QUERIES[operation], { variables, search });
  if (refusals.length > 0) {
    expect(rest.status).toBe(400);
    expectRefusedByApollo(gql, 'BAD_USER_INPUT', refusals);
    return { graphql: gql };
  }

  if (rest.status !== 200) {
    expectSameError(operation, rest, gql);
    return { graphql: gql };
  }
  expect(gql.body.errors).toBeUndefined();
  expect(gql.status).toBe(200);
  expectOnlyFields(rest.body, PAGE_FIELDS);
  const expected = {
    ...rest.body,
    items: (rest.body.items as Json[]).map((item) => expectedItem(rest.body.itemType, item)),
  };
  const page = gql.body.data?.[operation] as Json;
  const actual = { ...page, items: (page.items as Json[]).map(normalisedItem) };
  if (operation === 'getDataSetPage') {
    expect(actual).toStrictEqual(expected);
  } else {
    expect(typeof page.dataSetId).toBe('string');
    expect(page.dataSetId).not.toBe(rest.body.dataSetId);
    expect({ ...actual, dataSetId: rest.body.dataSetId }).toStrictEqual(expected);
  }
  return { graphql: gql, page };
}

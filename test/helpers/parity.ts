import { graphql, type GraphQLErrorBody } from './graphql';

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

/** The GraphQL data a REST success must read as: a User has every field, null where REST has none. */
function expectedData(operation: ParityOperation, body: Json): Json {
  if (operation !== 'getUser') return body;
  // A REST field GraphQL does not have would be lost on GraphQL: not parity.
  expect(
    Object.keys(body).filter((key) => !(USER_FIELDS as readonly string[]).includes(key)),
  ).toStrictEqual([]);
  return Object.fromEntries(
    USER_FIELDS.map((field) => [field, field in body ? body[field] : null]),
  );
}

/**
 * Runs `operation` on REST (GET with `params` and `credentials` in the query string) and on
 * GraphQL (the same parameters as variables, the same credentials in the query string), and
 * asserts that both give the same outcome:
 * - REST success: GraphQL answers 200 without errors, and its data equals the REST JSON (a User
 *   reads null where REST leaves the field out);
 * - REST exception: the resolver failed, so GraphQL answers 200 with `data: null` and one error
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
    const { message, ...extensions } = rest.body;
    const code = CODE_OF_STATUS[rest.status];
    expect(code).toBeDefined();
    expect(gql.body).toHaveProperty('data', null);
    expect(gql.status).toBe(200);
    expect(gql.body.errors).toHaveLength(1);
    const error = gql.body.errors?.[0] as GraphQLErrorBody;
    expect(error.message).toBe(message);
    expect(error.path).toStrictEqual([operation]);
    expect(error.extensions).toStrictEqual({ ...extensions, code });
  }
  return { ...rest, graphql: gql };
}

import type { OperationName } from '../../src/api/operations/operation-catalog';
import type { ParameterDefinition } from '../../src/api/operations/operation-definition';
import { graphql, type GraphQLErrorBody } from './graphql';
import {
  definitionOf,
  expectedData,
  graphQLValue,
  PARITY_QUERIES,
  returnsPage,
  typeOf,
} from './parity-schema';

/**
 * REST and GraphQL give the same outcome for the same call. The arguments and their types come
 * from the operation catalog (src/api/operations), the fields each object selects from the SDL
 * (parity-schema.ts).
 */

type Json = Record<string, unknown>;
type GraphQLAnswer = Awaited<ReturnType<typeof graphql>>;

/** An operation served on both wires (every catalog operation but the GraphQL-only ones). */
export type ParityOperation = OperationName;
export type SetOperation = ParityOperation;

export { PARITY_QUERIES };
export const SET_QUERIES = PARITY_QUERIES;

/** The GraphQL code of each REST status a resolver may fail with (contract.md §2). */
const CODE_OF_STATUS: Readonly<Record<number, string>> = {
  400: 'BAD_USER_INPUT',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
};

/**
 * A REST exception read on GraphQL: the resolver failed, so its (nullable) root field reads
 * null (HTTP 200) and there is one error on the operation's path, with the REST message and
 * the REST body (without `message`) plus the code of the REST status as extensions.
 */
function expectSameError(operation: string, rest: ParityAnswer, gql: GraphQLAnswer): void {
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

/** Apollo refused the request as a whole (HTTP 400, no `data`): one error per expected message start. */
function expectRefusedByApollo(
  gql: GraphQLAnswer,
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

/** Both successes: the same object, or the same page (of another set where one is made). */
function expectSameData(operation: ParityOperation, rest: ParityAnswer, data: Json): void {
  const wanted = expectedData(operation, rest.body);
  if (!returnsPage(operation) || operation === 'getDataSetPage') {
    expect(data).toStrictEqual(wanted);
  } else {
    // Every call makes a new set: GraphQL's is another one.
    expect(typeof data.dataSetId).toBe('string');
    expect(data.dataSetId).not.toBe(rest.body.dataSetId);
    expect({ ...data, dataSetId: rest.body.dataSetId }).toStrictEqual(wanted);
  }
}

export interface ParityAnswer {
  /** The REST answer, for the case's own assertions. */
  status: number;
  body: Json;
}

export interface ParityResult extends ParityAnswer {
  graphql: GraphQLAnswer;
  /** The GraphQL root field's data, when both transports succeeded. */
  page?: Json;
}

async function restCall(
  baseUrl: string,
  operation: ParityOperation,
  params: Record<string, string>,
  credentials: string,
): Promise<ParityAnswer> {
  const method = definitionOf(operation).rest.methods[0];
  const res = await fetch(`${baseUrl}/${operation}?${new URLSearchParams(params)}&${credentials}`, {
    method,
  });
  return { status: res.status, body: (await res.json()) as Json };
}

/**
 * Runs `operation` on GraphQL with the parameters and credentials of a REST call (made here
 * unless `rest` gives its answer) and asserts the same outcome:
 * - REST success: GraphQL answers 200 without errors with the same data once the transport's
 *   forms are undone (DateTimeISO dates, null where REST leaves a field out); a set-making
 *   operation makes a set of its own, so only its dataSetId differs.
 * - REST exception: the resolver failed with the same error (see expectSameError).
 * - Input GraphQL cannot express (a value its argument's type does not hold, a required
 *   argument absent): Apollo refuses the request itself (HTTP 400 BAD_USER_INPUT, no resolver
 *   run), and REST refuses it too (400). A parameter GraphQL has no argument for: the document
 *   is invalid (HTTP 400 GRAPHQL_VALIDATION_FAILED); since REST ignores unknown parameters, the
 *   known ones alone must then give REST's answer on GraphQL.
 * Credentials travel in the query string on both.
 */
export async function expectParity(
  baseUrl: string,
  operation: ParityOperation,
  params: Record<string, string>,
  credentials: string,
  answered?: ParityAnswer,
): Promise<ParityResult> {
  const rest = answered ?? (await restCall(baseUrl, operation, params, credentials));
  const definition = definitionOf(operation);
  const parameters: readonly ParameterDefinition[] = definition.parameters;
  const byName = new Map(parameters.map((parameter) => [parameter.name, parameter]));
  const search = `?${credentials}`;
  const variables: Json = {};
  const refusals: string[] = [];
  let inputRefused = false;
  const unknown = Object.keys(params).filter((name) => !byName.has(name));
  for (const [name, text] of Object.entries(params)) {
    const parameter = byName.get(name);
    if (!parameter) continue;
    const { value, refusal, input } = graphQLValue(parameter, text);
    variables[name] = value;
    if (refusal) refusals.push(refusal);
    if (input) inputRefused = true;
  }

  if (unknown.length > 0) {
    // The known parameters as variables, the unknown ones as arguments of the document.
    const declared = parameters
      .filter(({ name }) => name in variables)
      .map((parameter) => `$${parameter.name}: ${typeOf(parameter)}`);
    const args = [
      ...parameters.filter(({ name }) => name in variables).map(({ name }) => `${name}: $${name}`),
      ...unknown.map((name) => `${name}: ${JSON.stringify(params[name])}`),
    ];
    const document =
      `${definition.graphQL}${declared.length > 0 ? ` (${declared.join(', ')})` : ''} ` +
      `{ ${operation}(${args.join(', ')}) { __typename } }`;
    const gql = await graphql(baseUrl, document, { variables, search });
    const root = definition.graphQL === 'query' ? 'Query' : 'Mutation';
    expectRefusedByApollo(
      gql,
      'GRAPHQL_VALIDATION_FAILED',
      unknown.map((name) => `Unknown argument "${name}" on field "${root}.${operation}".`),
    );
    // REST ignores the parameters it does not know: the others alone give its answer on GraphQL.
    const known = Object.fromEntries(Object.entries(params).filter(([name]) => byName.has(name)));
    await expectParity(baseUrl, operation, known, credentials, rest);
    return { ...rest, graphql: gql };
  }

  for (const parameter of parameters) {
    if (parameter.required && !(parameter.name in params)) {
      refusals.push(
        `Variable "$${parameter.name}" of required type "${typeOf(parameter)}" was not provided.`,
      );
    }
  }
  const gql = await graphql(baseUrl, PARITY_QUERIES[operation], { variables, search });
  if (refusals.length > 0) {
    expect(rest.status).toBe(400);
    if (inputRefused) {
      // graphql-js names every refused field of the input; REST the first it checks. That one
      // reads alike on both: the same exception type on the same path (contract.md §15).
      expect(gql.status).toBe(400);
      const same = (gql.body.errors ?? []).map((error) => ({
        type: error.extensions?.type,
        parameterName: error.extensions?.parameterName,
      }));
      expect(same).toContainEqual({ type: rest.body.type, parameterName: rest.body.parameterName });
    } else {
      expectRefusedByApollo(gql, 'BAD_USER_INPUT', refusals);
    }
    return { ...rest, graphql: gql };
  }
  if (rest.status !== 200) {
    expectSameError(operation, rest, gql);
    return { ...rest, graphql: gql };
  }
  expect(gql.body.errors).toBeUndefined();
  expect(gql.status).toBe(200);
  const page = gql.body.data?.[operation] as Json;
  expectSameData(operation, rest, page);
  return { ...rest, graphql: gql, page };
}

/** expectParity of a REST call already made (its answer: `rest`). */
export function expectSetParity(
  baseUrl: string,
  operation: SetOperation,
  params: Record<string, string>,
  credentials: string,
  rest: ParityAnswer,
): Promise<ParityResult> {
  return expectParity(baseUrl, operation, params, credentials, rest);
}

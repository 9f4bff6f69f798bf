import fs from 'node:fs';
import {
  buildSchema,
  coerceInputValue,
  parseType,
  typeFromAST,
  type GraphQLInputType,
  getNamedType,
  getNullableType,
  isInterfaceType,
  isListType,
  isObjectType,
  isUnionType,
  type GraphQLInterfaceType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
} from 'graphql';
import { SCHEMA_FILE } from '../../src/api/contracts.emit';
import { OPERATIONS, type OperationName } from '../../src/api/operations/operation-catalog';
import type { ParameterDefinition } from '../../src/api/operations/operation-definition';
import { graphql, type GraphQLErrorBody } from './graphql';

/**
 * REST and GraphQL give the same outcome for the same call. The arguments and their types come
 * from the operation catalog (src/api/operations), the fields each object selects from the SDL.
 */

type Json = Record<string, unknown>;
type GraphQLAnswer = Awaited<ReturnType<typeof graphql>>;

/** An operation served on both wires (every catalog operation but the GraphQL-only ones). */
export type ParityOperation = OperationName;
export type SetOperation = ParityOperation;

/** The committed SDL (the drift test holds it to the code). */
const SCHEMA = buildSchema(fs.readFileSync(SCHEMA_FILE, 'utf8'));
/** GraphQL fields REST does not send: a question's place (REST lists questions in order). */
const GRAPHQL_ONLY = new Set(['position']);
/** The item types whose REST form GraphQL reads alike, by the REST itemType. */
const ITEM_TYPES: Readonly<Record<string, string>> = {
  user: 'User',
  userGroup: 'UserGroup',
  quiz: 'Quiz',
};
/** The page type of each REST itemType (contract.md §15). */
const PAGE_TYPES: Readonly<Record<string, string>> = {
  user: 'UserPage',
  userGroup: 'UserGroupPage',
  quiz: 'QuizPage',
};

type Composite = GraphQLObjectType | GraphQLInterfaceType;

const objectType = (name: string) => SCHEMA.getType(name) as Composite;

/** The type a root field returns: a page type, the DataSet interface or an object. */
function responseTypeOf(operation: string): Composite {
  const root = OPERATIONS[operation as OperationName].graphQL === 'mutation' ? 'Mutation' : 'Query';
  const field = objectType(root).getFields()[operation];
  return getNamedType(field.type) as Composite;
}

/** A page of a data set: the DataSet interface or a type implementing it. */
const isPage = (type: Composite) => 'dataSetId' in type.getFields();
const fieldsOf = (type: Composite) =>
  Object.values(type.getFields()).filter((field) => !GRAPHQL_ONLY.has(field.name));
/** goodAnswer has another type on each question type: each selects it under its own alias. */
const keyOf = (type: Composite, field: string) =>
  field === 'goodAnswer' ? `goodAnswer${type.name}` : field;

/** Every field REST sends, nested objects in full; union members by `__typename`. */
function selectionOf(type: GraphQLNamedType, typename = false): string {
  if (isUnionType(type)) {
    const members = type
      .getTypes()
      .filter((member) => Object.values(ITEM_TYPES).includes(member.name));
    return `{ __typename ${members.map((member) => `... on ${member.name} ${selectionOf(member)}`).join(' ')} }`;
  }
  if (!isObjectType(type) && !isInterfaceType(type)) return '';
  // A page's items with their __typename, as a page of the DataSet interface selects them; items
  // whose REST form GraphQL does not read alike, by their __typename only.
  const fields = fieldsOf(type).map((field) => {
    const named = getNamedType(field.type);
    if (field.name !== 'items' || !isPage(type))
      return `${field.name} ${selectionOf(named)}`.trim();
    return isObjectType(named) && !Object.values(ITEM_TYPES).includes(named.name)
      ? 'items { __typename }'
      : `items ${selectionOf(named, true)}`;
  });
  const implementations = isInterfaceType(type) ? SCHEMA.getPossibleTypes(type) : [];
  const own = implementations.map((implementation) => {
    const extra = fieldsOf(implementation).filter((field) => !(field.name in type.getFields()));
    const selected = extra.map(({ name }) =>
      name === 'goodAnswer' ? `${keyOf(implementation, name)}: goodAnswer` : name,
    );
    return selected.length > 0 ? `... on ${implementation.name} { ${selected.join(' ')} }` : '';
  });
  return `{ ${typename ? '__typename ' : ''}${[...fields, ...own].filter(Boolean).join(' ')} }`;
}

function definitionOf(operation: ParityOperation) {
  const definition = OPERATIONS[operation];
  if (!definition.rest || !definition.graphQL || !('response' in definition.rest)) {
    throw new Error(`${operation} is on one wire only`);
  }
  return { ...definition, rest: definition.rest, graphQL: definition.graphQL };
}

/** A parameter's GraphQL type, as a variable declares it. */
const typeOf = (parameter: ParameterDefinition) =>
  `${parameter.graphQLType}${parameter.required ? '!' : ''}`;

/** Each operation as a GraphQL document taking every argument as a variable. */
export const PARITY_QUERIES = Object.fromEntries(
  Object.values(OPERATIONS).flatMap((definition) => {
    if (!definition.rest || !definition.graphQL || !('response' in definition.rest)) return [];
    const parameters: readonly ParameterDefinition[] = definition.parameters;
    const variables = parameters.map((p) => `$${p.name}: ${typeOf(p)}`).join(', ');
    const passed = parameters.map(({ name }) => `${name}: $${name}`).join(', ');
    const selection = selectionOf(responseTypeOf(definition.name), true);
    return [
      [
        definition.name,
        `${definition.graphQL} (${variables}) { ${definition.name}(${passed}) ${selection} }`,
      ],
    ];
  }),
) as Record<ParityOperation, string>;
export const SET_QUERIES = PARITY_QUERIES;

/** The GraphQL code of each REST status a resolver may fail with (contract.md §2). */
const CODE_OF_STATUS: Readonly<Record<number, string>> = {
  400: 'BAD_USER_INPUT',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
};

/**
 * A REST parameter as the value of its GraphQL argument; `refusal` starts Apollo's message when
 * the argument's type has no such value (a non-integer Int, a Boolean other than
 * true|false|1|0, a name out of its enum, JSON that does not parse for an input object). The
 * value is then sent as it is, so that Apollo is the one refusing it.
 */
/** Whether a variable's value fits its type in the committed SDL, as graphql-js coerces it. */
function coerces(typeName: string, value: unknown): boolean {
  let fits = true;
  coerceInputValue(value, typeFromAST(SCHEMA, parseType(typeName)) as GraphQLInputType, () => {
    fits = false;
  });
  return fits;
}

function graphQLValue(
  parameter: ParameterDefinition,
  text: string,
): { value: unknown; refusal?: string; input?: true } {
  const { name, graphQLType, values } = parameter;
  const refused = {
    value: text,
    refusal: `Variable "$${name}" got invalid value ${JSON.stringify(text)}; `,
  };
  if (parameter.rest === 'json') {
    // An input object, or a list of them: the JSON REST reads.
    try {
      const value: unknown = JSON.parse(text);
      const fits = graphQLType.startsWith('[')
        ? Array.isArray(value) && value.every((item) => typeof item === 'object' && item !== null)
        : typeof value === 'object' && value !== null && !Array.isArray(value);
      // An input the SDL's types refuse (a required field absent or null, a name out of its
      // enum, a field the type lacks): Apollo refuses it before any resolver.
      if (!fits) return refused;
      return coerces(`${graphQLType}!`, value)
        ? { value }
        : { value, refusal: refused.refusal, input: true };
    } catch {
      return refused;
    }
  }
  if (graphQLType.startsWith('[')) {
    // A blank list is no list on REST; null is none on GraphQL.
    if (text.trim() === '') return { value: null };
    const items = text.split(',');
    const bad = values ? items.findIndex((item) => !values.includes(item)) : -1;
    return bad < 0
      ? { value: items }
      : {
          value: items,
          refusal: `Variable "$${name}" got invalid value ${JSON.stringify(items[bad])} at "${name}[${bad}]"; `,
        };
  }
  if (values) return values.includes(text) ? { value: text } : refused;
  switch (graphQLType) {
    case 'Int':
      return /^-?\d{1,10}$/.test(text) && Math.abs(Number(text)) < 2 ** 31
        ? { value: Number(text) }
        : refused;
    case 'Boolean': {
      const value = { true: true, 1: true, false: false, 0: false }[text];
      return value === undefined ? refused : { value };
    }
    case 'ID':
    case 'String':
      return { value: text };
    default:
      return refused;
  }
}

/** Keys of a REST object that GraphQL has no field for: any would be lost on GraphQL. */
function expectOnlyFields(body: Json, fields: readonly string[]): void {
  expect(Object.keys(body).filter((key) => !fields.includes(key))).toStrictEqual([]);
}

/** A REST value as GraphQL reads it: null where REST leaves it out, dates as DateTimeISO. */
function expectedValue(type: GraphQLOutputType, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    return (value as unknown[]).map((item) => expectedValue(nullable.ofType, item));
  }
  const named = getNamedType(type);
  if (isInterfaceType(named)) {
    // A question: the object type of its `type`.
    return expected(objectType(`${String((value as Json).type)}${named.name}`), value as Json);
  }
  if (isObjectType(named)) return expected(named, value as Json);
  return named.name === 'DateTimeISO' ? `${String(value).replace(' ', 'T')}.000Z` : value;
}

/** A REST object as GraphQL reads it: every field of its type, `__typename` where selected. */
function expected(type: Composite, body: Json, typename = false): Json {
  const fields = fieldsOf(type);
  expectOnlyFields(
    body,
    fields.map((field) => field.name),
  );
  return {
    ...(typename ? { __typename: type.name } : {}),
    ...Object.fromEntries(
      fields.map((field) => [keyOf(type, field.name), expectedValue(field.type, body[field.name])]),
    ),
  };
}

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
  const type = responseTypeOf(definitionOf(operation).name);
  if (!isPage(type)) {
    expect(data).toStrictEqual(expected(type, rest.body, true));
    return;
  }
  const itemType = objectType(ITEM_TYPES[rest.body.itemType as string] ?? 'none');
  expect(itemType).toBeDefined();
  // Whichever type the field declares, the page reads as the page type of its items.
  const pageType = objectType(PAGE_TYPES[rest.body.itemType as string] ?? 'none');
  expect(pageType).toBeDefined();
  const wanted = {
    ...expected(pageType, { ...rest.body, items: [] }, true),
    items: (rest.body.items as Json[]).map((item) => expected(itemType, item, true)),
  };
  if (operation === 'getDataSetPage') {
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

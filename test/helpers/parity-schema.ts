import fs from 'node:fs';
import {
  buildSchema,
  coerceInputValue,
  parseType,
  typeFromAST,
  type GraphQLInputType,
  type GraphQLScalarType,
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
import { DateTimeScalar } from '../../src/api/graphql/types/date-time.scalar';
import { SCHEMA_FILE } from '../../src/api/contracts.emit';
import { OPERATIONS, type OperationName } from '../../src/api/operations/operation-catalog';
import type { ParameterDefinition } from '../../src/api/operations/operation-definition';

/**
 * What the committed SDL makes of a REST call, for the parity of the two wires (parity.ts): the
 * GraphQL document of each operation, a REST parameter as its argument's value, and a REST
 * answer as GraphQL reads it.
 */

type Json = Record<string, unknown>;

/** The committed SDL (the drift test holds it to the code). */
const SCHEMA = buildSchema(fs.readFileSync(SCHEMA_FILE, 'utf8'));
// An SDL scalar takes any value: DateTimeISO reads inputs as the service's scalar does.
Object.assign(SCHEMA.getType('DateTimeISO') as GraphQLScalarType, {
  parseValue: DateTimeScalar.parseValue,
  parseLiteral: DateTimeScalar.parseLiteral,
});
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

/** An operation served on both wires, REST answering with a body. */
export function definitionOf(operation: OperationName) {
  const definition = OPERATIONS[operation];
  if (!definition.rest || !definition.graphQL || !('response' in definition.rest)) {
    throw new Error(`${operation} is on one wire only`);
  }
  return { ...definition, rest: definition.rest, graphQL: definition.graphQL };
}

/** A parameter's GraphQL type, as a variable declares it. */
export const typeOf = (parameter: ParameterDefinition) =>
  `${parameter.graphQLType}${parameter.required ? '!' : ''}`;

/** Each operation as a GraphQL document taking every argument as a variable. */
export const PARITY_QUERIES = Object.fromEntries(
  Object.values(OPERATIONS).flatMap((definition) => {
    if (!definition.rest || !definition.graphQL || !('response' in definition.rest)) return [];
    const parameters: readonly ParameterDefinition[] = definition.parameters;
    const variables = parameters.map((p) => `$${p.name}: ${typeOf(p)}`).join(', ');
    const passed = parameters.map(({ name }) => `${name}: $${name}`).join(', ');
    const selection = selectionOf(responseTypeOf(definition.name), true);
    // An operation without parameters (getWebhooks) declares no variables: `()` is no syntax.
    const declared = parameters.length > 0 ? ` (${variables})` : '';
    const call = parameters.length > 0 ? `(${passed})` : '';
    return [
      [
        definition.name,
        `${definition.graphQL}${declared} { ${definition.name}${call} ${selection} }`,
      ],
    ];
  }),
) as Record<OperationName, string>;

/** Whether a variable's value fits its type in the committed SDL, as graphql-js coerces it. */
function coerces(typeName: string, value: unknown): boolean {
  let fits = true;
  coerceInputValue(value, typeFromAST(SCHEMA, parseType(typeName)) as GraphQLInputType, () => {
    fits = false;
  });
  return fits;
}

/**
 * A REST parameter as the value of its GraphQL argument; `refusal` starts Apollo's message when
 * the argument's type has no such value (a non-integer Int, a Boolean other than
 * true|false|1|0, a name out of its enum, JSON that does not parse for an input object). The
 * value is then sent as it is, so that Apollo is the one refusing it.
 */
export function graphQLValue(
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
 * A REST success as GraphQL reads it; a page as the page type of its items, whichever type the
 * root field declares.
 */
export function expectedData(operation: OperationName, body: Json): Json {
  const type = responseTypeOf(definitionOf(operation).name);
  if (!isPage(type)) return expected(type, body, true);
  const itemType = objectType(ITEM_TYPES[body.itemType as string] ?? 'none');
  expect(itemType).toBeDefined();
  const pageType = objectType(PAGE_TYPES[body.itemType as string] ?? 'none');
  expect(pageType).toBeDefined();
  return {
    ...expected(pageType, { ...body, items: [] }, true),
    items: (body.items as Json[]).map((item) => expected(itemType, item, true)),
  };
}

/** Whether the operation's root field returns a page of a data set. */
export const returnsPage = (operation: OperationName) =>
  isPage(responseTypeOf(definitionOf(operation).name));

import { Errors } from '../../errors';
import { MAX_ITEMS_PER_PAGE, type RawParam } from '../../services/sets/data-set.params';
import type { RawListParam } from '../../services/results/result-parameters';
import { parseId } from './ids';
import { ID_BODY_SCHEMA, ID_PATTERN } from './shapes/openapi.ids';
import type { JsonSchema } from './shapes/openapi.schemas';
import type { ParameterDefinition } from './operation-definition';

/**
 * The kinds of parameters the operations take: how each reads on REST and GraphQL, how the
 * OpenAPI description shows it, and what `run` receives. Only identifiers of single items and
 * attribute names are parsed here (as both transports always did); every other value goes to
 * the service as handed over, which checks it.
 */

interface Options {
  required?: boolean;
}

const passValue = (_operation: string, _name: string, raw: unknown) => raw as RawParam;
const passList = (_operation: string, _name: string, raw: unknown) => raw as RawListParam;

function given(raw: unknown): boolean {
  return raw !== undefined && raw !== null && String(raw).trim() !== '';
}

const idSchema = (of: string): JsonSchema => ({
  type: 'string',
  pattern: ID_PATTERN,
  description: of,
});
const TEXT: JsonSchema = { type: 'string' };

/** A parameter the service checks itself: handed over as received. */
function handedOver<N extends string>(
  fields: Omit<ParameterDefinition<N, RawParam>, 'rest' | 'parse' | 'required'> & {
    required?: boolean;
  },
): ParameterDefinition<N, RawParam> {
  return { ...fields, required: fields.required ?? false, rest: 'text', parse: passValue };
}

/** The identifier of one item (quiz, user), parsed to a number; blank is absent. */
export function itemIdParameter<N extends string>(
  name: N,
  description: string,
  of: string,
): ParameterDefinition<N, number> {
  return {
    name,
    required: true,
    description,
    graphQLType: 'ID',
    schema: idSchema(of),
    bodySchema: { ...ID_BODY_SCHEMA, description: of },
    rest: 'text',
    parse: (operation, parameterName, raw) => {
      if (raw === undefined || raw === null) throw Errors.missingParameter(operation, name);
      return parseId(operation, parameterName, String(raw));
    },
  };
}

/** An identifier the service checks (a filter, a data set). */
export function idParameter<N extends string>(
  name: N,
  description: string,
  of: string,
  options: Options = {},
): ParameterDefinition<N, RawParam> {
  return handedOver({
    name,
    required: options.required,
    description,
    graphQLType: 'ID',
    schema: idSchema(of),
  });
}

/** A required name, refused blank here (attribute names). */
export function nameParameter<N extends string>(
  name: N,
  description: string,
): ParameterDefinition<N, string> {
  return {
    name,
    required: true,
    description,
    graphQLType: 'String',
    schema: TEXT,
    rest: 'text',
    parse: (operation, parameterName, raw) => {
      if (!given(raw)) throw Errors.missingParameter(operation, parameterName);
      return String(raw);
    },
  };
}

/** Free text, or text with a format the service reads (`schema` says which). */
export function textParameter<N extends string>(
  name: N,
  description: string,
  schema: JsonSchema = TEXT,
): ParameterDefinition<N, RawParam> {
  return handedOver({ name, description, graphQLType: 'String', schema });
}

/** `start,end` or one value d meaning [d,d]. */
export const INTERVAL_SCHEMA: JsonSchema = {
  type: 'string',
  description:
    '`start,end` or one value d meaning [d,d]; values `YYYY-MM-DD hh:mm:ss` or `YYYY-MM-DD`',
};

/** true|false|1|0 on REST (contract.md §1), Boolean on GraphQL. */
export function booleanParameter<N extends string>(
  name: N,
  description: string,
): ParameterDefinition<N, RawParam> {
  return handedOver({
    name,
    description,
    graphQLType: 'Boolean',
    schema: { type: 'string', enum: ['true', 'false', '1', '0'] },
  });
}

/** An integer (from `minimum`, at most `maximum`): digits on REST, Int on GraphQL. */
export function integerParameter<N extends string>(
  name: N,
  description: string,
  range: { minimum?: number; maximum?: number } = {},
): ParameterDefinition<N, RawParam> {
  return handedOver({
    name,
    description,
    graphQLType: 'Int',
    schema: { type: 'integer', ...range },
  });
}

/** The page size of a set-making operation. */
export const pageSizeParameter = integerParameter(
  'numberOfItemsPerPage',
  `page size of the set made, 1 to ${MAX_ITEMS_PER_PAGE} (default 50)`,
  { minimum: 1, maximum: MAX_ITEMS_PER_PAGE },
);

/** One name of a closed list: a GraphQL enum. */
export function choiceParameter<N extends string>(
  name: N,
  description: string,
  values: readonly string[],
  graphQLEnum: string,
  options: Options = {},
): ParameterDefinition<N, RawParam> {
  return handedOver({
    name,
    required: options.required,
    description,
    graphQLType: graphQLEnum,
    values,
    schema: { type: 'string', enum: [...values] },
  });
}

/**
 * Names of a closed list: comma-separated on REST (an array the OpenAPI description serialises
 * with style form, explode false), a list of an enum on GraphQL.
 */
export function choiceListParameter<N extends string>(
  name: N,
  description: string,
  values: readonly string[],
  graphQLEnum: string,
): ParameterDefinition<N, RawListParam> {
  return {
    name,
    required: false,
    description,
    graphQLType: `[${graphQLEnum}!]`,
    values,
    schema: { type: 'array', items: { type: 'string', enum: [...values] }, minItems: 1 },
    rest: 'text',
    parse: passList,
  };
}

/** Identifiers: comma-separated on REST, a list of IDs on GraphQL. */
export function idListParameter<N extends string>(
  name: N,
  description: string,
): ParameterDefinition<N, RawListParam> {
  return {
    name,
    required: false,
    description,
    graphQLType: '[ID!]',
    schema: { type: 'array', items: { type: 'string', pattern: ID_PATTERN }, minItems: 1 },
    rest: 'text',
    parse: passList,
  };
}

/**
 * A JSON payload: URL-encoded JSON text in a query string, a value in a JSON body, an input
 * object on GraphQL (`graphQLInput`, whose component schema describes the body field), or a
 * list of them (`list`: how many the service takes).
 */
export function payloadParameter<N extends string>(
  name: N,
  description: string,
  graphQLInput: string,
  options: { list?: { min: number; max: number } } = {},
): ParameterDefinition<N, unknown> {
  const item: JsonSchema = { $ref: `#/components/schemas/${graphQLInput}` };
  const { list } = options;
  return {
    name,
    required: true,
    description,
    graphQLType: list ? `[${graphQLInput}!]` : graphQLInput,
    schema: TEXT,
    bodySchema: list
      ? { type: 'array', items: item, minItems: list.min, maxItems: list.max }
      : item,
    rest: 'json',
    parse: (_operation, _name, raw) => raw,
  };
}

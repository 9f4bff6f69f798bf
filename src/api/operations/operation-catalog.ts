import { pointsSentence, writesSentence, type OperationCost } from './operation-costs';
import { ATTRIBUTE_OPERATIONS } from './attribute.operation';
import { DATA_SET_OPERATIONS } from './data-set.operation';
import { DATA_SET_EXPORT_OPERATIONS } from './data-set-export.operation';
import { LIVE_OPERATIONS } from './live.operation';
import type { OperationDefinition } from './operation-definition';
import { PERSONAL_DATA_OPERATIONS } from './personal-data.operation';
import { QUIZ_OPERATIONS } from './quiz.operation';
import { RESULTS_OPERATIONS } from './results.operation';
import { SESSION_OPERATIONS } from './session.operation';
import { STATISTICS_OPERATIONS } from './statistics.operation';
import { USER_OPERATIONS } from './user.operation';
import { WEBHOOK_OPERATIONS } from './webhook.operation';

/**
 * Every operation of the API, by name, in the order schema/openapi.json lists them: the areas'
 * records below, each in its own order. Routes, parameters, costs, token rules and descriptions
 * on both wires follow from here. Adding one with a new output to an existing area is 5 source
 * files to edit (a new area adds its records to OPERATION_AREAS below and ROOT_FIELD_AREAS of
 * src/api/graphql/resolvers/catalog.resolver.ts, and its schemas file to shapes/openapi.schemas.ts;
 * a parameter of a new GraphQL enum or input type, to ARGUMENT_TYPES there):
 * 1. the service function, context first, and the view it returns, beside it: in the folder of
 *    src/services whose services it calls (folders import each other one way only);
 * 2. its definition in the `*.operation.ts` of its area, and its line in that file's
 *    `*_OPERATIONS` record; `rest.response` names its answer's component schema, which writes the
 *    view's JSON (ids as strings, legacy datetimes, the declared fields only:
 *    shapes/schema.serializer.ts), so a serializer in `./shapes` only for legacy JSON the schema
 *    cannot say;
 * 3. the output's OpenAPI component schema in `./shapes/openapi.*.ts`;
 * 4. its GraphQL object type in src/api/graphql/types, with one line in that file's
 *    `*_ROOT_FIELDS` record (the type and the view's conversion), from which the root field is
 *    built with its arguments and description: no resolver to write, unless the field does more
 *    than run the operation and convert (exportPersonalData, a subscription); without `graphQL`
 *    the operation is REST only, as exportDataSet;
 * 5. the client's method (packages/client/src/quiz-api-client.ts), answering
 *    `WireSchema<'<Output>'>`: no client type to write unless the client transforms the value
 *    (datetimes parsed into Date), then one beside its parse function;
 * then `npm run schema:emit` (schema/ and packages/client/src/openapi.generated.ts, the client's
 * wire types), a line naming the operation under Unreleased in schema/CHANGELOG.md, and its tests.
 * Tests fail, by operation, until each is done: operation-catalog.contract.test.ts on a missing
 * root field, client method, answer schema, client type or CHANGELOG line, or a record's key that
 * is not its operation's name; contracts.contract.test.ts on schema/ or the client's wire types
 * out of date; privacy-logs.contract.test.ts until it says what the operation's log line shows
 * (contract.md §14); fuzz.slow.test.ts until test/helpers/fuzz has its requests and shapes.
 */
const OPERATION_AREAS = [
  QUIZ_OPERATIONS,
  USER_OPERATIONS,
  ATTRIBUTE_OPERATIONS,
  DATA_SET_OPERATIONS,
  DATA_SET_EXPORT_OPERATIONS,
  RESULTS_OPERATIONS,
  STATISTICS_OPERATIONS,
  SESSION_OPERATIONS,
  LIVE_OPERATIONS,
  PERSONAL_DATA_OPERATIONS,
  WEBHOOK_OPERATIONS,
] as const;

type Intersection<U> = (U extends unknown ? (value: U) => void : never) extends (
  value: infer I,
) => void
  ? I
  : never;

/** The areas' records as one, each name once (a name in two areas fails at load). */
function merged<const A extends readonly Readonly<Record<string, OperationDefinition>>[]>(
  areas: A,
): Intersection<A[number]> {
  const all: Record<string, OperationDefinition> = {};
  for (const [name, operation] of areas.flatMap((area) => Object.entries(area))) {
    if (Object.hasOwn(all, name)) throw new Error(`${name}: an operation listed twice`);
    all[name] = operation;
  }
  return all as Intersection<A[number]>;
}

export const OPERATIONS = merged(OPERATION_AREAS);

export type OperationName = keyof typeof OPERATIONS;

export const OPERATION_CATALOG: readonly OperationDefinition[] = Object.values(OPERATIONS);

/** The operations the REST router serves (the others are GraphQL only). */
export const REST_CATALOG = OPERATION_CATALOG.filter((operation) => operation.rest);

/** The cost of an operation by name; names outside the catalog (`__typename`) cost nothing. */
export function operationCost(name: string): OperationCost {
  return Object.hasOwn(OPERATIONS, name)
    ? OPERATIONS[name as OperationName].cost
    : { points: 0, writes: 0 };
}

/** What the descriptions say of the access token. */
export function tokenSentence(operation: OperationDefinition): string {
  switch (operation.token) {
    case 'required':
      return 'An access token is required.';
    case 'forDetailedResults':
      return 'Detailed results need an access token.';
    case 'optional':
      return 'An access token is optional.';
  }
}

/** A GraphQL root field's description: the operation's, its token rule and what it costs. */
export function rootFieldDescription(operation: OperationDefinition): string {
  return `${operation.description} ${tokenSentence(operation)} ${pointsSentence(operation.cost)}${writesSentence(operation.cost)}`;
}

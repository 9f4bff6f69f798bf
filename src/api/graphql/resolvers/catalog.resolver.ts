import { GraphQLBoolean, GraphQLInt, GraphQLString } from 'graphql';
import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import {
  OPERATION_CATALOG,
  OPERATIONS,
  rootFieldDescription,
  type OperationName,
} from '../../operations/operation-catalog';
import type { OperationDefinition } from '../../operations/operation-definition';
import { plainInput, resolveOperation, type GraphQLContext } from '../execution/graphql.context';
import {
  AggregationFunctionEnum,
  GroupByEnum,
  IncludeQuizzesEnum,
  ResultTypeEnum,
} from '../types/computed-result.type';
import { SetOperator } from '../types/data-set.type';
import { QuizInput } from '../types/quiz.type';
import { AnswerInput, SessionInput } from '../types/session.type';
import { WebhookInput } from '../types/webhook.type';
import { DATA_SET_ITEMS_ROOT_FIELDS } from '../types/data-set-connection.type';
import { DATA_SET_ROOT_FIELDS } from '../types/data-set.type';
import { ATTRIBUTE_ROOT_FIELDS } from '../types/item-attribute.type';
import { QUIZ_ROOT_FIELDS } from '../types/quiz.type';
import { SESSION_RESULTS_ROOT_FIELDS } from '../types/session-results.type';
import { SESSION_ROOT_FIELDS } from '../types/session.type';
import { USER_ROOT_FIELDS } from '../types/user.type';
import { WEBHOOK_ROOT_FIELDS } from '../types/webhook.type';
import type { AnyRootFieldOutput, RootFieldOutputs } from '../types/root-field.outputs';

/**
 * The plain root fields, built from the catalog: for each operation ROOT_FIELD_OUTPUTS lists, a
 * query or mutation (as its `graphQL` says) whose arguments are its parameters, of their
 * `graphQLType`, described by rootFieldDescription; it runs the operation as REST does and
 * converts the view. type-graphql's decorators are applied here as the compiler would apply them.
 */

/**
 * The GraphQL types the catalog's parameters name (`graphQLType`, a list `[X!]` of one of them).
 * A parameter of a new enum or input type adds it here; the schema build fails until it does.
 */
const ARGUMENT_TYPES: Readonly<Record<string, object>> = {
  ID,
  String: GraphQLString,
  Int: GraphQLInt,
  Boolean: GraphQLBoolean,
  SetOperator,
  ResultType: ResultTypeEnum,
  AggregationFunction: AggregationFunctionEnum,
  GroupBy: GroupByEnum,
  IncludeQuizzes: IncludeQuizzesEnum,
  QuizInput,
  SessionInput,
  AnswerInput,
  WebhookInput,
};

/** type-graphql's type function for a `graphQLType` (`X` or `[X!]`). */
function argumentType(operation: string, graphQLType: string): () => object {
  const list = /^\[(\w+)!\]$/.exec(graphQLType);
  const name = list ? (list[1] as string) : graphQLType;
  const type = ARGUMENT_TYPES[name];
  if (!type) throw new Error(`${operation}: no GraphQL type ${name} in ARGUMENT_TYPES`);
  return list ? () => [type] : () => type;
}

/** One class holds every generated root field (a method each, named as its operation). */
@Resolver()
export class CatalogResolver {}

type RootFieldMethod = (context: GraphQLContext, ...values: unknown[]) => Promise<unknown>;

function addRootField(operation: OperationDefinition, output: AnyRootFieldOutput): void {
  const { name, parameters, graphQL } = operation;
  if (graphQL !== 'query' && graphQL !== 'mutation') {
    throw new Error(`${name}: only a query or mutation is a plain root field`);
  }
  const prototype = CatalogResolver.prototype as unknown as Record<string, RootFieldMethod>;
  // Arguments arrive after the context, in the catalog's order; input objects as plain data.
  prototype[name] = async (context, ...values) => {
    const args = Object.fromEntries(
      parameters.map((parameter, index) => [parameter.name, plainInput(values[index])]),
    );
    return output.from(await resolveOperation(operation, context, args));
  };
  Ctx()(prototype, name, 0);
  parameters.forEach((parameter, index) => {
    const options = output.args?.[parameter.name];
    Arg(parameter.name, argumentType(name, parameter.graphQLType), {
      nullable: !parameter.required,
      ...(options?.description === undefined ? {} : { description: options.description }),
      ...(options?.defaultValue === undefined ? {} : { defaultValue: options.defaultValue }),
    })(prototype, name, index + 1);
  });
  // Root fields are nullable: one failing field does not hide the others (contract.md §11).
  const decorate = graphQL === 'query' ? Query : Mutation;
  decorate(output.type, { nullable: true, description: rootFieldDescription(operation) })(
    prototype,
    name,
    Object.getOwnPropertyDescriptor(prototype, name) as PropertyDescriptor,
  );
}

/**
 * The plain root fields, by the type files that answer them: each runs its catalog operation on
 * its arguments and converts the view, so its line beside its object type is all it needs on
 * GraphQL. A root field that does more (exportPersonalData, the sessionResults subscription)
 * keeps its own resolver.
 */
const ROOT_FIELD_AREAS: readonly RootFieldOutputs[] = [
  QUIZ_ROOT_FIELDS,
  USER_ROOT_FIELDS,
  ATTRIBUTE_ROOT_FIELDS,
  DATA_SET_ROOT_FIELDS,
  DATA_SET_ITEMS_ROOT_FIELDS,
  SESSION_RESULTS_ROOT_FIELDS,
  SESSION_ROOT_FIELDS,
  WEBHOOK_ROOT_FIELDS,
];

/** The root fields in the catalog's order (introspection lists them so); each listed once. */
export function rootFieldsInCatalogOrder(
  areas: readonly RootFieldOutputs[],
): [OperationName, AnyRootFieldOutput][] {
  const merged = new Map<string, AnyRootFieldOutput>();
  for (const [name, output] of areas.flatMap((area) => Object.entries(area))) {
    if (merged.has(name)) throw new Error(`${name}: a root field listed twice`);
    // Each area types its outputs by their operation's view and parameters.
    merged.set(name, output as AnyRootFieldOutput);
  }
  const ordered = OPERATION_CATALOG.flatMap(({ name }) => {
    const output = merged.get(name);
    return output ? [[name as OperationName, output] as [OperationName, AnyRootFieldOutput]] : [];
  });
  if (ordered.length !== merged.size) throw new Error('a root field names no operation');
  return ordered;
}

export const ROOT_FIELD_OUTPUTS = rootFieldsInCatalogOrder(ROOT_FIELD_AREAS);

for (const [name, output] of ROOT_FIELD_OUTPUTS) addRootField(OPERATIONS[name], output);

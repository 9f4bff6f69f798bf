import {
  isAbstractType,
  lexicographicSortSchema,
  printSchema,
  type GraphQLSchema,
  type GraphQLTypeResolver,
} from 'graphql';
import { buildSchema, type PubSub } from 'type-graphql';
import { domainErrors } from './execution/graphql.middleware';
import { CatalogResolver } from './resolvers/catalog.resolver';
import { ComputedResultResolver } from './resolvers/computed-result.resolver';
import { LiveResultsResolver } from './resolvers/live-results.resolver';
import { PersonalDataResolver } from './resolvers/personal-data.resolver';
import { QuestionStatisticResolver, QuizStatisticResolver } from './resolvers/statistics.resolver';
import { QUESTION_OBJECT_TYPES, questionTypeName } from './types/question.type';
import { dataSetItemTypeName, dataSetPageTypeName } from './types/data-set.type';

/**
 * The resolvers of the GraphQL API, over the same services as REST: the plain root fields built
 * from the catalog (catalog.resolver.ts), the root fields that do more, and field resolvers.
 */
export const RESOLVERS = [
  CatalogResolver,
  ComputedResultResolver,
  QuestionStatisticResolver,
  QuizStatisticResolver,
  LiveResultsResolver,
  PersonalDataResolver,
] as const;

/**
 * type-graphql wants a PubSub once the schema has a subscription; ours streams from its own
 * `subscribe` function, so no topic is ever published or subscribed to.
 */
const NO_TOPICS: PubSub = {
  publish: () => {
    throw new Error('subscriptions stream from their subscribe functions, not topics');
  },
  subscribe: () => {
    throw new Error('subscriptions stream from their subscribe functions, not topics');
  },
};

/**
 * The object type of each abstract type's values, answered synchronously: type-graphql wraps
 * every resolveType in an async function, which graphql-js accepts and graphql-jit does not
 * (compiled.executor.ts). Every interface and union of the schema must have one here.
 */
const TYPE_NAMES: Record<string, (value: never) => string> = {
  Question: questionTypeName,
  DataSet: dataSetPageTypeName,
  DataSetItem: dataSetItemTypeName,
};

function withSynchronousTypeResolvers(built: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(built.getTypeMap())) {
    if (!isAbstractType(type)) continue;
    const typeName = TYPE_NAMES[type.name];
    if (!typeName) throw new Error(`abstract type ${type.name} has no synchronous type name`);
    type.resolveType = typeName as unknown as GraphQLTypeResolver<unknown, unknown>;
  }
  return built;
}

let schema: Promise<GraphQLSchema> | undefined;

/** Built once per process: type-graphql's metadata is global, and the schema never changes. */
export function graphQLSchema(): Promise<GraphQLSchema> {
  schema ??= buildSchema({
    resolvers: [...RESOLVERS],
    orphanedTypes: [...QUESTION_OBJECT_TYPES],
    pubSub: NO_TOPICS,
    // Resolvers fail with domain errors. Plain fields cannot fail: the object types declare
    // simpleResolvers, so they are read as properties, without a promise per field of a page.
    globalMiddlewares: [domainErrors],
    // Input rules are the service validator's, shared with REST and the import.
    validate: false,
  }).then(withSynchronousTypeResolvers);
  return schema;
}

/** The SDL as committed in schema/schema.graphql (sorted, so it diffs cleanly). */
export function printGraphQLSchema(built: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(built))}\n`;
}

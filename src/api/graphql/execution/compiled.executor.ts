import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import {
  BREAK,
  GraphQLError,
  Kind,
  execute,
  getVariableValues,
  printSchema,
  visit,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

/**
 * Documents run by graphql-jit: each document (Apollo keeps one parsed and validated document
 * per query text) is compiled once per operation into a function that resolves its fields with
 * the schema's own resolvers, so a request pays for its resolvers, not for graphql-js walking the
 * document again. Apollo keeps everything else (parsing, validation, the document limits,
 * plugins, errors formatted by formatGraphQLError): it hands execution to an executor through its
 * gateway interface, which is the one door it has for that.
 *
 * graphql-jit's errors are its own objects, not graphql-js's GraphQLError: they are made
 * graphql-js errors here, with the same message, locations, path and original error, so Apollo
 * and the error table read them exactly as those of graphql-js. Introspection, and anything
 * graphql-jit declines to compile, runs on graphql-js.
 */

/** A compiled operation, or null: run on graphql-js. */
type Compiled = CompiledQuery | null;

const compiledByDocument = new WeakMap<DocumentNode, Map<string, Compiled>>();

/** Whether the document asks the schema about itself (graphql-js answers that). */
function asksIntrospection(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Field(node) {
      if (node.name.value === '__schema' || node.name.value === '__type') {
        found = true;
        return BREAK;
      }
      return undefined;
    },
  });
  return found;
}

function compiledOf(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null,
): Compiled {
  let byOperation = compiledByDocument.get(document);
  if (!byOperation) {
    byOperation = new Map();
    compiledByDocument.set(document, byOperation);
  }
  const key = operationName ?? '';
  let compiled = byOperation.get(key);
  if (compiled === undefined) {
    const hasOperation = document.definitions.some(
      (definition) => definition.kind === Kind.OPERATION_DEFINITION,
    );
    const result =
      hasOperation && !asksIntrospection(document)
        ? compileQuery(schema, document, operationName ?? undefined)
        : undefined;
    compiled = result !== undefined && isCompiledQuery(result) ? result : null;
    byOperation.set(key, compiled);
  }
  return compiled;
}

/** The shape of graphql-jit's errors. */
interface JitError {
  message: string;
  locations?: readonly { line: number; column: number }[];
  path?: readonly (string | number)[];
  originalError?: Error;
  extensions?: Record<string, unknown>;
}

/**
 * A graphql-jit error as the graphql-js error it stands for. graphql-jit's inherit graphql-js's
 * prototype but not its fields (no `extensions` object, which Apollo reads), so only graphql-js's
 * own errors pass as they are.
 */
function graphQLErrorOf(error: unknown): GraphQLError {
  if (error instanceof GraphQLError && error.constructor === GraphQLError) return error;
  const jit = error as JitError;
  const converted = new GraphQLError(jit.message, {
    path: jit.path,
    originalError: jit.originalError,
    extensions: jit.extensions,
  });
  // graphql-js computes locations from nodes; graphql-jit already did.
  (converted as { locations?: unknown }).locations =
    jit.locations && jit.locations.length > 0 ? jit.locations : undefined;
  return converted;
}

/** Apollo's executor: the compiled operation, or graphql-js. */
export function compiledExecutor(schema: GraphQLSchema): GatewayExecutor {
  return async ({ document, request, context, operationName, operation }) => {
    const compiled = compiledOf(schema, document, operationName);
    if (compiled === null) {
      return execute({
        schema,
        document,
        contextValue: context,
        variableValues: request.variables,
        operationName,
      });
    }
    // Variables are checked by graphql-js first: its refusals carry the variable's node, by
    // which Apollo tells a client's bad input (400, BAD_USER_INPUT) from a failure.
    const variables = request.variables ?? {};
    const checked = getVariableValues(schema, operation.variableDefinitions ?? [], variables, {
      maxErrors: 50,
    });
    if (checked.errors) return { errors: checked.errors };
    const result = (await compiled.query(undefined, context, variables)) as ExecutionResult;
    return result.errors ? { ...result, errors: result.errors.map(graphQLErrorOf) } : result;
  };
}

/** What Apollo Server takes in place of `schema` to run documents with compiledExecutor. */
export function compiledGateway(schema: GraphQLSchema): GatewayInterface {
  return {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: printSchema(schema) });
      return () => undefined;
    },
    load: () => Promise.resolve({ executor: compiledExecutor(schema) }),
    stop: () => Promise.resolve(),
  };
}

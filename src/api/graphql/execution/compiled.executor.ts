import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import {
  BREAK,
  GraphQLError,
  execute,
  getVariableValues,
  printSchema,
  visit,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
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
 * and the error table read them exactly as those of graphql-js. Introspection, operations with
 * variable defaults, an operation's first run and anything graphql-jit declines to compile run
 * on graphql-js.
 */

/** A compiled operation, or null: run on graphql-js. */
type Compiled = CompiledQuery | null;

/**
 * Compiling costs far more than one run, on the request's turn of the event loop: an operation
 * is compiled the second time it runs (a client's documents repeat; a one-off does not pay), and
 * at most this many are kept, the oldest compiled first out.
 */
const MAX_COMPILED = 500;
const seenOnce = new WeakSet<OperationDefinitionNode>();
const compiledOperations = new Map<OperationDefinitionNode, Compiled>();

/** How many operations this process has compiled and keeps (for the tests' parity checks). */
export function compiledOperationCount(): number {
  return [...compiledOperations.values()].filter((compiled) => compiled !== null).length;
}

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

/**
 * What graphql-jit runs as graphql-js does. Not: introspection; variables with a default value
 * (graphql-jit writes a default through JSON, so a DateTime default would reach the resolver as
 * a string where graphql-js gives a Date).
 */
function compilable(document: DocumentNode, operation: OperationDefinitionNode): boolean {
  const defaults = (operation.variableDefinitions ?? []).some(
    (definition) => definition.defaultValue !== undefined,
  );
  return !defaults && !asksIntrospection(document);
}

function compiledOf(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): Compiled {
  const known = compiledOperations.get(operation);
  if (known !== undefined) return known;
  if (!seenOnce.has(operation)) {
    seenOnce.add(operation);
    return null;
  }
  let compiled: Compiled = null;
  if (compilable(document, operation)) {
    const result = compileQuery(schema, document, operation.name?.value);
    compiled = isCompiledQuery(result) ? result : null;
  }
  if (compiledOperations.size >= MAX_COMPILED) {
    compiledOperations.delete(compiledOperations.keys().next().value as OperationDefinitionNode);
  }
  compiledOperations.set(operation, compiled);
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
  return async ({ document, request, context, operation }) => {
    // No operation of that name (Apollo still calls the executor): graphql-js reports it, as a
    // client's error; and whatever is not compiled runs there too.
    const compiled = operation ? compiledOf(schema, document, operation) : null;
    if (!operation || compiled === null) {
      return execute({
        schema,
        document,
        contextValue: context,
        variableValues: request.variables,
        operationName: request.operationName,
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

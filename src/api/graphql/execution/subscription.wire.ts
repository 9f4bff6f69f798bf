import {
  GraphQLError,
  getOperationAST,
  parse,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type FormattedExecutionResult,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValidationRule,
} from 'graphql';
import type { SubscribePayload } from 'graphql-ws';
import { ServiceApiError } from '../../../errors';
import { formatGraphQLError } from './graphql.errors';

/**
 * What the WebSocket reads of a subscribe message and how it answers: the document parsed and
 * validated as Apollo does on HTTP, and errors on the wire as on HTTP (formatGraphQLError).
 */

/** A subscribe message whose document parsed, passed the rules and names one operation. */
export interface ParsedSubscription {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variables: Record<string, unknown> | null;
}

/**
 * An error of a subscription on the wire, as on HTTP (formatGraphQLError). graphql-js's own
 * refusal of a request's variables carries no code and no path (an enum value it does not know
 * carries the enum's GraphQLError as originalError): a bad request, as Apollo codes it. What a
 * resolver threw has a path.
 */
export function wireError(error: GraphQLError): GraphQLFormattedError {
  const json = error.toJSON();
  const thrown = error.originalError && !(error.originalError instanceof GraphQLError);
  const coded =
    thrown || json.path !== undefined || json.extensions?.code !== undefined
      ? json
      : { ...json, extensions: { ...json.extensions, code: 'BAD_USER_INPUT' } };
  return formatGraphQLError(coded, error);
}

export function wireResult(result: ExecutionResult): FormattedExecutionResult | undefined {
  if (!result.errors) return undefined;
  return { ...result, errors: result.errors.map(wireError) };
}

/** A refusal of a subscribe message, as graphql-ws sends it (an `error` message). */
export function refusal(error: ServiceApiError): GraphQLError[] {
  return [new GraphQLError(error.message, { originalError: error })];
}

/** graphql-js's refusals of a document, coded as Apollo codes them on HTTP. */
function coded(errors: readonly GraphQLError[], code: string): GraphQLError[] {
  return errors.map((error) =>
    error.originalError instanceof ServiceApiError
      ? error
      : new GraphQLError(error.message, {
          nodes: error.nodes,
          source: error.source,
          positions: error.positions,
          extensions: { ...error.extensions, code },
        }),
  );
}

/**
 * A subscribe message's document, parsed (at most `maxTokens`), validated by `rules`, and its
 * operation found; else the refusals graphql-ws sends back, coded as Apollo codes them.
 */
export function parseSubscription(
  schema: GraphQLSchema,
  rules: readonly ValidationRule[],
  maxTokens: number,
  payload: SubscribePayload,
): ParsedSubscription | GraphQLError[] {
  let document: DocumentNode;
  try {
    document = parse(payload.query, { maxTokens });
  } catch (error) {
    if (error instanceof GraphQLError) return coded([error], 'GRAPHQL_PARSE_FAILED');
    throw error;
  }
  const invalid = validate(schema, document, rules);
  if (invalid.length > 0) return coded(invalid, 'GRAPHQL_VALIDATION_FAILED');
  const operation = getOperationAST(document, payload.operationName);
  if (!operation) {
    const error = new GraphQLError('Unable to identify the operation to run', {
      extensions: { code: 'OPERATION_RESOLUTION_FAILURE' },
    });
    return [error];
  }
  const variables =
    payload.variables && typeof payload.variables === 'object'
      ? (payload.variables as Record<string, unknown>)
      : null;
  return { document, operation, variables };
}

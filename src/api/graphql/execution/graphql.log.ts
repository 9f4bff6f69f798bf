import type { ApolloServerPlugin } from '@apollo/server';
import { Kind } from 'graphql';
import { rootFields } from './root-fields';

/**
 * What the request's log line tells of a GraphQL request (its HTTP status says little): names
 * only. Neither the document nor its variables are logged, for answers, titles, names and
 * search text travel there (contract.md §14.7).
 */
export interface GraphQLRequestSummary {
  operationName: string | null;
  /** The root fields it ran, by name (an alias counts as its field). */
  rootFields: string[];
  /** The contract's exception type of each error of the answer, in order. */
  errorTypes: string[];
}

/** A context that takes the summary (GraphQLContext, for HTTP requests). */
export interface DescribedContext {
  describe?: (summary: GraphQLRequestSummary) => void;
}

/**
 * Hands each request's summary to its context's `describe`, which the route keeps for the
 * request's one log line (app.ts): a failing field then logs as a warning, with its type.
 */
export const requestSummaryPlugin: ApolloServerPlugin<DescribedContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ contextValue, operation, operationName, document, response }) {
        if (!contextValue.describe) return;
        const fragments = new Map(
          (document?.definitions ?? []).flatMap((definition) =>
            definition.kind === Kind.FRAGMENT_DEFINITION
              ? [[definition.name.value, definition] as const]
              : [],
          ),
        );
        const errors = response.body.kind === 'single' ? response.body.singleResult.errors : [];
        contextValue.describe({
          operationName: operationName ?? null,
          rootFields: operation
            ? rootFields(operation.selectionSet, (name) => fragments.get(name)).map(
                (field) => field.name.value,
              )
            : [],
          errorTypes: (errors ?? []).map((error) => String(error.extensions?.type ?? 'unknown')),
        });
      },
    };
  },
};

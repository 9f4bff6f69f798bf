import { createClient, type Client } from 'graphql-ws/client';
import {
  exceptionFromGraphQLError,
  exceptionFromResponse,
  TransportException,
  type GraphQLErrorObject,
  type ServiceApiException,
} from './errors';
import type { ComputedResult, ResultOf, ResultType } from './types';
import type {
  SessionResultsHandlers,
  SessionResultsWatch,
  WatchSessionResultsParams,
} from './live-results.types';

/**
 * Live results (contract.md §10): the sessionResults subscription over WebSocket at
 * `{base}/graphql`, with the graphql-transport-ws protocol of graphql-ws. The API key and the
 * current access token go in the connection_init payload. Each message holds every item of the
 * session's results, in the shape getResults gives them.
 */

/** A WebSocket class: the browser's, or in Node 20 (which has none) `ws`'s WebSocket. */
export type WebSocketConstructor = new (url: string, protocols?: string | string[]) => unknown;

/** Where and as whom a watch connects (a QuizApiClient is one). */
export interface LiveResultsTarget {
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Read at each connection, so a reconnection sends the token current then. */
  readonly accessToken: string | undefined;
  /** The global WebSocket when absent. */
  readonly webSocketImpl?: WebSocketConstructor;
}

const OPERATION = 'sessionResults';

/**
 * The service closes with this code a connection whose credentials it refused (4401, which
 * graphql-ws never retries; earlier versions of the service said 4403, which it retries).
 */
const CREDENTIALS_REFUSED = new Set([4401, 4403]);

/** Every result type, in the order the service lists them (test/unit/result-types.test.ts). */
export const RESULT_TYPE_FIELDS: readonly ResultType[] = [
  'nbGoodAnswers',
  'goodAnswersPercent',
  'percentile',
  'nbAnswers',
  'duration',
];

/**
 * The fields of an item by shape, as getResults sends them (contract.md §4): REST's `id` is
 * GraphQL's `itemId` (GraphQL's `id` is unique across the service, contract.md §15).
 */
const IDENTIFYING_FIELDS = {
  detailed: ['id: itemId', 'userId', 'quizId', 'sessionId'],
  user: ['id: itemId', 'userId', 'aggregationFunction'],
  quiz: ['id: itemId', 'quizId', 'aggregationFunction'],
} as const;

const ARGUMENT_TYPES = {
  sessionId: 'ID!',
  resultTypes: '[ResultType!]',
  aggregationFunctions: '[AggregationFunction!]',
  groupBy: 'GroupBy',
  includeQuizzes: 'IncludeQuizzes',
} as const;

/**
 * The subscription document: every argument a variable, and the fields of the items as REST
 * has them (its shape's ids, the result types asked for), so items read alike on both.
 */
export function sessionResultsDocument(params: WatchSessionResultsParams): {
  query: string;
  variables: Record<string, unknown>;
} {
  const shape = params.groupBy ?? (params.aggregationFunctions ? 'user' : 'detailed');
  const asked = params.resultTypes?.length ? params.resultTypes : ['nbGoodAnswers'];
  // A value the schema does not know is left to the service to refuse, as a bad parameter.
  const numbers = RESULT_TYPE_FIELDS.filter((type) => asked.includes(type));
  const fields = [...(IDENTIFYING_FIELDS[shape] ?? IDENTIFYING_FIELDS.user), ...numbers];
  const names = Object.keys(ARGUMENT_TYPES) as (keyof typeof ARGUMENT_TYPES)[];
  const declared = names.map((name) => `$${name}: ${ARGUMENT_TYPES[name]}`).join(', ');
  const passed = names.map((name) => `${name}: $${name}`).join(', ');
  const variables: Record<string, unknown> = { sessionId: String(params.sessionId) };
  for (const name of names.slice(1)) {
    const value = params[name];
    if (value !== undefined) variables[name] = Array.isArray(value) ? [...value] : value;
  }
  return {
    query: `subscription SessionResults(${declared}) { ${OPERATION}(${passed}) { ${fields.join(' ')} } }`,
    variables,
  };
}

/** `{base}/graphql` as a ws: or wss: URL (a base that is a path alone is read against the page). */
export function webSocketUrl(baseUrl: string): string {
  const page = typeof location === 'undefined' ? undefined : location.href;
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}/graphql`, page);
  if (url.protocol === 'http:') url.protocol = 'ws:';
  else if (url.protocol === 'https:') url.protocol = 'wss:';
  return url.href;
}

/** The messages of contract.md §2 a close reason carries, and what each stands for. */
const CLOSE_MESSAGES: readonly {
  prefix: string;
  type: string;
  status: number;
  names: 'operation' | 'parameterName';
}[] = [
  {
    prefix: 'Unauthorized operation',
    type: 'UnauthorizedOperationException',
    status: 401,
    names: 'operation',
  },
  {
    prefix: 'Missing parameter',
    type: 'MissingParameterException',
    status: 400,
    names: 'parameterName',
  },
  { prefix: 'Bad parameter', type: 'BadParameterException', status: 400, names: 'parameterName' },
  {
    prefix: 'Too many requests',
    type: 'TooManyRequestsException',
    status: 429,
    names: 'operation',
  },
  {
    prefix: 'Service unavailable',
    type: 'UnexpectedServerResponseException',
    status: 503,
    names: 'operation',
  },
  {
    prefix: 'Internal server error',
    type: 'InternalServerErrorException',
    status: 500,
    names: 'operation',
  },
];

interface CloseLike {
  code: number;
  reason: string;
}

function isCloseLike(value: unknown): value is CloseLike {
  return typeof value === 'object' && value !== null && 'code' in value && 'reason' in value;
}

/**
 * The exception of a connection the service closed: its close reason is the exception's message
 * (`Unauthorized operation: graphql (the API key is unknown)`, cut at 123 bytes), read back into
 * the exception object REST would send.
 */
function exceptionFromClose(event: CloseLike): ServiceApiException | TransportException {
  const reason = String(event.reason);
  const match = /^([^:]+): (\S+)(?: \((.*?)\)?)?$/s.exec(reason);
  const known = match && CLOSE_MESSAGES.find((entry) => entry.prefix === match[1]);
  if (match && known) {
    const named = match[2] as string;
    return exceptionFromResponse(OPERATION, known.status, {
      type: known.type,
      message: reason,
      operation: known.names === 'operation' ? named : OPERATION,
      reason: match[3] ?? reason,
      ...(known.names === 'parameterName' ? { parameterName: named } : {}),
    });
  }
  if (CREDENTIALS_REFUSED.has(event.code)) {
    return exceptionFromResponse(OPERATION, 401, {
      type: 'UnauthorizedOperationException',
      message: `Unauthorized operation: ${OPERATION} (${reason || 'the credentials were refused'})`,
      operation: OPERATION,
      reason: reason || 'the credentials were refused',
    });
  }
  return new TransportException(
    OPERATION,
    `${OPERATION}: the connection closed (${event.code}${reason ? `: ${reason}` : ''})`,
    undefined,
    event,
  );
}

/** What graphql-ws reports when a subscription fails, as the client's exceptions. */
function exceptionOf(failure: unknown): ServiceApiException | TransportException {
  if (Array.isArray(failure) && failure.length > 0) {
    return exceptionFromGraphQLError(OPERATION, failure[0] as GraphQLErrorObject);
  }
  if (isCloseLike(failure)) return exceptionFromClose(failure);
  return new TransportException(
    OPERATION,
    `${OPERATION}: the connection to the service failed`,
    undefined,
    failure,
  );
}

/**
 * Runs a handler of the caller. What it throws is reported as an uncaught error, after
 * graphql-ws's own message handling, which would otherwise close the connection for it.
 */
function deliver(handler: () => void): void {
  try {
    handler();
  } catch (error) {
    setTimeout(() => {
      throw error;
    });
  }
}

/**
 * Follows the results of a session the token's user owns: `onResults` gets every item of the
 * results now, then again each time answers of the session are stored (at most one message
 * every 250 ms). An abrupt close is retried (graphql-ws's backoff, 5 attempts, each one sending
 * the token current then); credentials the service refuses (close 4401) are not.
 */
export function watchSessionResults<P extends WatchSessionResultsParams>(
  target: LiveResultsTarget,
  params: P,
  handlers: SessionResultsHandlers<ResultOf<P>>,
): SessionResultsWatch {
  const { query, variables } = sessionResultsDocument(params);
  let over = false;
  const client: Client = createClient({
    url: webSocketUrl(target.baseUrl),
    webSocketImpl: target.webSocketImpl,
    connectionParams: () => ({ apiKey: target.apiKey, accessToken: target.accessToken }),
    shouldRetry: (event) => isCloseLike(event) && !CREDENTIALS_REFUSED.has(event.code),
  });
  const stop = (): boolean => {
    if (over) return false;
    over = true;
    unsubscribe();
    void client.dispose();
    return true;
  };
  const unsubscribe = client.subscribe<{ sessionResults?: ComputedResult[] | null }>(
    { query, variables },
    {
      next: (result) => {
        if (over) return;
        if (result.errors?.length) {
          const error = exceptionOf(result.errors);
          deliver(() => handlers.onError?.(error));
          return;
        }
        const items = result.data?.sessionResults;
        if (Array.isArray(items)) deliver(() => handlers.onResults(items as ResultOf<P>[]));
      },
      error: (failure) => {
        if (over) return;
        const error = exceptionOf(failure);
        deliver(() => handlers.onError?.(error));
        if (stop()) deliver(() => handlers.onEnd?.());
      },
      complete: () => {
        if (stop()) deliver(() => handlers.onEnd?.());
      },
    },
  );
  return { close: () => void stop() };
}

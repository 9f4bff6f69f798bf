import type { FormattedExecutionResult } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { RESULT_TYPES } from '../../src/domain/results/result-types.registry';
import { graphql } from './graphql';

/**
 * graphql-ws clients (the graphql-transport-ws protocol) of a running service's /graphql, for
 * the subscription of contract.md §10: what each subscription received, and how it ended.
 */

/** A close event as the client reports it. */
export interface Closed {
  code: number;
  reason: string;
}

export interface LiveClientOptions {
  /** The connection_init payload. */
  connectionParams: Record<string, unknown>;
  /** The Origin header of the upgrade request (none by default, as from a script). */
  origin?: string;
  /** Other headers of the upgrade request. */
  headers?: Record<string, string>;
  /** Path of the endpoint, `/graphql` by default. */
  path?: string;
}

/** A client that connects on its first subscription and never retries, so refusals show. */
export function liveClient(baseUrl: string, options: LiveClientOptions): Client {
  const { origin, headers } = options;
  const webSocketImpl =
    origin || headers
      ? class extends WebSocket {
          constructor(address: string, protocols?: string | string[]) {
            super(address, protocols, { origin, headers });
          }
        }
      : WebSocket;
  return createClient({
    url: `${baseUrl.replace(/^http/, 'ws')}${options.path ?? '/graphql'}`,
    webSocketImpl,
    connectionParams: options.connectionParams,
    retryAttempts: 0,
  });
}

/** One message as it came, with the time it came. */
export interface Received {
  at: number;
  result: FormattedExecutionResult;
}

/** What one subscription received, until it completed or failed. */
export class LiveSubscription {
  readonly received: Received[] = [];
  /** Set when the subscription completed normally. */
  completed = false;
  /** What ended it otherwise: a close event, or the errors of an `error` message. */
  failure: unknown;
  /** Resolves when it ends, whichever way. */
  readonly ended: Promise<void>;
  private waiters: (() => void)[] = [];
  readonly unsubscribe: () => void;

  constructor(client: Client, query: string, variables: Record<string, unknown> = {}) {
    let settle: () => void = () => undefined;
    this.ended = new Promise((resolve) => (settle = resolve));
    this.unsubscribe = client.subscribe<Record<string, unknown>>(
      { query, variables },
      {
        next: (result) => {
          this.received.push({ at: Date.now(), result: result as FormattedExecutionResult });
          this.poke();
        },
        error: (error) => {
          this.failure = error;
          settle();
          this.poke();
        },
        complete: () => {
          this.completed = true;
          settle();
          this.poke();
        },
      },
    );
  }

  /** The data of each message, in order. */
  get data(): unknown[] {
    return this.received.map((message) => message.result.data);
  }

  /** Resolves once `check` holds (checked after each message and at the end), else times out. */
  async until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (this.completed || this.failure !== undefined) {
        throw new Error(
          `ended before ${what}: ${JSON.stringify(this.failure ?? 'complete')}; received ${JSON.stringify(this.data)}`,
        );
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`timed out waiting for ${what}; received ${JSON.stringify(this.data)}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Resolves once `count` messages came. */
  messages(count: number): Promise<void> {
    return this.until(() => this.received.length >= count, `${count} messages`);
  }

  private poke(): void {
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((wake) => wake());
  }
}

/** The close event a refused connection ended with. */
export function closeOf(failure: unknown): Closed | undefined {
  if (failure && typeof failure === 'object' && 'code' in failure) {
    const { code, reason } = failure as { code: unknown; reason: unknown };
    return { code: Number(code), reason: String(reason) };
  }
  return undefined;
}

/**
 * What a results item is compared by: its number in its list (its global `id` names its set or
 * subscription, contract.md §15), its ids and every result type.
 */
export const RESULT_FIELDS = `itemId userId quizId sessionId aggregationFunction ${RESULT_TYPES.join(' ')}`;

const ARGUMENTS = {
  sessionId: 'ID!',
  resultTypes: '[ResultType!]',
  aggregationFunctions: '[AggregationFunction!]',
  groupBy: 'GroupBy',
  includeQuizzes: 'IncludeQuizzes',
};
const DECLARED = Object.entries(ARGUMENTS)
  .map(([name, type]) => `$${name}: ${type}`)
  .join(', ');
const PASSED = Object.keys(ARGUMENTS)
  .map((name) => `${name}: $${name}`)
  .join(', ');

/** The arguments of sessionResults (and of getSessionResults but its page size). */
export interface SessionResultsVariables {
  sessionId: string;
  resultTypes?: string[];
  aggregationFunctions?: string[];
  groupBy?: string;
  includeQuizzes?: string;
}

/** The subscription, every argument a variable. */
export const SESSION_RESULTS = `subscription (${DECLARED}) { sessionResults(${PASSED}) { ${RESULT_FIELDS} } }`;

/** The items getSessionResults gives over HTTP for the same arguments, all on one page. */
export async function sessionResultsOverHttp(
  baseUrl: string,
  credentials: string,
  variables: SessionResultsVariables,
): Promise<unknown[]> {
  const { body } = await graphql(
    baseUrl,
    `query (${DECLARED}) { getSessionResults(${PASSED}, numberOfItemsPerPage: 1000) {
       results { totalNumberOfItems items { ... on ComputedResult { ${RESULT_FIELDS} } } } } }`,
    { variables: { ...variables }, search: `?${credentials}` },
  );
  const results = (body.data?.getSessionResults as { results?: { items: unknown[] } } | null)
    ?.results;
  if (!results) throw new Error(`getSessionResults failed: ${JSON.stringify(body.errors)}`);
  return results.items;
}

/** The results a subscription message carries. */
export function itemsOf(received: Received | undefined): unknown {
  return (received?.result.data as { sessionResults?: unknown } | null | undefined)?.sessionResults;
}

/** A REST operation called with a JSON body, as the classroom app writes. */
export async function postJson(
  baseUrl: string,
  operation: string,
  credentials: string,
  body: Record<string, unknown>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${baseUrl}/${operation}?${credentials}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import {
  GraphQLError,
  getOperationAST,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FormattedExecutionResult,
  type GraphQLFormattedError,
} from 'graphql';
import { CloseCode, type Context } from 'graphql-ws';
import { useServer, type Extra } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { createRequestContext, type AppDeps } from '../../context/request-context';
import { Errors, ServiceApiError, toServiceApiError } from '../../errors';
import {
  authenticateCredentials,
  type Authenticated,
} from '../../services/auth/credentials.service';
import { chargeRequest } from '../../services/limits/rate-limit.service';
import { credentialsFrom } from '../http/credentials.reader';
import { clientIpOf } from '../http/client-ip';
import type { GraphQLContext } from './execution/graphql.context';
import { formatGraphQLError } from './execution/graphql.errors';
import { DOCUMENT_LIMITS, documentLimitRules, priceDocument } from './graphql.limits';
import { graphQLPath } from './graphql.routes';
import { graphQLSchema } from './graphql.schema';

/**
 * Subscriptions (contract.md §10) over WebSocket at `/graphql`, with the graphql-transport-ws
 * protocol of graphql-ws: its `useServer` on a `ws` server that takes the HTTP server's upgrades
 * of that path (any other upgrade is destroyed). Credentials come once, in connection_init
 * (`{apiKey, accessToken}`), checked as for any request, the key's host against the upgrade's
 * Origin or client IP; a refusal closes with a code graphql-ws does not retry (closeCodeOf), the
 * exception's message as the reason. Each subscribe runs the checks of HTTP
 * documents (limits, cost, the API key's points) before its operation starts.
 */

/** Subscriptions one connection may hold at once; one more is refused, the others go on. */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 5;
/** A connection that sends no connection_init within this time is closed (4408). */
const CONNECTION_INIT_WAIT_MS = 3_000;
/**
 * A ping every so often; a connection that has not answered by the next one is dropped. One
 * without any subscription for LIVE_IDLE_TIMEOUT_SECONDS is closed (1000).
 */
const KEEP_ALIVE_MS = 12_000;
/** The largest WebSocket message taken (a larger one closes the connection, 1009). */
const MAX_MESSAGE_BYTES = 64 * 1024;
/** The longest close reason a WebSocket close frame carries, in bytes. */
const MAX_CLOSE_REASON_BYTES = 123;

export interface SubscriptionEndpoint {
  /** Refuses new connections, tells the open ones the server goes away (1001), waits for them. */
  close(): Promise<void>;
}

function pathOf(url: string | undefined): string {
  return new URL(url ?? '/', 'http://upgrade').pathname;
}

function closeReason(message: string): string {
  let reason = message;
  while (Buffer.byteLength(reason) > MAX_CLOSE_REASON_BYTES) reason = `${reason.slice(0, -2)}…`;
  return reason;
}

/**
 * Why credentials were refused, as a close code a graphql-ws client does not retry (its default
 * `shouldRetry` retries 4403 and 4408 by design, and stops on 4400, 4401, 4406, 4409, 4429,
 * 4500): refused credentials (401, and 403 should a refusal ever carry it) 4401, a missing or
 * malformed one (400) 4400. Only a service that cannot check them now asks for a retry (1013).
 */
function closeCodeOf(error: ServiceApiError): number {
  if (error.status === 503) return 1013; // Try Again Later
  if (error.status >= 500) return CloseCode.InternalServerError;
  if (error.status === 401 || error.status === 403) return CloseCode.Unauthorized;
  return CloseCode.BadRequest;
}

/**
 * An error of a subscription on the wire, as on HTTP (formatGraphQLError). graphql-js's own
 * refusal of a request's variables carries no code and no path (an enum value it does not know
 * carries the enum's GraphQLError as originalError): a bad request, as Apollo codes it. What a
 * resolver threw has a path.
 */
function wireError(error: GraphQLError): GraphQLFormattedError {
  const json = error.toJSON();
  const thrown = error.originalError && !(error.originalError instanceof GraphQLError);
  const coded =
    thrown || json.path !== undefined || json.extensions?.code !== undefined
      ? json
      : { ...json, extensions: { ...json.extensions, code: 'BAD_USER_INPUT' } };
  return formatGraphQLError(coded, error);
}

function wireResult(result: ExecutionResult): FormattedExecutionResult | undefined {
  if (!result.errors) return undefined;
  return { ...result, errors: result.errors.map(wireError) };
}

/** A refusal of a subscribe message, as graphql-ws sends it (an `error` message). */
function refusal(error: ServiceApiError): GraphQLError[] {
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

export async function attachSubscriptions(
  server: http.Server,
  app: Express,
  deps: AppDeps,
): Promise<SubscriptionEndpoint> {
  const { config, logger } = deps;
  const path = graphQLPath(config.basePath);
  const schema = await graphQLSchema();
  const rules = [...specifiedRules, ...documentLimitRules('websocket')];
  // A message is a document and its variables: the limit of a request body.
  // A message is a subscription document (at most DOCUMENT_LIMITS.tokens) and its variables:
  // far below a request body's limit, and refused before it is parsed.
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: Math.min(config.bodyLimitBytes, MAX_MESSAGE_BYTES),
  });
  // Who each connection authenticated as, from its connection_init.
  const connections = new WeakMap<object, Authenticated>();

  const subscribe = async (
    connection: object,
    subscriptions: number,
    payload: { query: string; operationName?: string | null; variables?: unknown },
  ): Promise<ExecutionArgs | GraphQLError[]> => {
    const auth = connections.get(connection);
    if (!auth)
      return refusal(Errors.unauthenticated('graphql', 'the connection is not initialised'));
    if (subscriptions > MAX_SUBSCRIPTIONS_PER_CONNECTION) {
      return refusal(
        Errors.queryTooComplex(
          `the connection holds ${subscriptions} subscriptions, over the limit of ${MAX_SUBSCRIPTIONS_PER_CONNECTION}`,
          MAX_SUBSCRIPTIONS_PER_CONNECTION,
          subscriptions,
        ),
      );
    }
    if (auth.tokenExpiresAt !== null && !(auth.tokenExpiresAt > Date.now())) {
      return refusal(Errors.unauthenticated('graphql', 'the access token has expired'));
    }
    let document: DocumentNode;
    try {
      document = parse(payload.query, { maxTokens: DOCUMENT_LIMITS.tokens });
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
    const requestId = randomUUID();
    const ctx = createRequestContext(deps, {
      requestId,
      operation: 'graphql',
      requester: auth.requester,
    });
    try {
      const { points } = priceDocument(
        {
          schema,
          document,
          operation,
          request: { operationName: payload.operationName, variables },
        },
        config.graphqlMaxCost,
      );
      // Charged before it streams anything.
      await chargeRequest(ctx, points, () => undefined);
    } catch (error) {
      const domain = toServiceApiError(error, 'graphql', requestId);
      if (domain.status >= 500) logger.error({ err: error }, 'GraphQL limits failed');
      return refusal(domain);
    }
    const contextValue: GraphQLContext = { ctx, credentialsExpireAt: auth.tokenExpiresAt };
    return {
      schema,
      document,
      operationName: payload.operationName,
      variableValues: variables,
      contextValue,
    };
  };

  // Each acknowledged connection and when it last held a subscription: an idle one is closed.
  const lastBusy = new Map<Context<Record<string, unknown> | undefined, Extra>, number>();
  const idleMs = config.live.idleTimeoutSeconds * 1000;
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [connection, since] of lastBusy) {
        if (Object.keys(connection.subscriptions).length > 0) lastBusy.set(connection, now);
        else if (now - since >= idleMs) connection.extra.socket.close(1000, 'Idle connection');
      }
    },
    Math.max(250, idleMs / 4),
  );
  sweep.unref();

  const disposable = useServer(
    {
      schema,
      connectionInitWaitTimeout: CONNECTION_INIT_WAIT_MS,
      onConnect: async (ctx) => {
        const { request, socket } = ctx.extra;
        try {
          const auth = await authenticateCredentials(deps, {
            operation: 'graphql',
            ...credentialsFrom('graphql', ctx.connectionParams ?? {}),
            origin: request.headers.origin,
            referer: request.headers.referer,
            clientIp: clientIpOf(app, request),
          });
          // Closed while its credentials were read: onClose has run already, keep nothing.
          if (socket.readyState !== socket.OPEN) return false;
          connections.set(ctx, auth);
          lastBusy.set(ctx, Date.now());
          return true;
        } catch (error) {
          const domain = toServiceApiError(error, 'graphql', randomUUID());
          if (domain.status >= 500) logger.error({ err: error }, 'WebSocket credentials failed');
          else logger.info({ reason: domain.reason }, 'WebSocket connection refused');
          // Closed here, with the reason; graphql-ws's own close that follows changes nothing.
          socket.close(closeCodeOf(domain), closeReason(domain.message));
          return false;
        }
      },
      onSubscribe: async (ctx, _id, payload) => {
        try {
          return await subscribe(ctx, Object.keys(ctx.subscriptions).length, payload);
        } catch (error) {
          logger.error({ err: error }, 'GraphQL subscribe failed');
          return refusal(toServiceApiError(error, 'graphql', randomUUID()));
        }
      },
      onClose: (ctx) => {
        lastBusy.delete(ctx);
      },
      onNext: (_ctx, _id, _payload, _args, result) => wireResult(result),
      onError: (_ctx, _id, _payload, errors) => errors.map(wireError),
      isProd: config.nodeEnv === 'production',
    },
    wss,
    KEEP_ALIVE_MS,
  );

  let closing = false;
  const onUpgrade = (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const wanted = pathOf(request.url);
    if (closing || (wanted !== path && wanted !== `${path}/`)) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  };
  server.on('upgrade', onUpgrade);

  return {
    close: async () => {
      closing = true;
      clearInterval(sweep);
      server.off('upgrade', onUpgrade);
      // Clients that do not answer the close handshake in time are cut off.
      const cutOff = setTimeout(() => {
        for (const socket of wss.clients) socket.terminate();
      }, config.shutdownTimeoutMs);
      await disposable.dispose();
      clearTimeout(cutOff);
    },
  };
}

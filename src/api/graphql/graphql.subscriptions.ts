import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import {
  specifiedRules,
  type ExecutionArgs,
  type GraphQLError,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import { CloseCode, type Context, type ServerOptions, type SubscribePayload } from 'graphql-ws';
import { useServer, type Extra } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { AppDeps } from '../../context/request-context';
import { Errors, toServiceApiError, type ServiceApiError } from '../../errors';
import type { Authenticated } from '../../services/auth/credentials.service';
import { credentialsFrom } from '../http/credentials.reader';
import {
  admit,
  authenticateRequest,
  contextOf,
  gateRefusal,
  upgradeOriginOf,
} from '../http/request.gate';
import type { GraphQLContext } from './execution/graphql.context';
import {
  parseSubscription,
  refusal,
  wireError,
  wireResult,
  type ParsedSubscription,
} from './execution/subscription.wire';
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

/** A WebSocket connection, as graphql-ws hands it to each hook. */
type Connection = Context<Record<string, unknown> | undefined, Extra>;

/** What every connection's subscriptions share. */
interface SubscriptionSetting {
  deps: AppDeps;
  schema: GraphQLSchema;
  rules: readonly ValidationRule[];
}

/** Why a connection may not start one more subscription now; undefined when it may. */
function connectionRefusal(
  auth: Authenticated,
  subscriptions: number,
): ServiceApiError | undefined {
  if (subscriptions > MAX_SUBSCRIPTIONS_PER_CONNECTION) {
    return Errors.queryTooComplex(
      `the connection holds ${subscriptions} subscriptions, over the limit of ${MAX_SUBSCRIPTIONS_PER_CONNECTION}`,
      MAX_SUBSCRIPTIONS_PER_CONNECTION,
      subscriptions,
    );
  }
  if (auth.tokenExpiresAt !== null && !(auth.tokenExpiresAt > Date.now())) {
    return Errors.unauthenticated('graphql', 'the access token has expired');
  }
  return undefined;
}

/**
 * Through the request gate: the context of one subscription, its document priced and charged
 * to the connection's API key before it streams anything (a stream cannot run beside its charge).
 */
async function admitSubscription(
  { deps, schema }: SubscriptionSetting,
  auth: Authenticated,
  { document, operation, variables }: ParsedSubscription,
  operationName: string | null | undefined,
): Promise<ExecutionArgs | GraphQLError[]> {
  const requestId = randomUUID();
  const ctx = contextOf(deps, auth, { operation: 'graphql', requestId });
  try {
    const request = { operationName, variables };
    await admit(
      ctx,
      () => priceDocument({ schema, document, operation, request }, deps.config.graphqlMaxCost),
      { beside: false },
    );
  } catch (error) {
    const refused = { operation: 'graphql', requestId, logger: deps.logger };
    return refusal(gateRefusal(error, refused, 'GraphQL limits failed'));
  }
  const contextValue: GraphQLContext = { ctx, credentialsExpireAt: auth.tokenExpiresAt };
  return { schema, document, operationName, variableValues: variables, contextValue };
}

/** The subscriptions an instance holds, by the user and the API key of their connections. */
interface HeldSubscriptions {
  byUser: number;
  byKey: number;
}

/**
 * Why the instance may not hold one more subscription for this user or key (contract.md §10:
 * each computation is shared, but each subscriber still costs a stream and its messages).
 */
function instanceRefusal(
  { config }: AppDeps,
  held: HeldSubscriptions,
): ServiceApiError | undefined {
  const { maxSubscriptionsPerUser, maxSubscriptionsPerKey } = config.live;
  if (held.byUser > maxSubscriptionsPerUser) {
    return Errors.queryTooComplex(
      `the user holds ${held.byUser} live subscriptions on this instance, over the limit of ${maxSubscriptionsPerUser}`,
      maxSubscriptionsPerUser,
      held.byUser,
    );
  }
  if (held.byKey > maxSubscriptionsPerKey) {
    return Errors.queryTooComplex(
      `the API key holds ${held.byKey} live subscriptions on this instance, over the limit of ${maxSubscriptionsPerKey}`,
      maxSubscriptionsPerKey,
      held.byKey,
    );
  }
  return undefined;
}

/** A subscribe message: the connection's and the instance's limits, its document, the gate. */
async function subscribe(
  setting: SubscriptionSetting,
  auth: Authenticated | undefined,
  subscriptions: number,
  payload: SubscribePayload,
  held: (auth: Authenticated) => HeldSubscriptions,
): Promise<ExecutionArgs | GraphQLError[]> {
  if (!auth) return refusal(Errors.unauthenticated('graphql', 'the connection is not initialised'));
  const refused =
    connectionRefusal(auth, subscriptions) ?? instanceRefusal(setting.deps, held(auth));
  if (refused) return refusal(refused);
  const parsed = parseSubscription(setting.schema, setting.rules, DOCUMENT_LIMITS.tokens, payload);
  if (Array.isArray(parsed)) return parsed;
  return admitSubscription(setting, auth, parsed, payload.operationName);
}

/**
 * Each acknowledged connection and when it last held a subscription: one idle for `idleMs` is
 * closed (1000).
 */
function idleSweep(idleMs: number) {
  const lastBusy = new Map<Connection, number>();
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
  return {
    track: (connection: Connection) => lastBusy.set(connection, Date.now()),
    forget: (connection: Connection) => lastBusy.delete(connection),
    stop: () => clearInterval(sweep),
  };
}

/**
 * connection_init: its credentials through the request gate, read from the database (the
 * connection outlives any one charge), the key's host against the upgrade's Origin or client
 * IP. A refusal closes the socket with the exception's message as its reason.
 */
async function authenticateConnection(
  deps: AppDeps,
  app: Express,
  connection: Connection,
): Promise<Authenticated | undefined> {
  const { request, socket } = connection.extra;
  try {
    const credentials = credentialsFrom('graphql', connection.connectionParams ?? {});
    const origin = upgradeOriginOf(app, request);
    return await authenticateRequest(
      deps,
      { operation: 'graphql', credentials, origin },
      { cached: false },
    );
  } catch (error) {
    const domain = toServiceApiError(error, 'graphql', randomUUID());
    if (domain.status >= 500) deps.logger.error({ err: error }, 'WebSocket credentials failed');
    else deps.logger.info({ reason: domain.reason }, 'WebSocket connection refused');
    // Closed here, with the reason; graphql-ws's own close that follows changes nothing.
    socket.close(closeCodeOf(domain), closeReason(domain.message));
    return undefined;
  }
}

/** Takes the HTTP server's upgrades of `path` (any other is destroyed) until stopped. */
function takeUpgrades(server: http.Server, wss: WebSocketServer, path: string) {
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
    stop: () => {
      closing = true;
      server.off('upgrade', onUpgrade);
    },
  };
}

/**
 * graphql-ws's hooks: connection_init through the gate (who each connection is, kept for its
 * subscribes), each subscribe through subscribe(), errors on the wire as on HTTP.
 */
function serverOptions(
  setting: SubscriptionSetting,
  app: Express,
  idle: ReturnType<typeof idleSweep>,
): ServerOptions<Record<string, unknown> | undefined, Extra> & { isProd: boolean } {
  const { deps } = setting;
  // Who each open connection authenticated as, from its connection_init.
  const connections = new Map<Connection, Authenticated>();
  /** What the open connections of the same user, and of the same key, hold now. */
  const held = (auth: Authenticated): HeldSubscriptions => {
    const count = { byUser: 0, byKey: 0 };
    const { requester } = auth;
    for (const [connection, other] of connections) {
      const n = Object.keys(connection.subscriptions).length;
      const them = other.requester;
      if (requester.kind === 'operator' || them.kind === 'operator') continue;
      if (them.apiKeyId === requester.apiKeyId) count.byKey += n;
      if (requester.kind === 'user' && them.kind === 'user' && them.userId === requester.userId) {
        count.byUser += n;
      }
    }
    return count;
  };
  return {
    schema: setting.schema,
    connectionInitWaitTimeout: CONNECTION_INIT_WAIT_MS,
    onConnect: async (connection) => {
      const auth = await authenticateConnection(deps, app, connection);
      // Closed while its credentials were read: onClose has run already, keep nothing.
      const { socket } = connection.extra;
      if (!auth || socket.readyState !== socket.OPEN) return false;
      connections.set(connection, auth);
      idle.track(connection);
      return true;
    },
    onSubscribe: async (connection, _id, payload) => {
      try {
        return await subscribe(
          setting,
          connections.get(connection),
          Object.keys(connection.subscriptions).length,
          payload,
          held,
        );
      } catch (error) {
        deps.logger.error({ err: error }, 'GraphQL subscribe failed');
        return refusal(toServiceApiError(error, 'graphql', randomUUID()));
      }
    },
    onClose: (connection) => {
      connections.delete(connection);
      idle.forget(connection);
    },
    onNext: (_ctx, _id, _payload, _args, result) => wireResult(result),
    onError: (_ctx, _id, _payload, errors) => errors.map(wireError),
    isProd: deps.config.nodeEnv === 'production',
  };
}

export async function attachSubscriptions(
  server: http.Server,
  app: Express,
  deps: AppDeps,
): Promise<SubscriptionEndpoint> {
  const { config } = deps;
  const setting: SubscriptionSetting = {
    deps,
    schema: await graphQLSchema(),
    rules: [...specifiedRules, ...documentLimitRules('websocket')],
  };
  // A message is a subscription document (at most DOCUMENT_LIMITS.tokens) and its variables:
  // far below a request body's limit, and refused before it is parsed.
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: Math.min(config.bodyLimitBytes, MAX_MESSAGE_BYTES),
  });
  const idle = idleSweep(config.live.idleTimeoutSeconds * 1000);
  const disposable = useServer(serverOptions(setting, app, idle), wss, KEEP_ALIVE_MS);
  const upgrades = takeUpgrades(server, wss, graphQLPath(config.basePath));

  return {
    close: async () => {
      idle.stop();
      upgrades.stop();
      // Clients that do not answer the close handshake in time are cut off.
      const cutOff = setTimeout(() => {
        for (const socket of wss.clients) socket.terminate();
      }, config.shutdownTimeoutMs);
      await disposable.dispose();
      clearTimeout(cutOff);
    },
  };
}

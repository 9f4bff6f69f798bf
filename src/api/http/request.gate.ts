import type { IncomingMessage } from 'node:http';
import type { Express, Request } from 'express';
import { ADMITTED, admissionOf, type Admission } from '../../context/admission';
import type { RateLimitState } from '../../context/api-key-rate-limits';
import {
  createRequestContext,
  type AppDeps,
  type RequestContext,
} from '../../context/request-context';
import { ServiceApiError, toServiceApiError } from '../../errors';
import type { Logger } from '../../observability/logger';
import {
  authenticateCredentials,
  type Authenticated,
} from '../../services/auth/credentials.service';
import type { RequestOrigin } from '../../services/auth/host-binding';
import { chargeRequest } from '../../services/limits/rate-limit.service';
import { clientIpOf } from './client-ip';
import type { Credentials } from './credentials.reader';

/**
 * The one request gate of every transport (REST, GraphQL over HTTP, the WebSocket): authenticate
 * the credentials the transport read, build the request's context, price and charge the API
 * key's budget, and hand back the context and its admission. A transport calls its steps at the
 * moments its protocol allows (a WebSocket authenticates once per connection, a GraphQL document
 * is priced once parsed) and keeps only its parsing and the shape of its answers; every refusal
 * is a ServiceApiError of src/errors, shaped by the transport's wire.
 */

/** A request as its transport read it: what it names, its credentials, where it comes from. */
export interface GateRequest {
  /** The legacy operation name every error reports ('graphql' for a GraphQL document). */
  operation: string;
  credentials: Credentials;
  origin: RequestOrigin;
}

/** What an operation (or a document's root fields) costs the API key (operation-costs.ts). */
export interface Price {
  points: number;
  /** Writes records: runs only once charged, never beside its charge. */
  records?: boolean;
}

export interface ChargeOptions {
  /** Receives the key's budget once charged, for the transport's RateLimit headers. */
  report?: (state: RateLimitState) => void;
  /**
   * The transport can run the operation beside its charge and answer with the refusal, if any,
   * instead of what it did (HTTP). A stream (the WebSocket) cannot: it is charged first.
   */
  beside: boolean;
}

const NO_REPORT = (): void => undefined;

/** Where an Express request comes from (TRUST_PROXY applied to its IP). */
export function requestOriginOf(req: Request): RequestOrigin {
  return { origin: req.get('origin'), referer: req.get('referer'), clientIp: req.ip };
}

/** Where a WebSocket upgrade comes from, read as Express reads a request. */
export function upgradeOriginOf(app: Express, request: IncomingMessage): RequestOrigin {
  return {
    origin: request.headers.origin,
    referer: request.headers.referer,
    clientIp: clientIpOf(app, request),
  };
}

/**
 * Who is asking. `cached`: the key and token may come from the credentials cache, kept true to
 * the database within a second (credentials.cache.ts); a connection that outlives its requests
 * reads them from the database.
 */
export function authenticateRequest(
  deps: AppDeps,
  request: GateRequest,
  options: { cached: boolean },
): Promise<Authenticated> {
  return authenticateCredentials(
    deps,
    { operation: request.operation, ...request.credentials, ...request.origin },
    options,
  );
}

/** The context of one request of someone authenticated (on a connection: each subscribe). */
export function contextOf(
  deps: AppDeps,
  authenticated: Pick<Authenticated, 'requester'>,
  fields: { operation: string; requestId?: string },
): RequestContext {
  return createRequestContext(deps, {
    requestId: fields.requestId,
    operation: fields.operation,
    requester: authenticated.requester,
  });
}

/** Authenticates a request and builds its context; credentials may come from the cache. */
export async function openRequest(
  deps: AppDeps,
  request: GateRequest,
  requestId: string,
): Promise<RequestContext> {
  const authenticated = await authenticateRequest(deps, request, { cached: true });
  return contextOf(deps, authenticated, { operation: request.operation, requestId });
}

/**
 * Prices the request and charges its points. An operation that writes records, or one whose
 * transport cannot run it beside its charge, is admitted once charged; the others are admitted
 * at once with the charge in flight as `ctx.admission` (context/admission.ts), whose refusal the
 * transport answers instead of what the operation did. A refused price or charge throws.
 */
export async function admit(
  ctx: RequestContext,
  price: () => Price,
  options: ChargeOptions,
): Promise<Admission> {
  const { points, records } = price();
  const charge = chargeRequest(ctx, points, options.report ?? NO_REPORT);
  if (records === true || !options.beside) {
    await charge;
    return ADMITTED;
  }
  ctx.admission = admissionOf(charge);
  return ctx.admission;
}

/** Points charged on top, once known (a download by its size, before its first byte). */
export function chargeMore(
  ctx: RequestContext,
  points: number,
  report: (state: RateLimitState) => void = NO_REPORT,
): Promise<void> {
  return chargeRequest(ctx, points, report);
}

/**
 * What an operation run beside its admission gives, once both settled: the charge's refusal
 * first, whatever the operation did meanwhile, then the operation's failure or value.
 */
export async function afterAdmission<T>(admission: Admission, ran: Promise<T>): Promise<T> {
  const [charged, result] = await Promise.allSettled([admission.wait(), ran]);
  if (charged.status === 'rejected') throw charged.reason;
  if (result.status === 'rejected') throw result.reason;
  return result.value;
}

/**
 * A failure of the gate as the contract's exception: a domain error as it is; anything else as
 * the database's unavailability or an internal error, logged with `failure` as its message.
 */
export function gateRefusal(
  error: unknown,
  request: { operation: string; requestId: string; logger: Logger },
  failure: string,
): ServiceApiError {
  if (error instanceof ServiceApiError) return error;
  const domain = toServiceApiError(error, request.operation, request.requestId);
  if (domain.status >= 500) request.logger.error({ err: error }, failure);
  return domain;
}

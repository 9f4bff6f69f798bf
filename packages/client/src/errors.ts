/**
 * The exceptions the client throws: one class per exception type of the contract (§2), each
 * carrying the service's exception object and the HTTP status, so callers can branch with
 * `instanceof` or on `type` and `status`.
 */

export type ExceptionType =
  | 'MissingParameterException'
  | 'BadParameterException'
  | 'UnauthorizedOperationException'
  | 'UnsupportedRequestException'
  | 'PayloadTooLargeException'
  | 'TooManyRequestsException'
  | 'UnexpectedServerResponseException'
  | 'InternalServerErrorException';

/** The JSON exception object of every error response. */
export interface ExceptionObject {
  type: string;
  message: string;
  operation: string;
  reason: string;
  parameterName?: string;
  providedValue?: string;
  retryAfterSeconds?: number;
  requestId?: string;
}

/** The parent of every exception the service reports (never sent on the wire under this name). */
export class ServiceApiException extends Error {
  /** The exception object exactly as the service sent it. */
  readonly exception: ExceptionObject;
  readonly status: number;
  readonly type: string;
  readonly operation: string;
  readonly reason: string;
  readonly parameterName?: string;
  readonly providedValue?: string;
  readonly retryAfterSeconds?: number;
  readonly requestId?: string;

  constructor(exception: ExceptionObject, status: number) {
    super(exception.message);
    // Set explicitly: a minified bundle renames classes, and the type is the stable name.
    this.name = isExceptionType(exception.type) ? exception.type : 'ServiceApiException';
    this.exception = exception;
    this.status = status;
    this.type = exception.type;
    this.operation = exception.operation;
    this.reason = exception.reason;
    this.parameterName = exception.parameterName;
    this.providedValue = exception.providedValue;
    this.retryAfterSeconds = exception.retryAfterSeconds;
    this.requestId = exception.requestId;
  }
}

export class MissingParameterException extends ServiceApiException {}
/** 400 for a wrong value, 404 for an identifier that names nothing (or an expired set). */
export class BadParameterException extends ServiceApiException {}
/** 401 for missing or bad credentials, 403 for a valid token lacking the permission. */
export class UnauthorizedOperationException extends ServiceApiException {}
/** 404 unknown operation, 405 wrong method. */
export class UnsupportedRequestException extends ServiceApiException {}
export class PayloadTooLargeException extends ServiceApiException {}
export class TooManyRequestsException extends ServiceApiException {}
/** 503: the service's database is unavailable; the request may be retried. */
export class UnexpectedServerResponseException extends ServiceApiException {}
export class InternalServerErrorException extends ServiceApiException {}

const EXCEPTION_CLASSES: Readonly<
  Record<ExceptionType, new (exception: ExceptionObject, status: number) => ServiceApiException>
> = {
  MissingParameterException,
  BadParameterException,
  UnauthorizedOperationException,
  UnsupportedRequestException,
  PayloadTooLargeException,
  TooManyRequestsException,
  UnexpectedServerResponseException,
  InternalServerErrorException,
};

export function isExceptionType(type: string): type is ExceptionType {
  return Object.prototype.hasOwnProperty.call(EXCEPTION_CLASSES, type);
}

/**
 * The request never got a contract answer: the network failed, or something between the
 * client and the service (a proxy, a CDN) answered with what is not an exception object.
 */
export class TransportException extends Error {
  readonly operation: string;
  /** The HTTP status when a response arrived. */
  readonly status?: number;

  constructor(operation: string, message: string, status?: number, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'TransportException';
    this.operation = operation;
    this.status = status;
  }
}

function isExceptionObject(body: unknown): body is ExceptionObject {
  if (typeof body !== 'object' || body === null) return false;
  const { type, message, operation, reason } = body as Record<string, unknown>;
  return [type, message, operation, reason].every((field) => typeof field === 'string');
}

/** The exception an error response stands for: its contract class, or a TransportException. */
export function exceptionFromResponse(
  operation: string,
  status: number,
  body: unknown,
): ServiceApiException | TransportException {
  if (!isExceptionObject(body)) {
    return new TransportException(
      operation,
      `${operation}: the service answered HTTP ${status} without an exception object`,
      status,
    );
  }
  const Exception = isExceptionType(body.type) ? EXCEPTION_CLASSES[body.type] : ServiceApiException;
  return new Exception(body, status);
}

/** An error of GraphQL's `errors[]` as the service sends it (contract.md §2). */
export interface GraphQLErrorObject {
  message: string;
  extensions?: Readonly<Record<string, unknown>>;
}

/** The HTTP status REST gives for each GraphQL code of the contract. */
const STATUS_OF_GRAPHQL_CODE: Readonly<Record<string, number>> = {
  BAD_USER_INPUT: 400,
  GRAPHQL_PARSE_FAILED: 400,
  GRAPHQL_VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

/**
 * The exception a GraphQL error stands for, the one REST gives for the same failure: the
 * extensions carry the exception object (`type`, `operation`, `reason` and the extra fields),
 * `code` gives the status. An error without `type` is GraphQL's own refusal of a document or of
 * a variable's value: a BadParameterException.
 */
export function exceptionFromGraphQLError(
  operation: string,
  error: GraphQLErrorObject,
): ServiceApiException | TransportException {
  const { code, ...fields } = error.extensions ?? {};
  const status = STATUS_OF_GRAPHQL_CODE[String(code)] ?? 500;
  const body =
    typeof fields.type === 'string'
      ? { operation, ...fields, message: error.message }
      : {
          type: status < 500 ? 'BadParameterException' : 'InternalServerErrorException',
          message: error.message,
          operation,
          reason: error.message,
        };
  return exceptionFromResponse(operation, status, body);
}

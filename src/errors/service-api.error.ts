import {
  ERROR_TABLE,
  type ErrorKind,
  type ExceptionType,
  type GraphQLErrorCode,
} from './error-table';

/** Fields a subtype adds to the exception object (contract.md §2). */
export interface ErrorExtras {
  parameterName?: string;
  providedValue?: string;
  retryAfterSeconds?: number;
  requestId?: string;
  /** Allowed methods, for methodNotAllowed; sent as the Allow header, not in the body. */
  allow?: readonly string[];
}

/** The exception object as sent by REST. */
export interface ExceptionBody {
  type: ExceptionType;
  message: string;
  operation: string;
  reason: string;
  parameterName?: string;
  providedValue?: string;
  retryAfterSeconds?: number;
  requestId?: string;
}

export interface GraphQLExtensions extends Omit<ExceptionBody, 'message'> {
  code: GraphQLErrorCode;
}

/** Longest providedValue echoed back, so a huge bad value is not mirrored in full. */
const MAX_PROVIDED_VALUE = 200;

/**
 * The domain error (ServiceApiException of the spec). Deliberately not a GraphQLError: the
 * transports translate it through ERROR_TABLE, so both read the same.
 */
export class ServiceApiError extends Error {
  override readonly name = 'ServiceApiError';

  constructor(
    readonly kind: ErrorKind,
    readonly operation: string,
    readonly reason: string,
    readonly extras: ErrorExtras = {},
  ) {
    super(ERROR_TABLE[kind].message(operation, reason, extras.parameterName));
  }

  get type(): ExceptionType {
    return ERROR_TABLE[this.kind].type;
  }

  get status(): number {
    return ERROR_TABLE[this.kind].status;
  }

  /** The same error for another operation name (services do not know which transport op ran). */
  forOperation(operation: string): ServiceApiError {
    return new ServiceApiError(this.kind, operation, this.reason, this.extras);
  }

  toBody(): ExceptionBody {
    const { allow: _allow, ...extras } = this.extras;
    return {
      type: this.type,
      message: this.message,
      operation: this.operation,
      reason: this.reason,
      ...extras,
    };
  }

  toGraphQLExtensions(): GraphQLExtensions {
    const { message: _message, ...body } = this.toBody();
    return { code: ERROR_TABLE[this.kind].code, ...body };
  }
}

function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > MAX_PROVIDED_VALUE ? `${text.slice(0, MAX_PROVIDED_VALUE)}…` : text;
}

/** Constructors named after the wire types, so call sites read like the contract. */
export const Errors = {
  missingParameter: (operation: string, parameterName: string) =>
    new ServiceApiError('missingParameter', operation, `parameter ${parameterName} is required`, {
      parameterName,
    }),
  badParameter: (
    operation: string,
    parameterName: string,
    providedValue: unknown,
    reason: string,
  ) =>
    new ServiceApiError('badParameter', operation, reason, {
      parameterName,
      providedValue: shown(providedValue),
    }),
  notFound: (operation: string, parameterName: string, providedValue: unknown, reason: string) =>
    new ServiceApiError('notFound', operation, reason, {
      parameterName,
      providedValue: shown(providedValue),
    }),
  unauthenticated: (operation: string, reason: string) =>
    new ServiceApiError('unauthenticated', operation, reason),
  forbidden: (operation: string, reason: string) =>
    new ServiceApiError('forbidden', operation, reason),
  unsupportedRequest: (operation: string) =>
    new ServiceApiError('unsupportedRequest', operation, `operation ${operation} does not exist`),
  methodNotAllowed: (operation: string, method: string, allow: readonly string[]) =>
    new ServiceApiError(
      'methodNotAllowed',
      operation,
      `method ${method} is not allowed; use ${allow.join(', ')}`,
      { allow },
    ),
  payloadTooLarge: (operation: string, limitBytes: number, what: 'body' | 'query string') =>
    new ServiceApiError(
      'payloadTooLarge',
      operation,
      `the ${what} is larger than ${limitBytes} bytes`,
    ),
  tooManyRequests: (operation: string, retryAfterSeconds: number, reason: string) =>
    new ServiceApiError('tooManyRequests', operation, reason, { retryAfterSeconds }),
  serviceUnavailable: (operation: string) =>
    new ServiceApiError(
      'serviceUnavailable',
      operation,
      'the database cannot be reached right now; retry later',
    ),
  internal: (operation: string, requestId: string) =>
    new ServiceApiError(
      'internal',
      operation,
      `an unexpected error occurred (request ${requestId})`,
      {
        requestId,
      },
    ),
};

/** Network-level database failures that a client may retry (contract: UnexpectedServerResponseException). */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'PROTOCOL_CONNECTION_LOST',
  'POOL_CLOSED',
  'ER_CON_COUNT_ERROR',
  'ER_TOO_MANY_USER_CONNECTIONS',
  'SQLITE_BUSY',
]);

function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if (
      /pool is (closed|full)|connection (is )?(lost|closed)/i.test(
        String((current as Error).message),
      )
    )
      return true;
    current =
      (current as { driverError?: unknown; cause?: unknown }).driverError ??
      (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Turns anything thrown into a ServiceApiError: domain errors pass through (renamed to the
 * operation), database outages become 503, everything else 500 carrying only the request id.
 */
export function toServiceApiError(
  error: unknown,
  operation: string,
  requestId: string,
): ServiceApiError {
  if (error instanceof ServiceApiError) {
    return error.operation === operation ? error : error.forOperation(operation);
  }
  if (isDatabaseUnavailable(error)) return Errors.serviceUnavailable(operation);
  return Errors.internal(operation, requestId);
}

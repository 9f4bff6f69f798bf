import {
  ERROR_TABLE,
  type ErrorKind,
  type ExceptionType,
  type GraphQLErrorCode,
} from './error-table';
import { databaseUnavailability } from './database-failures';
import { HIDDEN_SECRET, hideSecrets, isCredentialName } from '../observability/secret-shapes';

/** Fields a subtype adds to the exception object (contract.md §2). */
export interface ErrorExtras {
  parameterName?: string;
  providedValue?: string;
  retryAfterSeconds?: number;
  requestId?: string;
  /** QueryTooComplexException: the limit a document went over, and its measure. */
  limit?: number;
  actual?: number;
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
  limit?: number;
  actual?: number;
}

export interface GraphQLExtensions extends Omit<ExceptionBody, 'message'> {
  code: GraphQLErrorCode;
}

/** Longest providedValue echoed back, so a huge bad value is not mirrored in full. */
const MAX_PROVIDED_VALUE = 200;

/**
 * What an error may repeat of the request, with no credential (contract.md §2): a credential
 * parameter's value is never shown, whatever it looks like, and a value of a secret's shape is
 * hidden wherever it was put (an API key sent as a quiz id, in a path, in a field name).
 */
function withoutCredentials(extras: ErrorExtras): ErrorExtras {
  const { parameterName, providedValue } = extras;
  if (parameterName === undefined && providedValue === undefined) return extras;
  const secretParameter = parameterName !== undefined && isCredentialName(parameterName);
  return {
    ...extras,
    ...(parameterName === undefined ? {} : { parameterName: hideSecrets(parameterName) }),
    ...(providedValue === undefined
      ? {}
      : {
          providedValue:
            secretParameter && providedValue !== '' ? HIDDEN_SECRET : hideSecrets(providedValue),
        }),
  };
}

/**
 * The domain error (ServiceApiException of the spec). Deliberately not a GraphQLError: the
 * transports translate it through ERROR_TABLE, so both read the same. Nothing it carries repeats
 * a credential, whoever built it.
 */
export class ServiceApiError extends Error {
  override readonly name = 'ServiceApiError';
  readonly operation: string;
  readonly reason: string;
  readonly extras: ErrorExtras;

  constructor(
    readonly kind: ErrorKind,
    operation: string,
    reason: string,
    extras: ErrorExtras = {},
  ) {
    const shown = {
      operation: hideSecrets(operation),
      reason: hideSecrets(reason),
      extras: withoutCredentials(extras),
    };
    super(ERROR_TABLE[kind].message(shown.operation, shown.reason, shown.extras.parameterName));
    this.operation = shown.operation;
    this.reason = shown.reason;
    this.extras = shown.extras;
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

  /** The error as one entry of a GraphQL `errors` list, for answers that run no resolver. */
  toGraphQLBody(): { errors: { message: string; extensions: GraphQLExtensions }[] } {
    return { errors: [{ message: this.message, extensions: this.toGraphQLExtensions() }] };
  }
}

/**
 * A value as echoed in providedValue: its JSON, cut at MAX_PROVIDED_VALUE characters. Long lists
 * and objects are written element by element only as far as shown, so echoing a refused
 * 100,000-element array costs no more than echoing a short one.
 */
function shown(value: unknown): string {
  // Secrets hidden before the cut, so none is shown in part either.
  const text = hideSecrets(preview(value));
  return text.length > MAX_PROVIDED_VALUE ? `${text.slice(0, MAX_PROVIDED_VALUE)}…` : text;
}

function preview(value: unknown): string {
  if (typeof value === 'string') return value;
  // A datetime a GraphQL scalar read: shown in the wire form REST echoes (contract.md §1).
  if (value instanceof Date && !Number.isNaN(value.getTime())) {
    return value.toISOString().slice(0, 19).replace('T', ' ');
  }
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? String(value);
  const array = Array.isArray(value);
  const keys = array ? undefined : Object.keys(value);
  const count = keys ? keys.length : (value as unknown[]).length;
  const parts: string[] = [];
  let length = 0;
  for (let index = 0; index < count && length <= MAX_PROVIDED_VALUE; index += 1) {
    const key = keys ? keys[index] : String(index);
    const item = (value as Record<string, unknown>)[key];
    let part: string;
    try {
      part = JSON.stringify(item) ?? 'null';
    } catch {
      // Too deep or cyclic to print: the limits refuse such values before they get here.
      part = '…';
    }
    part = array ? part : `${JSON.stringify(key)}:${part}`;
    parts.push(part);
    length += part.length + 1;
  }
  const more = parts.length < count ? ',…' : '';
  return array ? `[${parts.join(',')}${more}]` : `{${parts.join(',')}${more}}`;
}

/** How long a client should wait before retrying when the database is unavailable. */
const UNAVAILABLE_RETRY_SECONDS = 2;

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
  unsupportedRequest: (operation: string, reason = `operation ${operation} does not exist`) =>
    new ServiceApiError('unsupportedRequest', operation, reason),
  methodNotAllowed: (operation: string, method: string, allow: readonly string[]) =>
    new ServiceApiError(
      'methodNotAllowed',
      operation,
      `method ${method} is not allowed; use ${allow.join(', ')}`,
      { allow },
    ),
  unsupportedMediaType: (operation: string, reason: string) =>
    new ServiceApiError('unsupportedMediaType', operation, reason),
  queryTooComplex: (reason: string, limit: number, actual: number) =>
    new ServiceApiError('queryTooComplex', 'graphql', reason, { limit, actual }),
  payloadTooLarge: (
    operation: string,
    limit: number,
    what: 'body' | 'query string' | 'request head' | 'query parameters',
  ) =>
    new ServiceApiError(
      'payloadTooLarge',
      operation,
      what === 'query parameters'
        ? `the query string has more than ${limit} parameters`
        : `the ${what} is larger than ${limit} bytes`,
    ),
  tooManyRequests: (operation: string, retryAfterSeconds: number, reason: string) =>
    new ServiceApiError('tooManyRequests', operation, reason, { retryAfterSeconds }),
  serviceUnavailable: (operation: string, busy = false) =>
    new ServiceApiError(
      'serviceUnavailable',
      operation,
      busy
        ? 'the service is too busy right now; retry later'
        : 'the database cannot be reached right now; retry later',
      { retryAfterSeconds: UNAVAILABLE_RETRY_SECONDS },
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
  const unavailable = databaseUnavailability(error);
  if (unavailable) return Errors.serviceUnavailable(operation, unavailable === 'busy');
  return Errors.internal(operation, requestId);
}

/**
 * The one table from error kind to both wire formats (contract.md §2). Every failure the
 * service reports is one of these kinds; adding a kind without a row fails the type check.
 */
export type ErrorKind =
  | 'missingParameter'
  | 'badParameter'
  | 'notFound'
  | 'unauthenticated'
  | 'forbidden'
  | 'unsupportedRequest'
  | 'methodNotAllowed'
  | 'unsupportedMediaType'
  | 'queryTooComplex'
  | 'payloadTooLarge'
  | 'tooManyRequests'
  | 'serviceUnavailable'
  | 'internal';

export type ExceptionType =
  | 'MissingParameterException'
  | 'BadParameterException'
  | 'UnauthorizedOperationException'
  | 'UnsupportedRequestException'
  | 'QueryTooComplexException'
  | 'PayloadTooLargeException'
  | 'TooManyRequestsException'
  | 'UnexpectedServerResponseException'
  | 'InternalServerErrorException';

export type GraphQLErrorCode =
  | 'BAD_USER_INPUT'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'PAYLOAD_TOO_LARGE'
  | 'TOO_MANY_REQUESTS'
  | 'SERVICE_UNAVAILABLE'
  | 'INTERNAL_SERVER_ERROR';

export interface ErrorRow {
  type: ExceptionType;
  status: number;
  code: GraphQLErrorCode;
  /** How `message` is built from the other fields. */
  message: (operation: string, reason: string, parameterName?: string) => string;
}

const unauthorized = (operation: string, reason: string) =>
  `Unauthorized operation: ${operation} (${reason})`;
const badParameter = (_op: string, reason: string, parameterName?: string) =>
  `Bad parameter: ${parameterName ?? 'unknown'} (${reason})`;

export const ERROR_TABLE: Readonly<Record<ErrorKind, ErrorRow>> = {
  missingParameter: {
    type: 'MissingParameterException',
    status: 400,
    code: 'BAD_USER_INPUT',
    message: (_op, _reason, parameterName) => `Missing parameter: ${parameterName ?? 'unknown'}`,
  },
  badParameter: {
    type: 'BadParameterException',
    status: 400,
    code: 'BAD_USER_INPUT',
    message: badParameter,
  },
  notFound: {
    type: 'BadParameterException',
    status: 404,
    code: 'NOT_FOUND',
    message: badParameter,
  },
  unauthenticated: {
    type: 'UnauthorizedOperationException',
    status: 401,
    code: 'UNAUTHENTICATED',
    message: unauthorized,
  },
  forbidden: {
    type: 'UnauthorizedOperationException',
    status: 403,
    code: 'FORBIDDEN',
    message: unauthorized,
  },
  unsupportedRequest: {
    type: 'UnsupportedRequestException',
    status: 404,
    code: 'NOT_FOUND',
    message: (operation, reason) => `Unsupported request: ${operation} (${reason})`,
  },
  methodNotAllowed: {
    type: 'UnsupportedRequestException',
    status: 405,
    code: 'METHOD_NOT_ALLOWED',
    message: (operation, reason) => `Unsupported request: ${operation} (${reason})`,
  },
  unsupportedMediaType: {
    type: 'UnsupportedRequestException',
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: (operation, reason) => `Unsupported request: ${operation} (${reason})`,
  },
  // GraphQL only: a document over one of the limits of contract.md §11, refused before it runs.
  queryTooComplex: {
    type: 'QueryTooComplexException',
    status: 400,
    code: 'BAD_USER_INPUT',
    message: (operation, reason) => `Query too complex: ${operation} (${reason})`,
  },
  payloadTooLarge: {
    type: 'PayloadTooLargeException',
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: (operation, reason) => `Payload too large: ${operation} (${reason})`,
  },
  tooManyRequests: {
    type: 'TooManyRequestsException',
    status: 429,
    code: 'TOO_MANY_REQUESTS',
    message: (operation, reason) => `Too many requests: ${operation} (${reason})`,
  },
  serviceUnavailable: {
    type: 'UnexpectedServerResponseException',
    status: 503,
    code: 'SERVICE_UNAVAILABLE',
    message: (operation, reason) => `Service unavailable: ${operation} (${reason})`,
  },
  internal: {
    type: 'InternalServerErrorException',
    status: 500,
    code: 'INTERNAL_SERVER_ERROR',
    message: (operation, reason) => `Internal server error: ${operation} (${reason})`,
  },
};

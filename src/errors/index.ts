export { ERROR_TABLE } from './error-table';
export type { ErrorKind, ExceptionType, GraphQLErrorCode, ErrorRow } from './error-table';
export { ServiceApiError, Errors, toServiceApiError } from './service-api.error';
export type { ExceptionBody, GraphQLExtensions, ErrorExtras } from './service-api.error';

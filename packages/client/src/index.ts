/**
 * The JavaScript client of the quiz API (spec §1, §5.4). It depends on nothing outside this
 * folder but graphql-ws's client (live results, browser-safe) and runs in browsers and in Node 20
 * (global fetch; `ws` for live results); the browser build exposes this module as the global
 * `QuizApi`.
 */
export * from './types';
export type { WireSchema, WireSchemaName } from './wire.types';
export * from './statistics.types';
export * from './live-results.types';
export * from './errors';
export * from './personal-data';
export * from './webhook.types';
export { DataSet, type DataSetSource } from './data-set';
export { possibleTypes } from './possible-types.generated';
export type {
  DataSetExport,
  DataSetFile,
  ExportDataSetParams,
  ExportFormat,
  NdjsonDataSetFile,
} from './data-set-export';
export {
  QuizApiClient,
  formatWireDate,
  parseWireDate,
  type AccessTokenProvider,
  type FetchFunction,
  type ParameterValue,
  type QuizApiClientOptions,
  type RequestOptions,
  type RequestParameters,
} from './quiz-api-client';
export {
  sessionResultsDocument,
  watchSessionResults,
  webSocketUrl,
  type LiveResultsTarget,
  type WebSocketConstructor,
} from './session-results.watch';
export {
  ACCESS_TOKEN_CHANGE_EVENT,
  ACCESS_TOKEN_STORAGE_KEY,
  LOGIN_PAGE_PATH,
  authenticate,
  getAccessToken,
  getStoredAccessToken,
  loginPageUrl,
  parseAccessTokenParameter,
  setLoginButton,
  storeAccessTokenFromUrl,
  wipeAccessToken,
  type LoginButton,
  type LoginButtonOptions,
  type LoginTarget,
  type StoredAccessToken,
} from './auth-helpers';

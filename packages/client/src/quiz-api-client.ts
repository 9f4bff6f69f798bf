import {
  authenticate,
  getAccessToken,
  setLoginButton,
  type LoginButton,
  type LoginButtonOptions,
} from './auth-helpers';
import { DataSet, type DataSetSource } from './data-set';
import {
  openDataSetExport,
  type DataSetExport,
  type ExportDataSetParams,
  type ExportFormat,
} from './data-set-export';
import { exceptionFromResponse, TransportException } from './errors';
import { parsePersonalData, type PersonalData, type WirePersonalData } from './personal-data';
import { watchSessionResults, type WebSocketConstructor } from './session-results.watch';
import type { QuestionStatistic, QuizStatistic } from './statistics.types';
import {
  DATE_ATTRIBUTES,
  dateInterval,
  dateText,
  formatWireDate,
  parseItem,
  parseQuiz,
  parseSession,
  parseWireDate,
  queryString,
  setId,
  statisticsParams,
  type ParameterValue,
  type RequestParameters,
  type WireAttribute,
  type WirePage,
  type WireQuiz,
  type WireSession,
} from './wire-format';

export { formatWireDate, parseWireDate, type ParameterValue, type RequestParameters };
import type {
  AddAnswersParams,
  AddAnswersResult,
  AddQuizParams,
  AddSessionParams,
  AttributeValue,
  ComputeDataSetParams,
  DataSetItem,
  GetDataSetPageParams,
  GetQuizAttributeParams,
  GetQuizParams,
  GetQuizSetParams,
  GetResultsParams,
  GetStatisticsParams,
  GetSessionParams,
  GetUserAttributeParams,
  GetUserGroupSetParams,
  GetUserParams,
  GetUserSetParams,
  ItemAttribute,
  JoinSessionParams,
  Quiz,
  ResultOf,
  Session,
  User,
  UserGroup,
} from './types';
import type * as Hooks from './webhook.types';
import type {
  SessionResultsHandlers,
  SessionResultsWatch,
  WatchSessionResultsParams,
} from './live-results.types';

/** The fetch the client calls; the global one unless a test or a runtime gives another. */
export type FetchFunction = (input: string, init?: RequestInit) => Promise<Response>;

/** Gives the token for each request (undefined: anonymous). */
export type AccessTokenProvider = () => string | undefined;

export interface QuizApiClientOptions {
  /** The service's base URL, e.g. `https://quiz.example.org/api` (a path alone works in a page). */
  baseUrl: string;
  /** Added to every request. */
  apiKey: string;
  /**
   * The access token added to every request, or a function giving it. By default the token the
   * login helpers stored in this browser (none outside a browser).
   */
  accessToken?: string | AccessTokenProvider;
  fetch?: FetchFunction;
  /** For watchSessionResults where there is no global WebSocket (Node 20): `ws`'s WebSocket. */
  webSocketImpl?: WebSocketConstructor;
}

export interface RequestOptions {
  method?: 'GET' | 'POST';
  /** A JSON body whose fields are parameters (POST). */
  body?: Readonly<Record<string, unknown>>;
}

/**
 * The typed client of the quiz API: one method per operation, each taking a parameter object and
 * resolving to parsed objects (datetimes as Date, data sets as DataSet). The API key, and the
 * access token when there is one, go with every request. A failure is thrown as the contract's
 * exception class (see errors.ts), or TransportException when no contract answer came.
 */
export class QuizApiClient implements DataSetSource {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly webSocketImpl?: WebSocketConstructor;
  private tokenProvider: AccessTokenProvider;
  private readonly fetchFunction: FetchFunction;

  constructor(options: QuizApiClientOptions) {
    if (!options.apiKey) throw new TypeError('QuizApiClient: apiKey is required');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.webSocketImpl = options.webSocketImpl;
    this.tokenProvider = QuizApiClient.provider(options.accessToken);
    // Called as a plain function: browsers refuse fetch called as a method of another object.
    this.fetchFunction = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  private static provider(token: string | AccessTokenProvider | undefined): AccessTokenProvider {
    if (typeof token === 'function') return token;
    if (typeof token === 'string') return () => token;
    return getAccessToken;
  }

  /** The token the next request will carry. */
  get accessToken(): string | undefined {
    return this.tokenProvider() || undefined;
  }

  /** Replaces the token (a value or a provider); undefined goes back to the stored one. */
  setAccessToken(token: string | AccessTokenProvider | undefined): void {
    this.tokenProvider = QuizApiClient.provider(token);
  }

  /** Sends the browser to the login page (helpers, spec §5.4). */
  authenticate(redirectURL?: string): void {
    authenticate(this, redirectURL);
  }

  /** Binds a login / logout button (helpers, spec §5.4). */
  setLoginButton(elementId: string, options?: LoginButtonOptions): LoginButton {
    return setLoginButton(elementId, this, options);
  }

  getQuiz(params: GetQuizParams): Promise<Quiz> {
    return this.request<WireQuiz>('getQuiz', { quizId: params.quizId }).then(parseQuiz);
  }

  /** Adds a quiz to the account of the token's user (a token is required). */
  addQuiz(params: AddQuizParams): Promise<Quiz> {
    return this.request<WireQuiz>(
      'addQuiz',
      {},
      { method: 'POST', body: { quiz: params.quiz } },
    ).then(parseQuiz);
  }

  /**
   * Adds a classroom session owned by the token's user (contract.md §9), with its `joinCode`;
   * with a clientRef the owner already used, returns that session instead.
   */
  addSession(params: AddSessionParams): Promise<Session> {
    const { startDate, ...session } = params.session;
    return this.request<WireSession>(
      'addSession',
      {},
      {
        method: 'POST',
        body: {
          session:
            startDate === undefined ? session : { ...session, startDate: dateText(startDate) },
        },
      },
    ).then(parseSession);
  }

  /** A session, for its owner and its attendees (needs an access token). */
  getSession(params: GetSessionParams): Promise<Session> {
    return this.request<WireSession>('getSession', { sessionId: params.sessionId }).then(
      parseSession,
    );
  }

  /**
   * Makes the token's user an attendee of the session whose join code it gives (contract.md §9);
   * joining again changes nothing. A wrong or expired code is a BadParameterException on
   * `joinCode`; too many failed joins, a TooManyRequestsException.
   */
  joinSession(params: JoinSessionParams): Promise<Session> {
    return this.request<WireSession>(
      'joinSession',
      {},
      { method: 'POST', body: { joinCode: params.joinCode } },
    ).then(parseSession);
  }

  /**
   * Stores 1 to 5,000 answers of a session, all or nothing; sending the same batch again changes
   * nothing, so a batch whose answer was lost may simply be sent again.
   */
  addAnswers(params: AddAnswersParams): Promise<AddAnswersResult> {
    const answers = params.answers.map(({ answeredAt, ...answer }) =>
      answeredAt === undefined ? answer : { ...answer, answeredAt: dateText(answeredAt) },
    );
    return this.request<AddAnswersResult>(
      'addAnswers',
      {},
      { method: 'POST', body: { sessionId: String(params.sessionId), answers } },
    );
  }

  getQuizSet(params: GetQuizSetParams): Promise<DataSet<Quiz>> {
    return this.dataSet<Quiz>('getQuizSet', {
      ...params,
      creationDate: dateInterval(params.creationDate),
      modificationDate: dateInterval(params.modificationDate),
    });
  }

  getQuizAttribute(params: GetQuizAttributeParams): Promise<ItemAttribute> {
    return this.attribute('getQuizAttribute', {
      quizId: params.quizId,
      attributeName: params.attributeName,
    });
  }

  getUser(params: GetUserParams): Promise<User> {
    return this.request<User>('getUser', { userId: params.userId });
  }

  /** Needs an access token. */
  getUserAttribute(params: GetUserAttributeParams): Promise<ItemAttribute> {
    return this.attribute('getUserAttribute', {
      userId: params.userId,
      attributeName: params.attributeName,
    });
  }

  getUserSet(params: GetUserSetParams): Promise<DataSet<User>> {
    return this.dataSet<User>('getUserSet', {
      ...params,
      userGroupSetId: setId(params.userGroupSetId),
    });
  }

  /** The groups the requester owns or belongs to (needs an access token). */
  getUserGroupSet(params: GetUserGroupSetParams = {}): Promise<DataSet<UserGroup>> {
    return this.dataSet<UserGroup>('getUserGroupSet', { ...params });
  }

  /**
   * Results of a user set on a quiz set (contract.md §7): detailed (one item per attempt, needs a
   * token) or, with aggregationFunctions and groupBy, one item per (group, function).
   */
  getResults<P extends GetResultsParams>(params: P): Promise<DataSet<ResultOf<P>>> {
    return this.dataSet<ResultOf<P>>('getResults', {
      userSetId: setId(params.userSetId),
      quizSetId: setId(params.quizSetId),
      resultTypes: params.resultTypes,
      aggregationFunctions: params.aggregationFunctions,
      groupBy: params.groupBy,
      sessionIds: params.sessionIds,
      sessionId: params.sessionId,
      includeQuizzes: params.includeQuizzes,
      numberOfItemsPerPage: params.numberOfItemsPerPage,
    });
  }

  /** Statistics of every question of the quiz set (contract.md §12; needs an access token). */
  getQuestionStatistics(params: GetStatisticsParams): Promise<DataSet<QuestionStatistic>> {
    return this.dataSet<QuestionStatistic>('getQuestionStatistics', statisticsParams(params));
  }

  /** Statistics of every quiz of the quiz set (contract.md §12; needs an access token). */
  getQuizStatistics(params: GetStatisticsParams): Promise<DataSet<QuizStatistic>> {
    return this.dataSet<QuizStatistic>('getQuizStatistics', statisticsParams(params));
  }

  /** Follows the results of a session the token's user owns (session-results.watch.ts). */
  watchSessionResults<P extends WatchSessionResultsParams>(
    params: P,
    handlers: SessionResultsHandlers<ResultOf<P>>,
  ): SessionResultsWatch {
    return watchSessionResults(this, params, handlers);
  }

  getDataSetPage(params: GetDataSetPageParams): Promise<DataSet> {
    return this.dataSet('getDataSetPage', {
      dataSetId: setId(params.dataSetId),
      pageIndex: params.pageIndex,
    });
  }

  /** A new set from two of the requester's sets of the same item type. */
  computeDataSet(params: ComputeDataSetParams): Promise<DataSet> {
    return this.dataSet('computeDataSet', {
      dataSetId1: setId(params.dataSetId1),
      dataSetId2: setId(params.dataSetId2),
      operator: params.operator,
      numberOfItemsPerPage: params.numberOfItemsPerPage,
    });
  }

  /**
   * A whole set as one file, streamed (contract.md §13): its body, its text, or, for ndjson, its
   * items as they arrive (data-set-export.ts). Errors before the file starts are thrown as usual.
   */
  exportDataSet<F extends ExportFormat>(params: ExportDataSetParams<F>): Promise<DataSetExport<F>> {
    const query = queryString({
      dataSetId: setId(params.dataSetId),
      format: params.format,
      apiKey: this.apiKey,
      accessToken: this.accessToken,
    });
    const url = `${this.baseUrl}/exportDataSet?${query}`;
    return openDataSetExport(() => this.fetchFunction(url, { method: 'GET' }), params, parseItem);
  }

  /** Everything the service holds about the token's user (§14.3; needs an access token). */
  exportPersonalData(): Promise<PersonalData> {
    return this.request<WirePersonalData>('exportPersonalData').then(parsePersonalData);
  }

  /** Adds a webhook endpoint (§16): its `secret` is in this answer only. */
  addWebhook(params: Hooks.AddWebhookParams): Promise<Hooks.Webhook> {
    return this.post<Hooks.Webhook>('addWebhook', { webhook: params.webhook });
  }

  /** The token's user's webhook endpoints, without secrets. */
  getWebhooks(): Promise<Hooks.WebhookList> {
    return this.request<Hooks.WebhookList>('getWebhooks');
  }

  deleteWebhook(params: Hooks.WebhookParams): Promise<Hooks.Webhook> {
    return this.post<Hooks.Webhook>('deleteWebhook', { webhookId: String(params.webhookId) });
  }

  /** An endpoint's most recent deliveries, newest first, with their attempts. */
  getWebhookDeliveries(
    params: Hooks.GetWebhookDeliveriesParams,
  ): Promise<Hooks.WebhookDeliveryList> {
    return this.request<Hooks.WebhookDeliveryList>('getWebhookDeliveries', {
      webhookId: params.webhookId,
      limit: params.limit,
    });
  }

  /** Sends an event again (same webhook-id); the endpoint must have been sent it. */
  redeliverWebhookEvent(params: Hooks.RedeliverWebhookEventParams): Promise<Hooks.WebhookDelivery> {
    const { webhookId, eventId } = params;
    return this.post<Hooks.WebhookDelivery>('redeliverWebhookEvent', {
      webhookId: String(webhookId),
      eventId,
    });
  }

  /** A new secret, in this answer only; the previous one signs too for 24 hours. */
  rotateWebhookSecret(params: Hooks.WebhookParams): Promise<Hooks.Webhook> {
    return this.post<Hooks.Webhook>('rotateWebhookSecret', { webhookId: String(params.webhookId) });
  }

  /** Resumes delivery to an endpoint disabled after failures. */
  enableWebhook(params: Hooks.WebhookParams): Promise<Hooks.Webhook> {
    return this.post<Hooks.Webhook>('enableWebhook', { webhookId: String(params.webhookId) });
  }

  /**
   * One request to `{baseUrl}/{operation}` with the credentials added; resolves to the parsed
   * JSON. The typed methods are built on it; it also reaches operations this client predates.
   */
  async request<T = unknown>(
    operation: string,
    params: RequestParameters = {},
    options: RequestOptions = {},
  ): Promise<T> {
    const query = queryString({
      ...params,
      apiKey: this.apiKey,
      accessToken: this.accessToken,
    });
    const url = `${this.baseUrl}/${encodeURIComponent(operation)}?${query}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await this.fetchFunction(url, {
        method: options.method ?? 'GET',
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
    } catch (error) {
      throw new TransportException(
        operation,
        `${operation}: the request did not reach the service`,
        undefined,
        error,
      );
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (!response.ok) throw exceptionFromResponse(operation, response.status, body);
    if (body === undefined) {
      throw new TransportException(
        operation,
        `${operation}: the service answered HTTP ${response.status} without JSON`,
        response.status,
      );
    }
    return body as T;
  }

  private post<T>(operation: string, body: Readonly<Record<string, unknown>>): Promise<T> {
    return this.request<T>(operation, {}, { method: 'POST', body });
  }

  private async dataSet<T extends DataSetItem = DataSetItem>(
    operation: string,
    params: RequestParameters,
  ): Promise<DataSet<T>> {
    const page = await this.request<WirePage>(operation, params);
    const items = page.items.map((item) => parseItem(page.itemType, item) as T);
    return new DataSet<T>(this, { ...page, items });
  }

  private async attribute(operation: string, params: RequestParameters): Promise<ItemAttribute> {
    const attribute = await this.request<WireAttribute>(operation, params);
    const { itemValue } = attribute;
    const value =
      attribute.itemType === 'quiz' &&
      DATE_ATTRIBUTES.has(attribute.itemName) &&
      typeof itemValue === 'string'
        ? parseWireDate(itemValue)
        : (itemValue as AttributeValue);
    return { ...attribute, itemValue: value };
  }
}

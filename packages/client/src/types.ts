/**
 * The shapes of the quiz API as the client returns them (contract.md §4): the wire JSON with
 * datetimes parsed into Date objects. Identifiers stay strings, as on the wire.
 */

import type { operations } from './openapi.generated';
import type { WireSchema } from './wire.types';

/** An identifier as the client accepts it; the service answers with strings. */
export type Id = string | number;

export type QuizVisibility = WireSchema<'Quiz'>['visibility'];

// The shapes the client returns as the service sends them are aliases of the generated wire
// types (openapi.generated.ts, written by `npm run schema:emit`); those with datetimes, parsed
// into Date objects (Quiz, Session, DataSetPage, ItemAttribute), stay written here.

export type Media = WireSchema<'Media'>;

export type MediaType = Media['type'];

export type Question = WireSchema<'Question'>;

export type MultipleChoicesOneGoodAnswerQuestion = Extract<
  Question,
  { type: 'MultipleChoicesOneGoodAnswer' }
>;

export type MultipleChoicesSeveralGoodAnswersQuestion = Extract<
  Question,
  { type: 'MultipleChoicesSeveralGoodAnswers' }
>;

export type TrueFalseQuestion = Extract<Question, { type: 'TrueFalse' }>;

export type Tolerance = NonNullable<FreeAnswerNumberQuestion['tolerance']>;

export type FreeAnswerTextQuestion = Extract<Question, { type: 'FreeAnswerText' }>;

export type FreeAnswerNumberQuestion = Extract<Question, { type: 'FreeAnswerNumber' }>;

export type QuestionType = Question['type'];

/** firstName, lastName and pictureURL are present only where the requester may see them. */
export type User = WireSchema<'User'>;

export interface Quiz {
  id: string;
  title: string;
  visibility: QuizVisibility;
  survey: boolean;
  tags: string[];
  creationDate: Date;
  lastChangeDate: Date;
  author: User;
  nbQuestions: number;
  questions: Question[];
  /** The next three are present for an authenticated requester only. */
  defaultDuration?: string;
  imported?: boolean;
  favorite?: boolean;
}

export type UserGroup = WireSchema<'UserGroup'>;

// getResults' enums as the OpenAPI description lists them, so a new result type or aggregation
// function reaches the client with `npm run schema:emit`.
type GetResultsQuery = operations['getResults']['parameters']['query'];

export type ResultType = NonNullable<GetResultsQuery['resultTypes']>[number];

export type AggregationFunction = NonNullable<GetResultsQuery['aggregationFunctions']>[number];

export type GroupBy = NonNullable<GetResultsQuery['groupBy']>;

export type IncludeQuizzes = NonNullable<GetResultsQuery['includeQuizzes']>;

/** One number per requested result type; null where there was nothing to aggregate. */
export type ResultValues = { [K in ResultType]?: number | null };

/**
 * One attempt: a user on a quiz in a session (sessionId null for an `includeQuizzes=all` zero).
 * A survey has no score: its nbGoodAnswers, goodAnswersPercent and percentile are null.
 */
export interface DetailedResult extends ResultValues {
  id: string;
  userId: string;
  quizId: string;
  sessionId: string | null;
}

/** One (user, function) of aggregated results. */
export type UserAggregateResult = Extract<
  WireSchema<'ComputedResult'>,
  { userId: string; aggregationFunction: AggregationFunction }
>;

/** One (quiz, function) of aggregated results. */
export type QuizAggregateResult = Extract<
  WireSchema<'ComputedResult'>,
  { quizId: string; aggregationFunction: AggregationFunction }
>;

export type ComputedResult = DetailedResult | UserAggregateResult | QuizAggregateResult;

import type { QuestionStatistic, QuizStatistic } from './statistics.types';

/** The item type of each kind of data set. */
export interface DataSetItemTypes {
  user: User;
  quiz: Quiz;
  userGroup: UserGroup;
  computedResult: ComputedResult;
  questionStatistic: QuestionStatistic;
  quizStatistic: QuizStatistic;
}

export type DataSetItemType = keyof DataSetItemTypes;

export type DataSetItem = DataSetItemTypes[DataSetItemType];

/** One page of a data set (spec §2.3); the first page has index 1. */
export interface DataSetPage<T extends DataSetItem = DataSetItem> {
  dataSetId: string;
  itemType: DataSetItemType;
  numberOfPages: number;
  numberOfItemsPerPage: number;
  totalNumberOfItems: number;
  items: T[];
  currentPageIndex: number;
}

/** The value of an attribute: a Quiz field as getQuiz shows it (dates parsed), or a number. */
export type AttributeValue = string | number | boolean | null | Date | string[] | User | Question[];

export interface ItemAttribute {
  itemType: 'user' | 'quiz';
  itemId: string;
  itemName: string;
  itemValue: AttributeValue;
}

// Parameters of the operations (contract.md §6);
// test/integration/operation-catalog.contract.test.ts holds each method's parameter object to the
// service's operation catalog.

/** A data set given by its id or by a page of it. */
export type DataSetRef = Id | { readonly dataSetId: string };

/** A datetime (`YYYY-MM-DD hh:mm:ss` UTC or `YYYY-MM-DD` as text) or an interval of two. */
export type DateValue = Date | string;
export type DateIntervalParam = DateValue | { readonly from: DateValue; readonly to?: DateValue };

export interface PageSizeParams {
  /** Page size of the set made, 1 to 1000 (the service's default is 50). */
  numberOfItemsPerPage?: number;
}

export interface GetQuizParams {
  quizId: Id;
}

/** The quiz of addQuiz: fields other than these are ignored by the service. */
export interface NewQuiz {
  title: string;
  visibility: QuizVisibility;
  survey: boolean;
  tags: readonly string[];
  questions?: readonly NewQuestion[];
  defaultDuration?: string;
  favorite?: boolean;
}

/** A question as addQuiz takes it; numbers may also be given as text (`0.75` or `0,75`). */
export type NewQuestion =
  Question | (Omit<FreeAnswerNumberQuestion, 'goodAnswer'> & { goodAnswer?: number | string });

export interface AddQuizParams {
  quiz: NewQuiz;
}

/** A classroom session (contract.md §9), for its owner and its attendees. */
export interface Session {
  id: string;
  title: string;
  startDate: Date;
  owner: User;
  quizIds: string[];
  nbAttendees: number;
  /** The code pupils join the session with (joinSession): its owner's only, absent for anyone else. */
  joinCode?: string;
  /** When joinCode stops opening the session (the owner's only). */
  joinCodeExpiresAt?: Date;
}

/** A session as addSession takes it. */
export interface NewSession {
  title: string;
  /** 1 to 100 quizzes the requester may see. */
  quizIds: readonly Id[];
  /** Now when absent. */
  startDate?: DateValue;
  /** The owner or users the owner knows (its groups' members, its sessions' attendees); others join. */
  attendeeIds?: readonly Id[];
  /** The client's own name for the session (at most 64 characters): sending it again returns the same session. */
  clientRef?: string;
}

export interface AddSessionParams {
  session: NewSession;
}

export interface GetSessionParams {
  sessionId: Id;
}

export interface JoinSessionParams {
  /** The session's join code, as its owner was shown it (case, spaces and hyphens ignored). */
  joinCode: string;
}

/** One answer as addAnswers takes it. */
export interface NewAnswer {
  userId: Id;
  quizId: Id;
  /** 0-based position in the quiz's questions. */
  questionIndex: number;
  /** By question type: an index, indexes, a boolean, a text, or a number (or a text with . or ,). */
  answer: number | readonly number[] | boolean | string;
  /** Now when absent; at most 5 minutes ahead of the service's clock. */
  answeredAt?: DateValue;
}

export interface AddAnswersParams {
  sessionId: Id;
  /** 1 to 5,000 answers, stored all or nothing. */
  answers: readonly NewAnswer[];
}

/** What addAnswers stored: received = inserted + updated + unchanged. */
export type AddAnswersResult = WireSchema<'AddAnswersResult'>;

export interface GetQuizSetParams extends PageSizeParams {
  keywords?: string;
  quizId?: Id;
  tag?: string;
  author?: Id;
  player?: Id;
  sessionId?: Id;
  creationDate?: DateIntervalParam;
  modificationDate?: DateIntervalParam;
}

export interface GetQuizAttributeParams {
  quizId: Id;
  /** A Quiz field, or nbSessions, nbPlayers, nbFavorites. */
  attributeName: string;
}

export interface GetUserParams {
  userId: Id;
}

export interface GetUserAttributeParams {
  userId: Id;
  /** firstName, lastName, pictureURL, popularity or influence. */
  attributeName: string;
}

export interface GetUserSetParams extends PageSizeParams {
  userId?: Id;
  userGroupSetId?: DataSetRef;
  sessionId?: Id;
  /** With sessionId: the attendees who raised their hand (or not). */
  raisedHand?: boolean;
  quizId?: Id;
}

export interface GetUserGroupSetParams extends PageSizeParams {
  /** Name prefix. */
  search?: string;
}

export interface GetDataSetPageParams {
  dataSetId: DataSetRef;
  /** 1 to numberOfPages (the service's default is 1). */
  pageIndex?: number;
}

export type SetOperator = operations['computeDataSet']['parameters']['query']['operator'];

export interface ComputeDataSetParams extends PageSizeParams {
  dataSetId1: DataSetRef;
  dataSetId2: DataSetRef;
  operator: SetOperator;
}

interface GetResultsCommonParams extends PageSizeParams {
  userSetId: DataSetRef;
  quizSetId: DataSetRef;
  /** The service's default is nbGoodAnswers. */
  resultTypes?: readonly ResultType[];
  /** Restricts the answers to these sessions. */
  sessionIds?: readonly Id[];
  sessionId?: Id;
  includeQuizzes?: IncludeQuizzes;
}

/** Detailed results (one item per attempt) need an access token. */
export interface GetDetailedResultsParams extends GetResultsCommonParams {
  aggregationFunctions?: undefined;
  groupBy?: undefined;
}

/** Aggregated results: one item per (group, function); open to anonymous requesters. */
export interface GetAggregatedResultsParams<
  G extends GroupBy = GroupBy,
> extends GetResultsCommonParams {
  aggregationFunctions: readonly AggregationFunction[];
  groupBy: G;
}

export type GetResultsParams = GetDetailedResultsParams | GetAggregatedResultsParams;

/** The item type of a getResults set (or of a watch of a session's results), by its groupBy. */
export type ResultOf<P extends { readonly groupBy?: GroupBy }> = P extends { groupBy: 'user' }
  ? UserAggregateResult
  : P extends { groupBy: 'quiz' }
    ? QuizAggregateResult
    : P extends { groupBy: GroupBy }
      ? UserAggregateResult | QuizAggregateResult
      : DetailedResult;

// Item analysis (contract.md §12).

/** Both operations need an access token; only attempts the requester may see in detail count. */
export interface GetStatisticsParams extends PageSizeParams {
  userSetId: DataSetRef;
  quizSetId: DataSetRef;
  /** Restricts the answers to these sessions. */
  sessionIds?: readonly Id[];
  sessionId?: Id;
}

/**
 * What a person's export holds (contract.md §14.3), as the services give it: ids as numbers,
 * datetimes as Date. Each wire writes it its own way (REST and the CLI stream its JSON; GraphQL
 * answers it as typed objects).
 */

export interface PersonalProfileView {
  id: number;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  pictureURL: string | null;
  publicProfile: boolean;
  canCreatePrivateQuizzes: boolean;
  createdAt: Date;
}

/** A group the person owns. */
export interface OwnedGroupView {
  id: number;
  name: string;
  nbMembers: number;
  createdAt: Date;
}

/** A group the person is a member of. */
export interface MemberGroupView {
  id: number;
  name: string;
  ownerId: number;
}

export interface AttendanceView {
  sessionId: number;
  title: string;
  startDate: Date;
  raisedHand: boolean;
}

export interface PersonalAnswerView {
  id: number;
  sessionId: number;
  quizId: number;
  /** 0-based position of the question in its quiz, as addAnswers takes it. */
  questionIndex: number;
  /** As given: an index, indexes, a boolean, a text or a number (a decimal text). */
  value: unknown;
  /** Whether it was a good answer; null for a survey's question. */
  good: boolean | null;
  answeredAt: Date;
}

export interface QuizFlagView {
  quizId: number;
  favorite: boolean;
  imported: boolean;
}

/** A quiz the person wrote. */
export interface AuthoredQuizView {
  id: number;
  title: string;
  visibility: string;
  survey: boolean;
  nbQuestions: number;
  creationDate: Date;
  lastChangeDate: Date;
}

/** A session the person owns. */
export interface OwnedSessionView {
  id: number;
  title: string;
  startDate: Date;
  clientRef: string | null;
  nbAttendees: number;
}

/** An API key of the person: what tells it apart, never its hash. */
export interface PersonalApiKeyView {
  id: number;
  keyPrefix: string;
  host: string;
  label: string;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** A webhook endpoint of the person (§16): where events go, never its secret. */
export interface PersonalWebhookView {
  id: number;
  url: string;
  /** The event types it receives. */
  events: string[];
  createdAt: Date;
  disabledAt: Date | null;
  disabledReason: string | null;
}

/** An unexpired data set the person made. */
export interface PersonalDataSetView {
  id: number;
  itemType: string;
  totalNumberOfItems: number;
  /** The request that made it (computed results, statistics), as stored; else null. */
  parameters: unknown;
  createdAt: Date;
  expiresAt: Date;
}

/** Who read data about the person (§14.6). */
export interface AccessLogEntryView {
  accessedAt: Date;
  operation: string;
  requesterUserId: number | null;
  requesterApiKeyId: number | null;
  requestId: string;
}

/** A list of the export, a page at a time: each page is read only when asked for. */
export type PersonalList<T> = () => AsyncGenerator<T[], void, undefined>;

/** The export as the service gives it: the profile read, every list still to read. */
export interface PersonalDataExport {
  userId: number;
  exportedAt: Date;
  /** How many answers it holds (the size REST charges by the thousand). */
  nbAnswers: number;
  profile: PersonalProfileView;
  groups: { owned: PersonalList<OwnedGroupView>; memberOf: PersonalList<MemberGroupView> };
  attendances: PersonalList<AttendanceView>;
  answers: PersonalList<PersonalAnswerView>;
  quizFlags: PersonalList<QuizFlagView>;
  quizzes: PersonalList<AuthoredQuizView>;
  sessions: PersonalList<OwnedSessionView>;
  apiKeys: PersonalList<PersonalApiKeyView>;
  webhooks: PersonalList<PersonalWebhookView>;
  dataSets: PersonalList<PersonalDataSetView>;
  accessLog: PersonalList<AccessLogEntryView>;
}

/** The same document read whole (GraphQL). */
export interface PersonalDataDocument {
  exportedAt: Date;
  profile: PersonalProfileView;
  groups: { owned: OwnedGroupView[]; memberOf: MemberGroupView[] };
  attendances: AttendanceView[];
  answers: PersonalAnswerView[];
  quizFlags: QuizFlagView[];
  quizzes: AuthoredQuizView[];
  sessions: OwnedSessionView[];
  apiKeys: PersonalApiKeyView[];
  webhooks: PersonalWebhookView[];
  dataSets: PersonalDataSetView[];
  accessLog: AccessLogEntryView[];
}

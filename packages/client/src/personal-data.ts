import type { WireSchema } from './wire.types';
import { parseWireDate } from './wire-format';

/**
 * exportPersonalData (contract.md §14.3): everything the service holds about the token's user,
 * as the client returns it: the service's document with its datetimes parsed into Date objects.
 * Identifiers stay strings, as on the wire. The sections without datetimes are the generated
 * wire types; those with one are written here.
 */

export interface PersonalProfile {
  id: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  pictureURL: string | null;
  publicProfile: boolean;
  canCreatePrivateQuizzes: boolean;
  createdAt: Date;
}

export interface PersonalOwnedGroup {
  id: string;
  name: string;
  nbMembers: number;
  createdAt: Date;
}

export type PersonalMemberGroup = WireSchema<'PersonalMemberGroup'>;

export interface PersonalAttendance {
  sessionId: string;
  title: string;
  startDate: Date;
  raisedHand: boolean;
}

export interface PersonalAnswer {
  id: string;
  sessionId: string;
  quizId: string;
  /** 0-based position of the question in its quiz. */
  questionIndex: number;
  /** As given: an index, indexes, a boolean, a text, or a number as a decimal text. */
  value: unknown;
  /** Null for a survey's question. */
  good: boolean | null;
  answeredAt: Date;
}

export type PersonalQuizFlag = WireSchema<'PersonalQuizFlag'>;

export interface PersonalQuiz {
  id: string;
  title: string;
  visibility: 'public' | 'private' | 'draft';
  survey: boolean;
  nbQuestions: number;
  creationDate: Date;
  lastChangeDate: Date;
}

export interface PersonalSession {
  id: string;
  title: string;
  startDate: Date;
  clientRef: string | null;
  nbAttendees: number;
}

/** An API key of the person, without any secret. */
export interface PersonalApiKey {
  id: string;
  keyPrefix: string;
  host: string;
  label: string;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** A webhook endpoint of the person, without its secret. */
export interface PersonalWebhook {
  id: string;
  url: string;
  events: string[];
  createdAt: Date;
  disabledAt: Date | null;
  disabledReason: string | null;
}

export interface PersonalDataSet {
  id: string;
  itemType: string;
  totalNumberOfItems: number;
  /** The request that made the set, as stored; null for most sets. */
  parameters: unknown;
  createdAt: Date;
  expiresAt: Date;
}

export interface PersonalAccessLogEntry {
  accessedAt: Date;
  operation: string;
  requesterUserId: string | null;
  requesterApiKeyId: string | null;
  requestId: string;
}

export interface PersonalData {
  exportedAt: Date;
  profile: PersonalProfile;
  groups: { owned: PersonalOwnedGroup[]; memberOf: PersonalMemberGroup[] };
  attendances: PersonalAttendance[];
  answers: PersonalAnswer[];
  quizFlags: PersonalQuizFlag[];
  quizzes: PersonalQuiz[];
  sessions: PersonalSession[];
  apiKeys: PersonalApiKey[];
  webhooks: PersonalWebhook[];
  dataSets: PersonalDataSet[];
  accessLog: PersonalAccessLogEntry[];
}

/** The document as the service writes it: datetimes as `YYYY-MM-DD hh:mm:ss` text. */
type Wire<T> = {
  [K in keyof T]: T[K] extends Date
    ? string
    : T[K] extends Date | null
      ? string | null
      : T[K] extends (infer I)[]
        ? Wire<I>[]
        : T[K] extends object
          ? Wire<T[K]>
          : T[K];
};

export type WirePersonalData = Wire<PersonalData>;

/** Every field of the document named as a datetime, wherever it is. */
const DATE_FIELDS = new Set([
  'exportedAt',
  'createdAt',
  'startDate',
  'answeredAt',
  'creationDate',
  'lastChangeDate',
  'revokedAt',
  'lastUsedAt',
  'expiresAt',
  'accessedAt',
  'disabledAt',
]);

function parseDates(value: unknown, key?: string): unknown {
  if (key !== undefined && DATE_FIELDS.has(key) && typeof value === 'string') {
    return parseWireDate(value);
  }
  if (Array.isArray(value)) return value.map((item) => parseDates(item));
  // An answer's value and a set's parameters are kept as the service wrote them.
  if (value === null || typeof value !== 'object' || key === 'value' || key === 'parameters') {
    return value;
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, parseDates(v, k)]));
}

export function parsePersonalData(wire: WirePersonalData): PersonalData {
  return parseDates(wire) as PersonalData;
}

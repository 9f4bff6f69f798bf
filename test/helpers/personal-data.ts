/**
 * The document of exportPersonalData (contract.md §14.3) as the tests read it, the GraphQL query
 * that asks for all of it, and a form of it in which the three wires compare.
 */

export type Row = Record<string, unknown>;

interface Item {
  [field: string]: unknown;
}

/** The document as REST and the CLI write it (GraphQL: the same names, ISO datetimes). */
export interface Doc {
  exportedAt: string;
  profile: Item & { id: string; createdAt: string };
  groups: {
    owned: (Item & { id: string; name: string })[];
    memberOf: (Item & { id: string; name: string })[];
  };
  attendances: (Item & { sessionId: string; raisedHand: boolean })[];
  answers: (Item & { id: string; sessionId: string; value: unknown })[];
  quizFlags: Item[];
  quizzes: (Item & { id: string })[];
  sessions: (Item & { id: string })[];
  apiKeys: (Item & { id: string })[];
  webhooks: (Item & { id: string })[];
  dataSets: (Item & { id: string; itemType: string; totalNumberOfItems: number })[];
  accessLog: (Item & { requestId: string; operation: string })[];
}

export const PERSONAL_DATA_QUERY = `{
  exportPersonalData {
    exportedAt
    profile { id email firstName lastName pictureURL publicProfile canCreatePrivateQuizzes createdAt }
    groups { owned { id name nbMembers createdAt } memberOf { id name ownerId } }
    attendances { sessionId title startDate raisedHand }
    answers { id sessionId quizId questionIndex value good answeredAt }
    quizFlags { quizId favorite imported }
    quizzes { id title visibility survey nbQuestions creationDate lastChangeDate }
    sessions { id title startDate clientRef nbAttendees }
    apiKeys { id keyPrefix host label createdAt revokedAt lastUsedAt }
    webhooks { id url events createdAt disabledAt disabledReason }
    dataSets { id itemType totalNumberOfItems parameters createdAt expiresAt }
    accessLog { accessedAt operation requesterUserId requesterApiKeyId requestId }
  }
}`;

const ISO = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(\.\d+)?Z$/;

/** GraphQL's ISO datetimes in REST's form; everything else as it is. */
function wireDates(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(ISO, '$1 $2');
  if (Array.isArray(value)) return value.map(wireDates);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wireDates(v)]));
}

/**
 * What two exports of the same person share: without the time of the export and without the
 * entries that exports write about the person (each export adds its own).
 */
export function comparable(doc: Doc): unknown {
  const { exportedAt: _exportedAt, ...rest } = wireDates(doc) as Doc;
  return {
    ...rest,
    accessLog: rest.accessLog.filter(
      (entry) => entry.operation !== 'exportPersonalData' && entry.operation !== 'user:export',
    ),
  };
}

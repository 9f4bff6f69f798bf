import { DATA_SET_ITEM_TYPES } from '../../../domain/data-sets/item-types';
import { QUIZ_VISIBILITIES } from '../../../domain/quizzes/quiz.rules';

/** JSON Schema (2020-12), as openapi.schemas.ts writes it. */
type JsonSchema = Record<string, unknown>;

/** The component schemas of a person's export (contract.md §14.3). */

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const idString: JsonSchema = { type: 'string', pattern: '^[0-9]+$' };
const nullableId: JsonSchema = { type: ['string', 'null'], pattern: '^[0-9]+$' };
const legacyDate: JsonSchema = {
  type: 'string',
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$',
  description: 'YYYY-MM-DD hh:mm:ss, UTC',
};
const nullableDate: JsonSchema = { ...legacyDate, type: ['string', 'null'] };
const count: JsonSchema = { type: 'integer', minimum: 0 };
const text: JsonSchema = { type: 'string' };
const nullableText: JsonSchema = { type: ['string', 'null'] };
const flag: JsonSchema = { type: 'boolean' };

/** Every field is always present (null where the column is empty). */
function object(properties: Record<string, JsonSchema>, description?: string): JsonSchema {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
    ...(description ? { description } : {}),
  };
}

const list = (item: string): JsonSchema => ({ type: 'array', items: ref(item) });

export const PERSONAL_DATA_SCHEMAS: Record<string, JsonSchema> = {
  PersonalData: object(
    {
      exportedAt: legacyDate,
      profile: ref('PersonalProfile'),
      groups: object({ owned: list('PersonalOwnedGroup'), memberOf: list('PersonalMemberGroup') }),
      attendances: list('PersonalAttendance'),
      answers: list('PersonalAnswer'),
      quizFlags: list('PersonalQuizFlag'),
      quizzes: list('PersonalQuiz'),
      sessions: list('PersonalSession'),
      apiKeys: list('PersonalApiKey'),
      webhooks: list('PersonalWebhook'),
      dataSets: list('PersonalDataSet'),
      accessLog: list('PersonalAccessLogEntry'),
    },
    "Everything the service holds about the token's user (contract.md §14.3), streamed as one document.",
  ),
  PersonalProfile: object(
    {
      id: idString,
      email: nullableText,
      firstName: nullableText,
      lastName: nullableText,
      pictureURL: nullableText,
      publicProfile: flag,
      canCreatePrivateQuizzes: flag,
      createdAt: legacyDate,
    },
    'The account, without its password hash.',
  ),
  PersonalOwnedGroup: object({ id: idString, name: text, nbMembers: count, createdAt: legacyDate }),
  PersonalMemberGroup: object({ id: idString, name: text, ownerId: idString }),
  PersonalAttendance: object({
    sessionId: idString,
    title: text,
    startDate: legacyDate,
    raisedHand: flag,
  }),
  PersonalAnswer: object({
    id: idString,
    sessionId: idString,
    quizId: idString,
    questionIndex: {
      type: 'integer',
      minimum: 0,
      description: "0-based position in the quiz's questions",
    },
    value: {
      description:
        'as given: an index, an array of indexes, a boolean, a text, or a number as a decimal text',
    },
    good: { type: ['boolean', 'null'], description: "null for a survey's question" },
    answeredAt: legacyDate,
  }),
  PersonalQuizFlag: object({ quizId: idString, favorite: flag, imported: flag }),
  PersonalQuiz: object({
    id: idString,
    title: text,
    visibility: { type: 'string', enum: [...QUIZ_VISIBILITIES] },
    survey: flag,
    nbQuestions: count,
    creationDate: legacyDate,
    lastChangeDate: legacyDate,
  }),
  PersonalSession: object({
    id: idString,
    title: text,
    startDate: legacyDate,
    clientRef: nullableText,
    nbAttendees: count,
  }),
  PersonalApiKey: object(
    {
      id: idString,
      keyPrefix: text,
      host: text,
      label: text,
      createdAt: legacyDate,
      revokedAt: nullableDate,
      lastUsedAt: nullableDate,
    },
    'An API key of the person, without any secret.',
  ),
  PersonalWebhook: object(
    {
      id: idString,
      url: text,
      events: { type: 'array', items: text },
      createdAt: legacyDate,
      disabledAt: nullableDate,
      disabledReason: nullableText,
    },
    'A webhook endpoint of the person (contract.md §16), without its secret.',
  ),
  PersonalDataSet: object({
    id: idString,
    itemType: { type: 'string', enum: [...DATA_SET_ITEM_TYPES] },
    totalNumberOfItems: count,
    parameters: { description: 'the request that made the set, as stored; null for most sets' },
    createdAt: legacyDate,
    expiresAt: legacyDate,
  }),
  PersonalAccessLogEntry: object(
    {
      accessedAt: legacyDate,
      operation: text,
      requesterUserId: nullableId,
      requesterApiKeyId: nullableId,
      requestId: text,
    },
    'A read of detailed or per-pupil data about the person (contract.md §14.6).',
  ),
};

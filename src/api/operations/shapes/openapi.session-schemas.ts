import { ANSWER_LIMITS } from '../../../domain/answers/answer.rules';
import { JOIN_CODE_ALPHABET, JOIN_CODE_LENGTH } from '../../../domain/sessions/join-code.rules';
import { SESSION_LIMITS } from '../../../domain/sessions/session.rules';
import { ID_BODY_SCHEMA } from './openapi.ids';
/** JSON Schema (2020-12), as openapi.schemas.ts writes it. */
type JsonSchema = Record<string, unknown>;

/** The component schemas of ingestion (contract.md §9): sessions, answers and their results. */

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const idString: JsonSchema = { type: 'string', pattern: '^[0-9]+$' };
const idInput: JsonSchema = {
  ...ID_BODY_SCHEMA,
  description: 'an identifier, as digits or as a number',
};
const legacyDate: JsonSchema = {
  type: 'string',
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$',
  description: 'YYYY-MM-DD hh:mm:ss, UTC',
};
const count: JsonSchema = { type: 'integer', minimum: 0 };
const { titleLength, quizzes, clientRefLength, attendees } = SESSION_LIMITS;

export const SESSION_SCHEMAS: Record<string, JsonSchema> = {
  SessionInput: {
    type: 'object',
    required: ['title', 'quizIds'],
    properties: {
      title: { type: 'string', minLength: titleLength.min, maxLength: titleLength.max },
      quizIds: {
        type: 'array',
        items: idInput,
        minItems: quizzes.min,
        maxItems: quizzes.max,
        uniqueItems: true,
        description: 'quizzes the requester may see',
      },
      startDate: { ...legacyDate, description: 'YYYY-MM-DD hh:mm:ss, UTC; now by default' },
      attendeeIds: {
        type: 'array',
        items: idInput,
        maxItems: attendees.max,
        uniqueItems: true,
        description:
          'the owner or users the owner knows (members of their groups, attendees of their sessions); others join with the join code',
      },
      clientRef: {
        type: 'string',
        minLength: clientRefLength.min,
        maxLength: clientRefLength.max,
        description:
          'the client’s own name for the session: the same owner sending it again gets the existing session back',
      },
    },
    description: 'The session addSession takes (contract.md §9); unknown fields are ignored.',
  },
  AnswerInput: {
    type: 'object',
    required: ['userId', 'quizId', 'questionIndex', 'answer'],
    properties: {
      userId: idInput,
      quizId: idInput,
      questionIndex: {
        type: 'integer',
        minimum: 0,
        description: "0-based position in the quiz's questions",
      },
      answer: {
        description:
          'by question type: an index, an array of distinct indexes, a boolean, a text, or a number (a text with . or , accepted)',
      },
      answeredAt: {
        ...legacyDate,
        description: `YYYY-MM-DD hh:mm:ss, UTC; now by default, at most ${ANSWER_LIMITS.maxFutureMs / 60_000} minutes ahead`,
      },
    },
  },
  Session: {
    type: 'object',
    required: ['id', 'title', 'startDate', 'owner', 'quizIds', 'nbAttendees'],
    properties: {
      id: idString,
      title: { type: 'string' },
      startDate: legacyDate,
      owner: ref('User'),
      quizIds: { type: 'array', items: idString },
      nbAttendees: count,
      joinCode: {
        type: 'string',
        pattern: `^[${JOIN_CODE_ALPHABET}]{${JOIN_CODE_LENGTH}}$`,
        description: 'the code pupils join the session with (joinSession); for its owner only',
      },
      joinCodeExpiresAt: {
        ...legacyDate,
        description:
          'YYYY-MM-DD hh:mm:ss, UTC: when joinCode stops opening the session; for its owner only',
      },
    },
    additionalProperties: false,
  },
  AddAnswersResult: {
    type: 'object',
    required: ['sessionId', 'received', 'inserted', 'updated', 'unchanged'],
    properties: {
      sessionId: idString,
      received: count,
      inserted: count,
      updated: count,
      unchanged: count,
    },
    additionalProperties: false,
    description: 'received = inserted + updated + unchanged',
  },
};

import { addAnswers } from '../../services/sessions/answer-write.service';
import { joinSession } from '../../services/sessions/session-join.service';
import { addSession } from '../../services/sessions/session-write.service';
import { getSession } from '../../services/sessions/session.service';
import { ANSWER_LIMITS } from '../../domain/answers/answer.rules';
import { serializeAddAnswersResult, serializeSession } from './shapes/session.serializer';
import { READ, WRITE } from './operation-costs';
import { defineOperation } from './operation-definition';
import { itemIdParameter, nameParameter, payloadParameter } from './operation-parameters';

const sessionId = itemIdParameter('sessionId', 'the session', 'session id');

const JOIN_CODE_DESCRIPTION =
  "the session's join code, as its owner was shown it (case, spaces and hyphens ignored)";
const joinCode = {
  ...nameParameter('joinCode', JOIN_CODE_DESCRIPTION),
  bodySchema: { type: 'string', description: JOIN_CODE_DESCRIPTION },
};

export const addSessionOperation = defineOperation({
  name: 'addSession',
  description:
    'Adds a classroom session owned by the token owner, playing quizzes it may see, with attendees it knows; the owner is shown the code others join with. The same clientRef again returns the existing session.',
  graphQL: 'mutation',
  rest: { methods: ['POST'], response: 'Session', serialize: serializeSession },
  token: 'required',
  tokenReason: 'an access token is required to add a session',
  cost: WRITE,
  parameters: [
    payloadParameter(
      'session',
      'JSON (schema SessionInput): title and quizIds required; startDate, attendeeIds, clientRef optional',
      'SessionInput',
    ),
  ],
  run: (ctx, args) => addSession(ctx, args.session),
});

export const getSessionOperation = defineOperation({
  name: 'getSession',
  description:
    'One classroom session, for its owner and its attendees; the owner is shown its join code (a new one once it expired).',
  graphQL: 'query',
  rest: { methods: ['GET'], response: 'Session', serialize: serializeSession },
  token: 'required',
  tokenReason: 'an access token is required to read a session',
  cost: READ,
  parameters: [sessionId],
  run: (ctx, args) => getSession(ctx, args.sessionId),
});

export const joinSessionOperation = defineOperation({
  name: 'joinSession',
  description:
    "Makes the token owner an attendee of the session whose join code it gives (joining again changes nothing) and returns the session. A wrong or expired code is refused, and a user's failed joins are limited as failed logins are.",
  graphQL: 'mutation',
  rest: { methods: ['POST'], response: 'Session', serialize: serializeSession },
  token: 'required',
  tokenReason: 'an access token is required to join a session',
  cost: WRITE,
  parameters: [joinCode],
  run: (ctx, args) => joinSession(ctx, args.joinCode),
});

export const addAnswersOperation = defineOperation({
  name: 'addAnswers',
  description: `Stores ${ANSWER_LIMITS.batch.min} to ${ANSWER_LIMITS.batch.max} answers of a session, all or nothing: one per user and question, a different later value replacing the stored one. The owner writes for its attendees and the users it knows, an attendee for themself.`,
  graphQL: 'mutation',
  rest: { methods: ['POST'], response: 'AddAnswersResult', serialize: serializeAddAnswersResult },
  token: 'required',
  tokenReason: 'an access token is required to add answers',
  cost: WRITE,
  parameters: [
    sessionId,
    payloadParameter(
      'answers',
      'JSON array (schema AnswerInput): userId, quizId, questionIndex, answer; answeredAt optional',
      'AnswerInput',
      { list: ANSWER_LIMITS.batch },
    ),
  ],
  run: (ctx, args) => addAnswers(ctx, args.sessionId, args.answers),
});

/** What happens in class: sessions and answers. */
export const SESSION_OPERATIONS = {
  addSession: addSessionOperation,
  getSession: getSessionOperation,
  joinSession: joinSessionOperation,
  addAnswers: addAnswersOperation,
} as const;

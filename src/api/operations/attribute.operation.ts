import { getQuizAttribute } from '../../services/attributes/quiz-attribute.service';
import { getUserAttribute } from '../../services/attributes/user-attribute.service';
import { serializeItemAttribute } from './shapes/attribute.serializer';
import { READ } from './operation-costs';
import { defineOperation } from './operation-definition';
import { nameParameter } from './operation-parameters';
import { quizIdParameter } from './quiz.operation';
import { userIdParameter } from './user.operation';

export const getUserAttributeOperation = defineOperation({
  name: 'getUserAttribute',
  description:
    'firstName, lastName, pictureURL, or the computed popularity or influence of a user.',
  graphQL: 'query',
  rest: { methods: ['GET'], response: 'ItemAttribute', serialize: serializeItemAttribute },
  token: 'required',
  cost: READ,
  parameters: [
    userIdParameter,
    nameParameter('attributeName', 'firstName, lastName, pictureURL, popularity or influence'),
  ],
  run: (ctx, args) => getUserAttribute(ctx, args.userId, args.attributeName),
});

export const getQuizAttributeOperation = defineOperation({
  name: 'getQuizAttribute',
  description: 'One field of a quiz, or the computed nbSessions, nbPlayers or nbFavorites.',
  graphQL: 'query',
  rest: { methods: ['GET'], response: 'ItemAttribute', serialize: serializeItemAttribute },
  token: 'optional',
  cost: READ,
  parameters: [
    quizIdParameter,
    nameParameter('attributeName', 'a Quiz field or nbSessions, nbPlayers, nbFavorites'),
  ],
  run: (ctx, args) => getQuizAttribute(ctx, args.quizId, args.attributeName),
});

/** One attribute of a user or a quiz. */
export const ATTRIBUTE_OPERATIONS = {
  getUserAttribute: getUserAttributeOperation,
  getQuizAttribute: getQuizAttributeOperation,
} as const;

import { getQuizAttribute } from '../../services/attributes/quiz-attribute.service';
import { addQuiz } from '../../services/quizzes/quiz-write.service';
import { getQuiz } from '../../services/quizzes/quiz.service';
import { quizView } from '../../services/quizzes/quiz.views';
import { serializeItemAttribute } from './shapes/attribute.serializer';
import { serializeQuiz } from './shapes/quiz.serializer';
import { READ, WRITE } from './operation-costs';
import { defineOperation } from './operation-definition';
import { itemIdParameter, nameParameter, payloadParameter } from './operation-parameters';

const quizId = itemIdParameter('quizId', 'the quiz', 'quiz id');

export const getQuizOperation = defineOperation({
  name: 'getQuiz',
  description:
    'One quiz: public attributes for everyone, all attributes for an authenticated requester.',
  graphQL: 'query',
  rest: { methods: ['GET'], response: 'Quiz', serialize: serializeQuiz },
  token: 'optional',
  cost: READ,
  parameters: [quizId],
  run: (ctx, args) => getQuiz(ctx, args.quizId),
});

export const addQuizOperation = defineOperation({
  name: 'addQuiz',
  description: 'Adds a quiz to the account of the token owner.',
  graphQL: 'mutation',
  rest: { methods: ['POST'], response: 'Quiz', serialize: serializeQuiz },
  token: 'required',
  tokenReason: 'an access token is required to add a quiz',
  cost: WRITE,
  parameters: [
    payloadParameter(
      'quiz',
      'JSON (schema QuizInput): title, visibility, survey, tags required; questions, defaultDuration, favorite optional',
      'QuizInput',
    ),
  ],
  run: async (ctx, args) => quizView(ctx, await addQuiz(ctx, args.quiz)),
});

export const getQuizAttributeOperation = defineOperation({
  name: 'getQuizAttribute',
  description: 'One field of a quiz, or the computed nbSessions, nbPlayers or nbFavorites.',
  graphQL: 'query',
  rest: { methods: ['GET'], response: 'ItemAttribute', serialize: serializeItemAttribute },
  token: 'optional',
  cost: READ,
  parameters: [
    quizId,
    nameParameter('attributeName', 'a Quiz field or nbSessions, nbPlayers, nbFavorites'),
  ],
  run: (ctx, args) => getQuizAttribute(ctx, args.quizId, args.attributeName),
});

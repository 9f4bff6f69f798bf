import { addQuiz } from '../../services/quizzes/quiz-write.service';
import { getQuiz } from '../../services/quizzes/quiz.service';
import { quizView } from '../../services/quizzes/quiz.views';
import { serializeQuiz } from './shapes/quiz.serializer';
import { READ, WRITE } from './operation-costs';
import { defineOperation } from './operation-definition';
import { itemIdParameter, payloadParameter } from './operation-parameters';

export const quizIdParameter = itemIdParameter('quizId', 'the quiz', 'quiz id');

export const getQuizOperation = defineOperation({
  name: 'getQuiz',
  description:
    'One quiz: public attributes for everyone, all attributes for an authenticated requester.',
  graphQL: 'query',
  rest: { methods: ['GET'], response: 'Quiz', serialize: serializeQuiz },
  token: 'optional',
  cost: READ,
  parameters: [quizIdParameter],
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

/** The quiz area's operations, in the catalog's order. */
export const QUIZ_OPERATIONS = { getQuiz: getQuizOperation, addQuiz: addQuizOperation } as const;

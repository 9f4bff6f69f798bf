import { addQuiz } from '../../../services/quizzes/quiz-write.service';
import { getQuiz } from '../../../services/quizzes/quiz.service';
import { quizView } from '../../../services/quizzes/quiz.views';
import { Errors } from '../../../errors';
import { requiredId } from '../ids';
import { optionalString } from '../params';
import type { RestOperation } from '../rest-operation';
import { serializeQuiz } from '../serializers/quiz.serializer';

export const getQuizOperation: RestOperation = {
  name: 'getQuiz',
  methods: ['GET'],
  handler: async (ctx, params) =>
    serializeQuiz(await getQuiz(ctx, requiredId(ctx.operation, params, 'quizId'))),
};

export const addQuizOperation: RestOperation = {
  name: 'addQuiz',
  methods: ['POST'],
  handler: async (ctx, params) => {
    // In the query string the quiz is URL-encoded JSON; in a JSON body it is already an object.
    let quiz: unknown = params.quiz;
    if (typeof quiz === 'string' || Array.isArray(quiz)) {
      const text = optionalString(ctx.operation, params, 'quiz') ?? '';
      try {
        quiz = text.trim() === '' ? undefined : JSON.parse(text);
      } catch {
        throw Errors.badParameter(ctx.operation, 'quiz', text, 'is not valid JSON');
      }
    }
    return serializeQuiz(await quizView(ctx, await addQuiz(ctx, quiz)));
  },
};

export const QUIZ_OPERATIONS: readonly RestOperation[] = [getQuizOperation, addQuizOperation];

import { addQuiz } from '../../../services/quizzes/quiz-write.service';
import { getQuiz } from '../../../services/quizzes/quiz.service';
import { quizView } from '../../../services/quizzes/quiz.views';
import { requiredId } from '../ids';
import { jsonParameter } from '../params';
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
    const quiz = jsonParameter(ctx.operation, params, 'quiz');
    return serializeQuiz(await quizView(ctx, await addQuiz(ctx, quiz)));
  },
};

export const QUIZ_OPERATIONS: readonly RestOperation[] = [getQuizOperation, addQuizOperation];

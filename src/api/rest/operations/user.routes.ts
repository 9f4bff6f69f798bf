import { getQuizAttribute } from '../../../services/quizzes/quiz-attribute.service';
import { getUser, getUserAttribute } from '../../../services/users/user-read.service';
import { requiredId } from '../ids';
import { requiredString } from '../params';
import type { RestOperation } from '../rest-operation';
import { serializeItemAttribute } from '../serializers/attribute.serializer';
import { serializeUser } from '../serializers/quiz.serializer';

export const getUserOperation: RestOperation = {
  name: 'getUser',
  methods: ['GET'],
  handler: async (ctx, params) =>
    serializeUser(await getUser(ctx, requiredId(ctx.operation, params, 'userId'))),
};

export const getUserAttributeOperation: RestOperation = {
  name: 'getUserAttribute',
  methods: ['GET'],
  handler: async (ctx, params) => {
    const userId = requiredId(ctx.operation, params, 'userId');
    const attributeName = requiredString(ctx.operation, params, 'attributeName');
    return serializeItemAttribute(await getUserAttribute(ctx, userId, attributeName));
  },
};

export const getQuizAttributeOperation: RestOperation = {
  name: 'getQuizAttribute',
  methods: ['GET'],
  handler: async (ctx, params) => {
    const quizId = requiredId(ctx.operation, params, 'quizId');
    const attributeName = requiredString(ctx.operation, params, 'attributeName');
    return serializeItemAttribute(await getQuizAttribute(ctx, quizId, attributeName));
  },
};

/** Operations on single users and attributes: getUser, getUserAttribute, getQuizAttribute. */
export const USER_OPERATIONS: readonly RestOperation[] = [
  getUserOperation,
  getUserAttributeOperation,
  getQuizAttributeOperation,
];

import { getUser } from '../../services/users/user-read.service';
import { serializeUser } from './shapes/quiz.serializer';
import { READ } from './operation-costs';
import { defineOperation } from './operation-definition';
import { itemIdParameter } from './operation-parameters';

export const userIdParameter = itemIdParameter('userId', 'the user', 'user id');

export const getUserOperation = defineOperation({
  name: 'getUser',
  description: 'One user; names and picture only where the requester may see them.',
  graphQL: 'query',
  rest: { methods: ['GET'], response: 'User', serialize: serializeUser },
  token: 'optional',
  cost: READ,
  parameters: [userIdParameter],
  run: (ctx, args) => getUser(ctx, args.userId),
});

/** The user area's operations. */
export const USER_OPERATIONS = { getUser: getUserOperation } as const;

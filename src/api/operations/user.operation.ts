import { getUserAttribute } from '../../services/attributes/user-attribute.service';
import { getUser } from '../../services/users/user-read.service';
import { serializeItemAttribute } from './shapes/attribute.serializer';
import { serializeUser } from './shapes/quiz.serializer';
import { READ } from './operation-costs';
import { defineOperation } from './operation-definition';
import { itemIdParameter, nameParameter } from './operation-parameters';

const userId = itemIdParameter('userId', 'the user', 'user id');

export const getUserOperation = defineOperation({
  name: 'getUser',
  description: 'One user; names and picture only where the requester may see them.',
  graphQL: 'query',
  rest: { methods: ['GET'], response: 'User', serialize: serializeUser },
  token: 'optional',
  cost: READ,
  parameters: [userId],
  run: (ctx, args) => getUser(ctx, args.userId),
});

export const getUserAttributeOperation = defineOperation({
  name: 'getUserAttribute',
  description:
    'firstName, lastName, pictureURL, or the computed popularity or influence of a user.',
  graphQL: 'query',
  rest: { methods: ['GET'], response: 'ItemAttribute', serialize: serializeItemAttribute },
  token: 'required',
  cost: READ,
  parameters: [
    userId,
    nameParameter('attributeName', 'firstName, lastName, pictureURL, popularity or influence'),
  ],
  run: (ctx, args) => getUserAttribute(ctx, args.userId, args.attributeName),
});

import type { RequestContext } from '../../context/request-context';
import type { User } from '../../db/entities';
import { tokenDecision } from '../../domain/policy/access.policy';
import { Errors } from '../../errors';
import { countQuery } from '../attributes/count.query';
import {
  USER_ATTRIBUTE_NAMES,
  isUserAttributeName,
  isUserDetailAttributeName,
  type UserAttribute,
  type UserAttributeName,
  type UserCountAttributeName,
} from '../attributes/item-attribute';
import { userView, type UserView } from './user.views';

/** The user, or BadParameterException 404 on userId. */
async function existingUser(ctx: RequestContext, userId: number): Promise<User> {
  const user = await ctx.loaders.userById.load(userId);
  if (!user) {
    throw Errors.notFound(ctx.operation, 'userId', String(userId), `user ${userId} does not exist`);
  }
  return user;
}

/** getUser: any user by id; firstName, lastName and pictureURL only where the policy allows. */
export async function getUser(ctx: RequestContext, userId: number): Promise<UserView> {
  await existingUser(ctx, userId);
  return userView(ctx, userId);
}

function checkedAttributeName(ctx: RequestContext, attributeName: string): UserAttributeName {
  if (attributeName.trim() === '') throw Errors.missingParameter(ctx.operation, 'attributeName');
  if (!isUserAttributeName(attributeName)) {
    throw Errors.badParameter(
      ctx.operation,
      'attributeName',
      attributeName,
      `must be one of ${USER_ATTRIBUTE_NAMES.join(', ')}`,
    );
  }
  return attributeName;
}

/** Both counts are one statement each, answered from indexes (quiz author, answers by quiz, session owner). */
const USER_COUNT_SQL: Readonly<Record<UserCountAttributeName, string>> = {
  popularity: `SELECT COUNT(DISTINCT a.user_id) AS n
                 FROM quizzes q JOIN answers a ON a.quiz_id = q.id
                WHERE q.author_id = ?`,
  influence: 'SELECT COUNT(*) AS n FROM sessions WHERE owner_id = ?',
};

/**
 * getUserAttribute: needs a token (spec §5.2); the details need the right to see them (403
 * otherwise); popularity and influence are open to any authenticated requester.
 */
export async function getUserAttribute(
  ctx: RequestContext,
  userId: number,
  attributeName: string,
): Promise<UserAttribute> {
  // The operation catalog applies the same rule first; a service keeps its own guard.
  const decision = tokenDecision(ctx.requester);
  if (decision === 'needsToken') {
    throw Errors.unauthenticated(ctx.operation, 'an access token is required');
  }
  if (decision === 'denied') {
    throw Errors.forbidden(ctx.operation, 'this operation is not allowed');
  }
  const name = checkedAttributeName(ctx, attributeName);
  await existingUser(ctx, userId);
  if (isUserDetailAttributeName(name)) {
    // The view applies seesUserDetails: no details in it means the requester may not see them.
    const { details } = await userView(ctx, userId);
    if (!details) {
      throw Errors.forbidden(
        ctx.operation,
        `the details of user ${userId} are not visible to the requester`,
      );
    }
    const itemValue =
      name === 'firstName'
        ? details.firstName
        : name === 'lastName'
          ? details.lastName
          : details.pictureUrl;
    return { itemType: 'user', itemId: userId, itemName: name, itemValue };
  }
  const itemValue = await countQuery(ctx.db.read, USER_COUNT_SQL[name], [userId]);
  return { itemType: 'user', itemId: userId, itemName: name, itemValue };
}

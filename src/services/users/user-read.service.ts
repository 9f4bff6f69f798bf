import type { RequestContext } from '../../context/request-context';
import type { User } from '../../db/entities';
import { tokenDecision } from '../../domain/policy/access.policy';
import { Errors } from '../../errors';
import { countAttribute } from '../../db/sql/attribute-counts.sql';
import {
  USER_ATTRIBUTE_NAMES,
  isUserAttributeName,
  isUserDetailAttributeName,
  type UserAttribute,
  type UserAttributeName,
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
  const itemValue = await countAttribute(ctx.db.read, 'user', name, userId);
  return { itemType: 'user', itemId: userId, itemName: name, itemValue };
}

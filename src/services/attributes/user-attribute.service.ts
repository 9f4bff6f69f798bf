import type { RequestContext } from '../../context/request-context';
import { countAttribute } from '../../db/sql/attribute-counts.sql';
import { tokenDecision } from '../../domain/policy/access.policy';
import { Errors } from '../../errors';
import { existingUser } from '../users/user-read.service';
import { recordAccess, subjectsById } from '../access-log/access-log.service';
import { userView } from '../users/user.views';
import {
  USER_ATTRIBUTE_NAMES,
  isUserAttributeName,
  isUserDetailAttributeName,
  type UserAttribute,
  type UserAttributeName,
} from './item-attribute';

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
    // A detail read names the user: recorded in the access log (contract.md §14.6).
    await recordAccess(ctx, subjectsById([userId]));
    return { itemType: 'user', itemId: userId, itemName: name, itemValue };
  }
  const itemValue = await countAttribute(ctx.db.read, 'user', name, userId);
  return { itemType: 'user', itemId: userId, itemName: name, itemValue };
}

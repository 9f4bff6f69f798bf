import type { RequestContext } from '../../context/request-context';
import type { User } from '../../db/entities';
import { Errors } from '../../errors';
import { recordAccess, subjectsById } from '../access-log/access-log.service';
import { userView, type UserView } from './user.views';

/** The user, or BadParameterException 404 on userId. */
export async function existingUser(ctx: RequestContext, userId: number): Promise<User> {
  const user = await ctx.loaders.userById.load(userId);
  if (!user) {
    throw Errors.notFound(ctx.operation, 'userId', String(userId), `user ${userId} does not exist`);
  }
  return user;
}

/**
 * getUser: any user by id; firstName, lastName and pictureURL only where the policy allows. A
 * view that reveals the name is recorded in the access log (contract.md §14.6).
 */
export async function getUser(ctx: RequestContext, userId: number): Promise<UserView> {
  await existingUser(ctx, userId);
  const view = await userView(ctx, userId);
  if (view.details) await recordAccess(ctx, subjectsById([userId]));
  return view;
}

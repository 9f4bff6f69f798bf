import type { RequestContext } from '../../context/request-context';
import { seesUserDetails } from '../../domain/policy/access.policy';

/** A user as a requester may see them: the id always, the rest only where the policy allows. */
export interface UserView {
  id: number;
  details?: { firstName: string; lastName: string; pictureUrl: string | null };
}

export async function userView(ctx: RequestContext, userId: number): Promise<UserView> {
  const [user, facts] = await Promise.all([
    ctx.loaders.userById.load(userId),
    ctx.loaders.userFacts.load(userId),
  ]);
  if (!user || !seesUserDetails(ctx.requester, facts)) return { id: userId };
  // An erased person's tombstone shows no one (contract.md §14.4).
  if (user.firstName === null || user.lastName === null) return { id: userId };
  return {
    id: userId,
    details: { firstName: user.firstName, lastName: user.lastName, pictureUrl: user.pictureUrl },
  };
}

import type { RequestContext } from '../../context/request-context';
import type { Session } from '../../db/entities';
import { userView, type UserView } from '../users/user.views';

/** A session on the wire (contract.md §9), for its owner and its attendees. */
export interface SessionView {
  id: number;
  title: string;
  startDate: Date;
  owner: UserView;
  quizIds: number[];
  nbAttendees: number;
}

/** The view of a stored session; its quizzes, attendees and owner come through the loaders. */
export async function sessionView(
  ctx: RequestContext,
  session: Pick<Session, 'id' | 'title' | 'startDate' | 'ownerId'>,
): Promise<SessionView> {
  const [owner, quizIds, nbAttendees] = await Promise.all([
    userView(ctx, session.ownerId),
    ctx.loaders.sessionQuizIds.load(session.id),
    ctx.loaders.sessionAttendeeCount.load(session.id),
  ]);
  return {
    id: session.id,
    title: session.title,
    startDate: session.startDate,
    owner,
    quizIds,
    nbAttendees,
  };
}

import type { RequestContext } from '../../context/request-context';
import type { Session } from '../../db/entities';
import { userView, type UserView } from '../users/user.views';

/** A session's join code as its owner sees it (contract.md §9). */
export interface JoinCodeView {
  code: string;
  expiresAt: Date;
}

/** A session on the wire (contract.md §9), for its owner and its attendees. */
export interface SessionView {
  id: number;
  title: string;
  startDate: Date;
  owner: UserView;
  quizIds: number[];
  nbAttendees: number;
  /** The owner's only: null for anyone else, and for a session without a code. */
  join: JoinCodeView | null;
}

/** What a view reads of a stored session; its quizzes, attendees and owner come through the loaders. */
export type StoredSession = Pick<
  Session,
  'id' | 'title' | 'startDate' | 'ownerId' | 'joinCode' | 'joinCodeExpiresAt'
>;

function joinCodeFor(ctx: RequestContext, session: StoredSession): JoinCodeView | null {
  const { requester } = ctx;
  const owner = requester.kind === 'user' && requester.userId === session.ownerId;
  if (!owner || session.joinCode === null || session.joinCodeExpiresAt === null) return null;
  return { code: session.joinCode, expiresAt: session.joinCodeExpiresAt };
}

/** The view of a stored session. */
export async function sessionView(
  ctx: RequestContext,
  session: StoredSession,
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
    join: joinCodeFor(ctx, session),
  };
}

import type { RequestContext } from '../../context/request-context';
import { sessionReadDecision } from '../../domain/policy/access.policy';
import { Errors, type ServiceApiError } from '../../errors';
import { withCurrentJoinCode } from './session-join.service';
import { sessionView, type SessionView } from './session.views';

/** The error of a `sessionId` parameter naming no session. */
export function sessionNotFound(ctx: RequestContext, sessionId: number): ServiceApiError {
  return Errors.notFound(
    ctx.operation,
    'sessionId',
    String(sessionId),
    `session ${sessionId} does not exist`,
  );
}

/**
 * getSession (contract.md §9): the session for its owner and its attendees; the owner is shown
 * its join code, a new one if it had none valid.
 */
export async function getSession(ctx: RequestContext, sessionId: number): Promise<SessionView> {
  const [session, attended] = await Promise.all([
    ctx.loaders.sessionById.load(sessionId),
    ctx.loaders.attendedSession.load(sessionId),
  ]);
  if (!session) throw sessionNotFound(ctx, sessionId);
  const decision = sessionReadDecision(ctx.requester, {
    ownerId: session.ownerId,
    requesterAttended: attended,
  });
  if (decision === 'needsToken') {
    throw Errors.unauthenticated(ctx.operation, 'an access token is required to read a session');
  }
  if (decision === 'denied') {
    throw Errors.forbidden(ctx.operation, 'only the owner and the attendees see a session');
  }
  return sessionView(ctx, await withCurrentJoinCode(ctx, session));
}

/**
 * A session as a result shows it: its id to anyone, its details (the view of getSession) to its
 * owner and attendees only; null when it does not exist.
 */
export async function sessionOfResult(
  ctx: RequestContext,
  sessionId: number,
): Promise<{ id: number; details: SessionView | null } | null> {
  const [session, attended] = await Promise.all([
    ctx.loaders.sessionById.load(sessionId),
    ctx.loaders.attendedSession.load(sessionId),
  ]);
  if (!session) return null;
  const decision = sessionReadDecision(ctx.requester, {
    ownerId: session.ownerId,
    requesterAttended: attended,
  });
  return {
    id: sessionId,
    details: decision === 'allowed' ? await sessionView(ctx, session) : null,
  };
}

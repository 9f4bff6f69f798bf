import type { AddAnswersResult } from '../../../services/sessions/answer-write.service';
import type { SessionView } from '../../../services/sessions/session.views';
import { legacyDate, legacyId } from './legacy-format';
import { serializeUser } from './quiz.serializer';

/** A Session; the join code is the owner's only, absent for anyone else (as User details are). */
export function serializeSession(session: SessionView): Record<string, unknown> {
  const json: Record<string, unknown> = {
    id: legacyId(session.id),
    title: session.title,
    startDate: legacyDate(session.startDate),
    owner: serializeUser(session.owner),
    quizIds: session.quizIds.map(legacyId),
    nbAttendees: session.nbAttendees,
  };
  if (session.join) {
    json.joinCode = session.join.code;
    json.joinCodeExpiresAt = legacyDate(session.join.expiresAt);
  }
  return json;
}

export function serializeAddAnswersResult(result: AddAnswersResult): Record<string, unknown> {
  return {
    sessionId: legacyId(result.sessionId),
    received: result.received,
    inserted: result.inserted,
    updated: result.updated,
    unchanged: result.unchanged,
  };
}

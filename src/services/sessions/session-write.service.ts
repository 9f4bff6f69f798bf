import type { RequestContext } from '../../context/request-context';
import { loadEvery } from '../../context/loaders';
import { wholeSeconds } from '../../db/entities/column-types';
import type { Session } from '../../db/entities';
import { insertSession, sessionsByClientRef } from '../../db/sessions.store';
import { isUniqueViolation } from '../../db/sql-errors';
import { knownUserIds } from '../../db/sql/answers.sql';
import {
  attendeeList,
  clientRef,
  sessionQuizList,
  sessionTitle,
} from '../../domain/sessions/session.rules';
import {
  distinctList,
  identifier,
  isFields,
  optionalDateTime,
} from '../../domain/validation/checks';
import { mayNameUser, sessionQuizDecision } from '../../domain/policy/access.policy';
import { Errors } from '../../errors';
import { checkPayload } from '../input-errors';
import { joinCodeExpiry, withCurrentJoinCode, withNewJoinCode } from './session-join.service';
import { sessionView, type SessionView } from './session.views';

interface SessionInput {
  title: string;
  quizIds: number[];
  startDate: Date;
  attendeeIds: number[];
  clientRef: string | null;
}

function readInput(raw: Record<string, unknown>, now: Date): SessionInput {
  const title = sessionTitle(raw.title, 'session.title');
  const quizIds = distinctList(
    sessionQuizList(raw.quizIds, 'session.quizIds'),
    'session.quizIds',
    'quiz',
    identifier,
  );
  const startDate = optionalDateTime(raw.startDate, 'session.startDate') ?? now;
  const attendeeIds = distinctList(
    attendeeList(raw.attendeeIds, 'session.attendeeIds'),
    'session.attendeeIds',
    'user',
    identifier,
  );
  return {
    title,
    quizIds,
    startDate,
    attendeeIds,
    clientRef: clientRef(raw.clientRef, 'session.clientRef'),
  };
}

/**
 * The session an owner already made with this clientRef, if any. The column compares bytes
 * (utf8mb4_bin on MySQL, BINARY on SQLite) but MySQL pads: a ref differing only by trailing
 * spaces is found too, and refused, for the unique key would refuse it anyway.
 */
async function findByClientRef(
  ctx: RequestContext,
  ownerId: number,
  ref: string,
): Promise<Session | null> {
  const found = await sessionsByClientRef(ctx.db, ownerId, ref);
  const exact = found.find((session) => session.clientRef === ref);
  if (exact) return exact;
  if (found.length > 0) {
    throw Errors.badParameter(
      ctx.operation,
      'session.clientRef',
      ref,
      'differs only by trailing spaces from a clientRef already used',
    );
  }
  return null;
}

/**
 * Every quiz must be one the owner may play to a class (sessionQuizDecision): public or their
 * own; any other reads as one that does not exist.
 */
async function checkQuizzes(ctx: RequestContext, quizIds: number[]): Promise<void> {
  const quizzes = await loadEvery(ctx.loaders.quizById, quizIds);
  for (const [index, quiz] of quizzes.entries()) {
    const id = quizIds[index] as number;
    const playable = quiz !== null && sessionQuizDecision(ctx.requester, quiz) === 'allowed';
    if (!playable) {
      throw Errors.badParameter(
        ctx.operation,
        `session.quizIds[${index}]`,
        String(id),
        `quiz ${id} does not exist or is neither public nor the requester's`,
      );
    }
  }
}

/**
 * Every attendee must be the owner or a user the owner knows (contract.md §9); any other id,
 * existing or not, gets the same refusal, so the call tells nothing about which ids exist.
 */
async function checkAttendees(ctx: RequestContext, attendeeIds: number[]): Promise<void> {
  const { requester } = ctx;
  const requesterId = requester.kind === 'user' ? requester.userId : 0;
  const known = await knownUserIds(ctx.db.write, ctx.db.dialect, requesterId, attendeeIds);
  const index = attendeeIds.findIndex(
    (userId) => !mayNameUser(requester, { userId, knownToRequester: known.has(userId) }),
  );
  if (index >= 0) {
    const id = attendeeIds[index] as number;
    throw Errors.badParameter(
      ctx.operation,
      `session.attendeeIds[${index}]`,
      String(id),
      `user ${id} is unknown or not known to the requester`,
    );
  }
}

/** Writes a new session with its quizzes and attendees, in one transaction (sessions.store.ts). */
function writeSession(
  ctx: RequestContext,
  ownerId: number,
  input: SessionInput,
  join: { code: string; expiresAt: Date },
): Promise<Session> {
  const fields = {
    ownerId,
    title: input.title,
    startDate: input.startDate,
    clientRef: input.clientRef,
    joinCode: join.code,
    joinCodeExpiresAt: join.expiresAt,
  };
  return ctx.db.exclusive(() => insertSession(ctx.db, fields, input.quizIds, input.attendeeIds));
}

/**
 * addSession (contract.md §9): the token's user makes a session playing quizzes they may see,
 * with attendees, and is shown its join code. The whole payload is checked before anything is
 * written; with a clientRef already used by the owner, the existing session is returned and
 * nothing is written, even when two such calls race (the unique key decides, the loser reads the
 * winner's session), but for a new join code when its own had expired.
 */
export async function addSession(ctx: RequestContext, raw: unknown): Promise<SessionView> {
  const { requester } = ctx;
  if (requester.kind !== 'user') {
    throw Errors.unauthenticated(ctx.operation, 'an access token is required to add a session');
  }
  if (raw === undefined || raw === null || raw === '')
    throw Errors.missingParameter(ctx.operation, 'session');
  if (!isFields(raw))
    throw Errors.badParameter(ctx.operation, 'session', raw, 'must be a JSON object');
  // Whole seconds: the wire format has none smaller, and every dialect stores them alike.
  const now = wholeSeconds(new Date());
  const input = checkPayload(ctx, { session: raw }, () => readInput(raw, now));
  const ownerId = requester.userId;
  const existingView = async (existing: Session) =>
    sessionView(ctx, await withCurrentJoinCode(ctx, existing));
  if (input.clientRef !== null) {
    const existing = await findByClientRef(ctx, ownerId, input.clientRef);
    if (existing) return existingView(existing);
  }
  await checkQuizzes(ctx, input.quizIds);
  await checkAttendees(ctx, input.attendeeIds);
  const expiresAt = joinCodeExpiry(ctx, now);
  const made = await withNewJoinCode(async (code) => {
    try {
      const session = await writeSession(ctx, ownerId, input, { code, expiresAt });
      return { session, existing: false };
    } catch (error) {
      // The clientRef's race: the loser reads the winner's session.
      if (input.clientRef !== null && isUniqueViolation(error)) {
        const existing = await findByClientRef(ctx, ownerId, input.clientRef);
        if (existing) return { session: existing, existing: true };
      }
      // Else, near never, a code already in use: withNewJoinCode draws another.
      throw error;
    }
  });
  return made.existing ? existingView(made.session) : sessionView(ctx, made.session);
}

import type { QuizVisibility } from '../quizzes/quiz.rules';

/**
 * The one authorization policy (spec §4.8, contract.md §3 to §7). Pure functions over facts the
 * services gather; both transports reach them only through the services, so nothing else
 * decides who may see or do what.
 */

/** Who is asking, as the policy sees it. */
export type PolicyRequester =
  | { kind: 'anonymous'; apiKeyId: number }
  | { kind: 'user'; apiKeyId: number; userId: number }
  | { kind: 'operator' };

/**
 * allowed; `needsToken` when an authenticated user might be allowed (401 for an anonymous
 * requester); `denied` when the authenticated requester lacks the right (403).
 */
export type Decision = 'allowed' | 'needsToken' | 'denied';

export type Visibility = QuizVisibility;

export interface QuizFacts {
  visibility: Visibility;
  authorId: number;
  /** The requester attended a session in which the quiz was played. */
  playedInAttendedSession: boolean;
}

/** Public quizzes for all; private ones for their author and attendees of sessions that played them; drafts for their author. */
export function quizReadDecision(requester: PolicyRequester, quiz: QuizFacts): Decision {
  if (quiz.visibility === 'public' || requester.kind === 'operator') return 'allowed';
  if (requester.kind === 'anonymous') return 'needsToken';
  if (requester.userId === quiz.authorId) return 'allowed';
  if (quiz.visibility === 'private' && quiz.playedInAttendedSession) return 'allowed';
  return 'denied';
}

/** Which quizzes a requester may list, as a filter the services turn into SQL. */
export type QuizScope =
  { kind: 'all' } | { kind: 'public' } | { kind: 'visibleTo'; userId: number };

export function quizScope(requester: PolicyRequester): QuizScope {
  if (requester.kind === 'operator') return { kind: 'all' };
  if (requester.kind === 'anonymous') return { kind: 'public' };
  return { kind: 'visibleTo', userId: requester.userId };
}

/** Quiz fields only an authenticated requester sees (imported and favorite are about them). */
export function seesPrivateQuizFields(requester: PolicyRequester): boolean {
  return requester.kind !== 'anonymous';
}

/** goodAnswer is shown only to the quiz's author. */
export function seesGoodAnswers(
  requester: PolicyRequester,
  quiz: Pick<QuizFacts, 'authorId'>,
): boolean {
  return (
    requester.kind === 'operator' ||
    (requester.kind === 'user' && requester.userId === quiz.authorId)
  );
}

export interface UserFacts {
  userId: number;
  publicProfile: boolean;
  /** Author of at least one public quiz: such a profile is public too. */
  authorOfPublicQuiz: boolean;
  /** Attended a session the requester owns, or is a member of a group the requester owns. */
  knownToRequester: boolean;
}

/**
 * Whom a requester may name (contract.md §4, §9): as an attendee of their session, or as the
 * pupil of answers they write as its owner. Themself and the users known to them; no one else,
 * so that naming never makes a stranger known. An operator names anyone.
 */
export function mayNameUser(
  requester: PolicyRequester,
  user: Pick<UserFacts, 'userId' | 'knownToRequester'>,
): boolean {
  if (requester.kind === 'operator') return true;
  if (requester.kind === 'anonymous') return false;
  return requester.userId === user.userId || user.knownToRequester;
}

/** Whether firstName, lastName and pictureURL are shown; `id` always is. */
export function seesUserDetails(requester: PolicyRequester, user: UserFacts): boolean {
  if (requester.kind === 'operator') return true;
  if (user.publicProfile || user.authorOfPublicQuiz) return true;
  if (requester.kind === 'anonymous') return false;
  return requester.userId === user.userId || user.knownToRequester;
}

export interface DataSetFacts {
  ownerUserId: number | null;
  ownerApiKeyId: number | null;
}

/** The owner a set made by this requester records. */
export function dataSetOwner(requester: PolicyRequester): DataSetFacts {
  if (requester.kind === 'user') return { ownerUserId: requester.userId, ownerApiKeyId: null };
  if (requester.kind === 'anonymous')
    return { ownerUserId: null, ownerApiKeyId: requester.apiKeyId };
  return { ownerUserId: null, ownerApiKeyId: null };
}

/** A set belongs to its maker: the authenticated user, or the API key of an anonymous request. */
export function dataSetReadDecision(requester: PolicyRequester, set: DataSetFacts): Decision {
  if (requester.kind === 'operator') return 'allowed';
  if (requester.kind === 'user') return set.ownerUserId === requester.userId ? 'allowed' : 'denied';
  if (set.ownerUserId === null && set.ownerApiKeyId === requester.apiKeyId) return 'allowed';
  // An anonymous requester reading a user's set might be that user without their token.
  return set.ownerUserId !== null ? 'needsToken' : 'denied';
}

/**
 * Operations that handle private user data need a token (spec §5.2); which operations those
 * are is declared by the API's operation catalog (src/api/operations), which applies this.
 */
export function tokenDecision(requester: PolicyRequester): Decision {
  return requester.kind === 'anonymous' ? 'needsToken' : 'allowed';
}

/** Detailed results (per attempt) need a token; aggregated results are open. */
export function resultsDecision(requester: PolicyRequester, detailed: boolean): Decision {
  return detailed && requester.kind === 'anonymous' ? 'needsToken' : 'allowed';
}

/**
 * Reading a session's attendance (getUserSet with sessionId and raisedHand, getSessionResults;
 * contract.md §6, §14.1): its owner and its attendees, or anyone under LEGACY_OPEN_READS.
 */
export function attendanceReadDecision(
  requester: PolicyRequester,
  session: SessionFacts,
  legacyOpenReads: boolean,
): Decision {
  return legacyOpenReads ? 'allowed' : sessionReadDecision(requester, session);
}

/** Live results of a session (contract.md §10): its owner only. */
export function liveResultsDecision(
  requester: PolicyRequester,
  session: { ownerId: number },
): Decision {
  if (requester.kind === 'operator') return 'allowed';
  if (requester.kind === 'anonymous') return 'needsToken';
  return requester.userId === session.ownerId ? 'allowed' : 'denied';
}

/**
 * Which attempts results may show or count: every one (operator, or aggregates under
 * LEGACY_OPEN_READS), none (an anonymous requester's aggregates), or those in sessions the
 * requester owns and the requester's own (the *requester scope*, contract.md §7). The services
 * turn this into SQL (access-policy.sql.ts).
 */
export type AttemptScope =
  { kind: 'all' } | { kind: 'none' } | { kind: 'ownedSessionsOrSelf'; userId: number };

/** An attempt as the attempt scope sees it: its pupil and the owner of its session. */
export interface AttemptFacts {
  userId: number;
  sessionOwnerId: number;
}

/** Whether an attempt is in the scope: the scope's definition (its SQL form must agree). */
export function inAttemptScope(scope: AttemptScope, attempt: AttemptFacts): boolean {
  if (scope.kind === 'all') return true;
  if (scope.kind === 'none') return false;
  return attempt.sessionOwnerId === scope.userId || attempt.userId === scope.userId;
}

export function detailedAttemptScope(requester: PolicyRequester): AttemptScope | undefined {
  if (requester.kind === 'operator') return { kind: 'all' };
  if (requester.kind === 'anonymous') return undefined;
  return { kind: 'ownedSessionsOrSelf', userId: requester.userId };
}

/**
 * The *requester scope* (contract.md §6, §7): the attempts aggregated results count, and the
 * attendances the player and quizId filters read. Anonymous: none; every one when the operator
 * restored the legacy open reads.
 */
export function aggregateAttemptScope(
  requester: PolicyRequester,
  legacyOpenReads: boolean,
): AttemptScope {
  if (legacyOpenReads) return { kind: 'all' };
  return detailedAttemptScope(requester) ?? { kind: 'none' };
}

export interface QuizCreator {
  userId: number;
  canCreatePrivateQuizzes: boolean;
}

/** Adding a quiz needs a token; visibility private needs the account's private-quiz right. */
export function quizCreationDecision(
  requester: PolicyRequester,
  creator: QuizCreator | undefined,
  visibility: Visibility,
): Decision {
  if (requester.kind === 'anonymous' || !creator) return 'needsToken';
  if (visibility === 'private' && !creator.canCreatePrivateQuizzes) return 'denied';
  return 'allowed';
}

/** API keys are managed by their owner (or an operator). */
export function apiKeyManageDecision(requester: PolicyRequester, ownerId: number | null): Decision {
  if (requester.kind === 'operator') return 'allowed';
  if (requester.kind === 'anonymous') return 'needsToken';
  return ownerId === requester.userId ? 'allowed' : 'denied';
}

/**
 * Which groups a requester may list, as a filter the services turn into SQL: those they own or
 * belong to (undefined: a token is needed first).
 */
export type GroupScope = { kind: 'all' } | { kind: 'ownedOrMember'; userId: number };

export interface GroupFacts {
  ownerId: number;
  memberIds: readonly number[];
}

/** Whether a group is in the scope: its definition (its SQL form must agree). */
export function inGroupScope(scope: GroupScope, group: GroupFacts): boolean {
  return (
    scope.kind === 'all' || group.ownerId === scope.userId || group.memberIds.includes(scope.userId)
  );
}

export function groupScope(requester: PolicyRequester): GroupScope | undefined {
  if (requester.kind === 'operator') return { kind: 'all' };
  if (requester.kind === 'anonymous') return undefined;
  return { kind: 'ownedOrMember', userId: requester.userId };
}

/** A session's title and date are shown to its owner and its attendees; its id to anyone. */
export function seesSessionDetails(
  requester: PolicyRequester,
  session: { ownerId: number; requesterAttended: boolean },
): boolean {
  if (requester.kind === 'operator') return true;
  if (requester.kind === 'anonymous') return false;
  return session.ownerId === requester.userId || session.requesterAttended;
}

/** What the policy reads of a session to decide who may read it or write to it. */
export interface SessionFacts {
  ownerId: number;
  requesterAttended: boolean;
}

/** getSession: its owner and its attendees (contract.md §9). */
export function sessionReadDecision(requester: PolicyRequester, session: SessionFacts): Decision {
  if (requester.kind === 'operator') return 'allowed';
  if (requester.kind === 'anonymous') return 'needsToken';
  return seesSessionDetails(requester, session) ? 'allowed' : 'denied';
}

/**
 * addAnswers, for one answering user: the session's owner writes for anyone (who then attends),
 * a user writes for themself in a session they attend; nobody else writes to a session.
 */
export function answerWriteDecision(
  requester: PolicyRequester,
  session: SessionFacts,
  answeringUserId: number | null,
): Decision {
  if (requester.kind === 'operator') return 'allowed';
  if (requester.kind === 'anonymous') return 'needsToken';
  if (requester.userId === session.ownerId) return 'allowed';
  if (!session.requesterAttended) return 'denied';
  return answeringUserId === null || answeringUserId === requester.userId ? 'allowed' : 'denied';
}

/**
 * Which quizzes a session may play (addSession): public ones and the requester's own. Seeing a
 * private quiz by having attended a session that played it does not let one play it to others,
 * who would then see it in turn.
 */
export function sessionQuizDecision(
  requester: PolicyRequester,
  quiz: Pick<QuizFacts, 'visibility' | 'authorId'>,
): Decision {
  if (quiz.visibility === 'public' || requester.kind === 'operator') return 'allowed';
  if (requester.kind === 'anonymous') return 'needsToken';
  return requester.userId === quiz.authorId ? 'allowed' : 'denied';
}

import type { RequestContext } from '../../context/request-context';
import {
  aggregateAttemptScope,
  attendanceReadDecision,
  groupScope,
} from '../../domain/policy/access.policy';
import { Errors } from '../../errors';
import { requireReadableDataSet } from '../sets/data-set.access';
import { createDataSet } from '../sets/data-set.store';
import type { DataSetOptions, DataSetPage } from '../sets/data-set.types';
import { isGiven, parseBooleanParam, parseIdParam, type RawParam } from '../sets/data-set.params';
import {
  userGroupSetSelectSql,
  userSetSelectSql,
  type UserSetFilterValues,
} from '../../db/sql/set-filters.sql';
import type { SqlFragment } from '../../db/sql/sql-fragment';

/** getUserSet filters (contract.md §6); the AND of those given. */
export interface UserSetFilters {
  userId?: RawParam;
  /** A set of userGroup items the requester may read: the members of those groups. */
  userGroupSetId?: RawParam;
  /** The attendees of a session. */
  sessionId?: RawParam;
  /** true|false|1|0; narrows the attendees of `sessionId`, so it needs it. */
  raisedHand?: RawParam;
  /** Users who attended a session that played the quiz. */
  quizId?: RawParam;
}

/**
 * Named by MissingParameterException when no filter is given (alternatives joined by `|`, as
 * for getQuizSet). raisedHand is not among them: alone it is a BadParameterException.
 */
export const USER_SET_FILTER_NAMES = 'userId|userGroupSetId|sessionId|quizId';

/** getUserSet: the users matching ALL the filters given, kept as a set; its first page. */
export async function getUserSet(
  ctx: RequestContext,
  filters: UserSetFilters,
  options: Pick<DataSetOptions, 'numberOfItemsPerPage'> = {},
): Promise<DataSetPage> {
  const select = await userSetSelect(ctx, filters);
  return createDataSet(ctx, 'user', select.sql, select.params, options);
}

/**
 * The users matching ALL the filters given, as a SELECT of `id`: what getUserSet stores, and what
 * live results read without storing it. Every filter is checked first.
 */
export async function userSetSelect(
  ctx: RequestContext,
  filters: UserSetFilters,
): Promise<SqlFragment> {
  const op = ctx.operation;
  const { userId, userGroupSetId, sessionId, raisedHand, quizId } = filters;
  if (isGiven(raisedHand) && !isGiven(sessionId)) {
    throw Errors.badParameter(op, 'raisedHand', raisedHand, 'is only allowed with sessionId');
  }
  const values: UserSetFilterValues = {};
  if (isGiven(userId)) values.userId = parseIdParam(op, 'userId', userId);
  if (isGiven(sessionId)) {
    const session = parseIdParam(op, 'sessionId', sessionId);
    const hand = isGiven(raisedHand) ? parseBooleanParam(op, 'raisedHand', raisedHand) : null;
    await requireAttendanceReadable(ctx, session);
    values.session = { sessionId: session, raisedHand: hand };
  }
  if (isGiven(quizId)) {
    // Who played a quiz is read within the requester scope (contract.md §6).
    values.quiz = {
      quizId: parseIdParam(op, 'quizId', quizId),
      seen: aggregateAttemptScope(ctx.requester, ctx.config.privacy.legacyOpenReads),
    };
  }
  // Checked last: the only filter that reads the database before the set is made.
  if (isGiven(userGroupSetId)) {
    const groupSetId = parseIdParam(op, 'userGroupSetId', userGroupSetId);
    const groupSet = await requireReadableDataSet(ctx, groupSetId, 'userGroupSetId');
    if (groupSet.itemType !== 'userGroup') {
      throw Errors.badParameter(
        op,
        'userGroupSetId',
        userGroupSetId,
        `is a set of ${groupSet.itemType} items, not of userGroup items`,
      );
    }
    values.userGroupSetId = groupSetId;
  }
  if (Object.keys(values).length === 0) throw Errors.missingParameter(op, USER_SET_FILTER_NAMES);
  return userSetSelectSql(values);
}

/**
 * A session's attendance is read by its owner and its attendees only (contract.md §6, §14.1):
 * anonymous 401, anyone else 403, whether the session exists or not, so the refusal tells
 * nothing about which sessions exist. Open to any key under LEGACY_OPEN_READS.
 */
export async function requireAttendanceReadable(
  ctx: RequestContext,
  sessionId: number,
): Promise<void> {
  const { legacyOpenReads } = ctx.config.privacy;
  if (legacyOpenReads || ctx.requester.kind === 'operator') return;
  if (ctx.requester.kind === 'anonymous') {
    throw Errors.unauthenticated(
      ctx.operation,
      "an access token is required to read a session's attendance",
    );
  }
  const [session, attended] = await Promise.all([
    ctx.loaders.sessionById.load(sessionId),
    ctx.loaders.attendedSession.load(sessionId),
  ]);
  const decision = session
    ? attendanceReadDecision(
        ctx.requester,
        { ownerId: session.ownerId, requesterAttended: attended },
        legacyOpenReads,
      )
    : 'denied';
  if (decision !== 'allowed') {
    throw Errors.forbidden(
      ctx.operation,
      'only the owner and the attendees of a session read its attendance',
    );
  }
}

/**
 * getUserGroupSet: the groups the requester owns or belongs to, optionally those whose name
 * starts with `search` (case-insensitive). Needs a token.
 */
export async function getUserGroupSet(
  ctx: RequestContext,
  filters: { search?: RawParam },
  options: Pick<DataSetOptions, 'numberOfItemsPerPage'> = {},
): Promise<DataSetPage> {
  const scope = groupScope(ctx.requester);
  if (!scope) throw Errors.unauthenticated(ctx.operation, 'an access token is required');
  const search = isGiven(filters.search) ? String(filters.search) : undefined;
  const select = userGroupSetSelectSql(ctx.db.dialect, scope, search);
  return createDataSet(ctx, 'userGroup', select.sql, select.params, options);
}

import type { RequestContext } from '../../context/request-context';
import { accessLogInsertFrom, type AccessLogHeader } from '../../db/sql/access-log.sql';
import type { SqlFragment } from '../../db/sql/sql-fragment';
import { wholeSeconds } from '../../db/entities/column-types';

/**
 * Recording reads of detailed or per-pupil data (contract.md §14.6). Services call these; the
 * statements are in db/sql/access-log.sql.ts.
 */

/** Who reads, what and when, for the request of `ctx`. */
export function accessLogHeader(
  ctx: Pick<RequestContext, 'db' | 'requester' | 'operation' | 'requestId'>,
  operation: string = ctx.operation,
): AccessLogHeader {
  const { requester } = ctx;
  return {
    accessedAt: ctx.db.dialect.date(wholeSeconds(new Date())),
    requesterUserId: requester.kind === 'user' ? requester.userId : null,
    requesterApiKeyId: requester.kind === 'operator' ? null : requester.apiKeyId || null,
    operation,
    requestId: ctx.requestId,
  };
}

/**
 * Writes one entry naming the pupils `subjects` selects (a SELECT of one column aliased
 * `subject_user_id`), as its own statement. Reads that write a set put the same INSERT in the
 * set's transaction instead (accessLogInsertFrom).
 */
export async function recordAccess(
  ctx: Pick<RequestContext, 'db' | 'requester' | 'operation' | 'requestId'>,
  subjects: SqlFragment,
  operation?: string,
): Promise<void> {
  const statement = accessLogInsertFrom(accessLogHeader(ctx, operation), subjects);
  await ctx.db.exclusive(() => ctx.db.write.query(statement.sql, statement.params));
}

/** The SELECT naming exactly the given users (one pupil read by id). */
export function subjectsById(userIds: readonly number[]): SqlFragment {
  if (userIds.length === 0) return { sql: 'SELECT NULL AS subject_user_id', params: [] };
  return {
    sql: userIds.map(() => 'SELECT ? AS subject_user_id').join(' UNION ALL '),
    params: [...userIds],
  };
}

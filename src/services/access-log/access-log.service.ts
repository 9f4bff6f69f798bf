import type { RequestContext } from '../../context/request-context';
import {
  accessLogInsertFrom,
  accessLogOf,
  erasuresOf,
  subjectsById,
  type AccessLogHeader,
} from '../../db/sql/access-log.sql';
import { toNumber } from '../../db/sql/dialect';
import type { SqlFragment, SqlParam } from '../../db/sql/sql-fragment';
import { wholeSeconds } from '../../db/entities/column-types';
import { hashSecret } from '../../security/secrets';

/**
 * Recording reads of detailed or per-pupil data (contract.md §14.6). Services call these; the
 * statements are in db/sql/access-log.sql.ts. A folder of its own that imports no other service:
 * the services that read pupils' data import it, and the privacy services (erasure, a person's
 * export) import those, so it may sit in neither without an import loop between folders.
 */

type AccessLogContext = Pick<RequestContext, 'db' | 'requester' | 'operation' | 'requestId'> &
  Partial<Pick<RequestContext, 'admission'>>;

/** Who reads, what and when, for the request of `ctx`. */
export function accessLogHeader(
  ctx: AccessLogContext,
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
 * set's transaction instead (accessLogOfSet).
 */
export async function recordAccess(
  ctx: AccessLogContext,
  subjects: SqlFragment,
  operation?: string,
): Promise<void> {
  const statement = accessLogInsertFrom(accessLogHeader(ctx, operation), subjects);
  // A request its charge refuses read nothing: it leaves no entry (admission.ts).
  await ctx.admission?.wait();
  await ctx.db.exclusive(() => ctx.db.write.query(statement.sql, statement.params));
}

/**
 * The entry of a read that writes a set, as the set writer's `accessLog` option: given the new
 * set's id (a number, or the session variable that holds it in a MySQL batch), the INSERT that
 * names the pupils `subjects` selects, run in the set's own transaction.
 */
export function accessLogOfSet(
  ctx: AccessLogContext,
  subjects: (dataSetId: SqlParam) => SqlFragment,
): (dataSetId: SqlParam) => SqlFragment {
  const header = accessLogHeader(ctx);
  return (dataSetId) => accessLogInsertFrom(header, subjects(dataSetId));
}

/** The SELECT naming exactly the given users (one pupil read by id); its text is in src/db. */
export { subjectsById };

/** An entry about a person, as operators read it. */
export interface AccessLogRecord {
  accessedAt: Date;
  operation: string;
  requesterUserId: number | null;
  requesterApiKeyId: number | null;
  requestId: string;
}

/** The record of an erasure (contract.md §14.4), found by the hash of the erased id. */
export interface ErasureRecord {
  erasedAt: Date;
  erasedBy: string;
}

/**
 * The hash by which an erasure record names the erased person: SHA-256 of `user:<id>`, as the
 * erasure writes it (erasure.service.ts, which this folder may not import).
 */
export function erasureSubjectHash(userId: number): string {
  return hashSecret(`user:${userId}`);
}

/** A datetime as the drivers return it: a Date (mysql2), or UTC text (SQLite). */
function instant(value: unknown): Date {
  if (value instanceof Date) return value;
  const text = String(value);
  return new Date(/[zZ]|[+-]\d{2}:?\d{2}$/.test(text) ? text : `${text.replace(' ', 'T')}Z`);
}

const nullableId = (value: unknown): number | null =>
  value === null || value === undefined ? null : toNumber(value);

/**
 * What the access log holds about a person (`cli access-log --user <id>`, contract.md §14.6):
 * the entries naming them, oldest first, and the records of their erasure. After an erasure,
 * only that record is left.
 */
export async function readAccessLog(
  ctx: Pick<RequestContext, 'db'>,
  userId: number,
): Promise<{ entries: AccessLogRecord[]; erasures: ErasureRecord[] }> {
  const entries = accessLogOf(userId);
  const erasures = erasuresOf(erasureSubjectHash(userId));
  const [entryRows, erasureRows] = await Promise.all([
    ctx.db.write.query(entries.sql, entries.params) as Promise<Record<string, unknown>[]>,
    ctx.db.write.query(erasures.sql, erasures.params) as Promise<Record<string, unknown>[]>,
  ]);
  return {
    entries: entryRows.map((row) => ({
      accessedAt: instant(row.accessed_at),
      operation: String(row.operation),
      requesterUserId: nullableId(row.requester_user_id),
      requesterApiKeyId: nullableId(row.requester_api_key_id),
      requestId: String(row.request_id),
    })),
    erasures: erasureRows.map((row) => ({
      erasedAt: instant(row.erased_at),
      erasedBy: String(row.erased_by),
    })),
  };
}

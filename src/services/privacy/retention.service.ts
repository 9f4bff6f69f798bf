import type { AppDeps } from '../../context/request-context';
import { toNumber } from '../../db/sql/dialect';
import {
  deleteAccessLogEntries,
  deleteAnswers,
  deleteAttendanceOfEmptiedSessions,
  emptiedSessionsWithAttendance,
  expiredAccessLogEntries,
  expiredAnswers,
} from '../../db/sql/retention.sql';
import { bumpSessionVersion } from '../../db/sql/session-changes.sql';
import type { SqlFragment } from '../../db/sql/sql-fragment';
import { wholeSeconds } from '../../db/entities/column-types';

const DAY_MS = 86_400_000;

export interface RetentionOptions {
  /** The instant the retention is counted back from (default: now). */
  now?: Date;
  /** Answers deleted per statement, at most: each statement is its own short transaction. */
  answersPerStatement?: number;
  /** Emptied sessions whose attendance one statement deletes, at most. */
  sessionsPerStatement?: number;
  /** Access-log rows deleted per statement, at most. */
  entriesPerStatement?: number;
}

/** What one purge deleted, and in how many DELETE statements. */
export interface RetentionPurge {
  answers: number;
  attendances: number;
  statements: number;
}

/**
 * The retention job (contract.md §14.5): deletes the answers of sessions started more than
 * ANSWER_RETENTION_DAYS days ago, in bounded batches by primary key, then the attendance of
 * those sessions once no answer is left. Does nothing when the setting is 0 (kept for ever).
 * Sessions that lost answers have their change marker bumped, so live subscribers recompute.
 */
export async function purgeExpiredAnswers(
  deps: Pick<AppDeps, 'db' | 'config' | 'metrics' | 'sessionChanges'>,
  options: RetentionOptions = {},
): Promise<RetentionPurge> {
  const purge: RetentionPurge = { answers: 0, attendances: 0, statements: 0 };
  const days = deps.config.privacy.answerRetentionDays;
  if (days === 0) return purge;
  const { dialect, write } = deps.db;
  const now = options.now ?? new Date();
  const cutoff = dialect.date(new Date(now.getTime() - days * DAY_MS));
  const answersPerStatement = Math.max(1, Math.floor(options.answersPerStatement ?? 1000));
  const sessionsPerStatement = Math.max(1, Math.floor(options.sessionsPerStatement ?? 100));

  const read = async (statement: SqlFragment) =>
    (await write.query(statement.sql, statement.params)) as Record<string, unknown>[];
  // Each DELETE autocommits on its own; on SQLite it waits for any transaction of a writer.
  const remove = (statement: SqlFragment) =>
    deps.db.exclusive(async () => {
      const runner = write.createQueryRunner();
      try {
        const result = await runner.query(statement.sql, statement.params, true);
        purge.statements += 1;
        return toNumber(result.affected ?? 0);
      } finally {
        await runner.release();
      }
    });

  const touched = new Set<number>();
  for (;;) {
    const rows = await read(expiredAnswers(dialect, cutoff, answersPerStatement));
    if (rows.length === 0) break;
    for (const row of rows) touched.add(toNumber(row.session_id));
    const deleted = await remove(
      deleteAnswers(
        dialect,
        rows.map((row) => toNumber(row.id)),
      ),
    );
    purge.answers += deleted;
    deps.metrics.countRetentionPurge('answers', deleted);
  }
  if (touched.size > 0) await bumpVersions(deps, [...touched]);

  for (;;) {
    const sessionIds = (
      await read(emptiedSessionsWithAttendance(cutoff, sessionsPerStatement))
    ).map((row) => toNumber(row.id));
    if (sessionIds.length === 0) break;
    const deleted = await remove(deleteAttendanceOfEmptiedSessions(dialect, sessionIds));
    purge.attendances += deleted;
    deps.metrics.countRetentionPurge('attendances', deleted);
    // Every session read here had an answer written since: the next run sees them again.
    if (deleted === 0) break;
  }
  return purge;
}

/** Bumps the markers of sessions whose answers were purged and tells this instance's watchers. */
async function bumpVersions(
  deps: Pick<AppDeps, 'db' | 'sessionChanges'>,
  sessionIds: readonly number[],
): Promise<void> {
  const { dialect, write } = deps.db;
  const stamp = wholeSeconds(new Date());
  for (const sessionId of sessionIds) {
    const marker = bumpSessionVersion(dialect, sessionId, stamp);
    await deps.db.exclusive(() => write.query(marker.sql, marker.params));
    deps.sessionChanges.changed(sessionId);
  }
}

/**
 * The access log's retention (contract.md §14.5): deletes the entries written more than
 * ACCESS_LOG_RETENTION_DAYS days ago, in bounded batches by primary key, each DELETE its own
 * short transaction. Does nothing when the setting is 0 (kept for ever). Returns the rows deleted.
 */
export async function purgeExpiredAccessLog(
  deps: Pick<AppDeps, 'db' | 'config' | 'metrics'>,
  options: Pick<RetentionOptions, 'now' | 'entriesPerStatement'> = {},
): Promise<number> {
  const days = deps.config.privacy.accessLogRetentionDays;
  if (days === 0) return 0;
  const { dialect, write } = deps.db;
  const now = options.now ?? new Date();
  const cutoff = dialect.date(wholeSeconds(new Date(now.getTime() - days * DAY_MS)));
  const limit = Math.max(1, Math.floor(options.entriesPerStatement ?? 1000));
  let purged = 0;
  for (;;) {
    const select = expiredAccessLogEntries(cutoff, limit);
    const rows = (await write.query(select.sql, select.params)) as Record<string, unknown>[];
    if (rows.length === 0) break;
    const remove = deleteAccessLogEntries(
      dialect,
      rows.map((row) => toNumber(row.id)),
    );
    const deleted = await deps.db.exclusive(async () => {
      const runner = write.createQueryRunner();
      try {
        return toNumber((await runner.query(remove.sql, remove.params, true)).affected ?? 0);
      } finally {
        await runner.release();
      }
    });
    purged += deleted;
    deps.metrics.countRetentionPurge('access_log', deleted);
    // Fewer than read: another instance purged them meanwhile; the next run sees what is left.
    if (deleted === 0) break;
  }
  return purged;
}

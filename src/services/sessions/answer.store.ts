import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestContext } from '../../context/request-context';
import { isRetryableConflict } from '../../db/sql-errors';
import type { SqlStatement } from '../../db/sql/statement-batches';
import { runUnitOfWork, type UnitOfWork } from '../../db/unit-of-work';
import {
  addAttendees,
  countSessionAnswers,
  mysqlUpsertCounts,
  sqliteChanges,
  upsertAnswers,
  type AnswerRow,
  type UpsertCounts,
} from '../../db/sql/answers.sql';
import { bumpSessionVersion, bumpSessionVersionIfChanged } from '../../db/sql/session-changes.sql';
import { answersOutboxEntryIfChanged, outboxEntry } from '../../db/sql/webhook-outbox.sql';

/**
 * How a checked batch of answers is stored: one transaction holding the new attendees, the
 * upsert of the answers and the session's change marker, written the way the dialect writes
 * fastest (db/unit-of-work.ts), as data sets are.
 */

/**
 * A batch checked and scored, ready to store; `attendees` are the users it makes attendees;
 * `ownerId`, the session's owner, whose endpoints hear of it (contract.md §16).
 */
export interface CheckedBatch {
  sessionId: number;
  ownerId: number;
  rows: readonly AnswerRow[];
  attendees: readonly number[];
  now: Date;
}

/** A transaction that lost a deadlock is rolled back whole; the batch is idempotent, so resent. */
const ATTEMPTS = 4;

/**
 * The batch's transaction as a unit of work (db/unit-of-work.ts). On MySQL/MariaDB, one upsert
 * per batch, the marker after it, bumped only when it changed a row. READ COMMITTED, as the
 * results statements use, takes no gap locks, so writers of different attempts never block each
 * other. On SQLite, inserts are told from updates by counting the session's rows.
 */
function answersWrite(
  ctx: RequestContext,
  { sessionId, ownerId, rows, attendees, now }: CheckedBatch,
): UnitOfWork<UpsertCounts> {
  const { dialect } = ctx.db;
  // answers.recorded: the outbox entry joins the transaction only when the batch changed a row.
  const event = { answers: rows.length, userIds: [...new Set(rows.map((row) => row.userId))] };
  return {
    batch: () => {
      const statements: SqlStatement[] =
        attendees.length > 0 ? [addAttendees(dialect, sessionId, attendees)] : [];
      const upsertAt = statements.length;
      statements.push(
        ...upsertAnswers(dialect, sessionId, rows),
        ...bumpSessionVersionIfChanged(sessionId, now),
        answersOutboxEntryIfChanged(sessionId, ownerId, event, Date.now()),
      );
      return {
        statements,
        outcome: (results) => mysqlUpsertCounts(results[upsertAt], rows.length),
      };
    },
    steps: async ({ manager }) => {
      if (attendees.length > 0) {
        const statement = addAttendees(dialect, sessionId, attendees);
        await manager.query(statement.sql, statement.params);
      }
      const before = await countSessionAnswers(manager, sessionId);
      let changed = 0;
      for (const statement of upsertAnswers(dialect, sessionId, rows)) {
        await manager.query(statement.sql, statement.params);
        changed += await sqliteChanges(manager);
      }
      const inserted = (await countSessionAnswers(manager, sessionId)) - before;
      // A batch that changed nothing (sent again) wakes no subscriber.
      if (changed > 0) {
        const marker = bumpSessionVersion(dialect, sessionId, now);
        await manager.query(marker.sql, marker.params);
        const outbox = outboxEntry(
          dialect,
          'answers.recorded',
          sessionId,
          ownerId,
          event,
          Date.now(),
        );
        await manager.query(outbox.sql, outbox.params);
      }
      return { inserted, updated: changed - inserted, unchanged: rows.length - changed };
    },
  };
}

/** Stores a checked batch; resolves once it is committed. */
export async function storeAnswers(
  ctx: RequestContext,
  batch: CheckedBatch,
): Promise<UpsertCounts> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await runUnitOfWork(ctx.db, answersWrite(ctx, batch), {
        isolation: 'READ COMMITTED',
        admission: ctx.admission,
      });
    } catch (error) {
      if (attempt >= ATTEMPTS || !isRetryableConflict(error)) throw error;
      ctx.logger.warn(
        { attempt, sessionId: batch.sessionId },
        'addAnswers: transaction conflict, sending again',
      );
      // A short, growing, jittered pause, so the writers that collided do not collide again.
      await sleep(5 * 2 ** attempt * (0.5 + Math.random()));
    }
  }
}

import type { AppDeps } from '../../context/request-context';
import { toNumber } from '../../db/sql/dialect';
import { isRetryableConflict } from '../../db/sql-errors';
import {
  deleteOutboxEntries,
  insertDeliveries,
  insertEvent,
  listeningEndpoints,
  outboxEntries,
} from '../../db/sql/webhook-delivery.sql';
import {
  ANSWERS_COALESCING_MS,
  answersRecordedData,
  isWebhookEventType,
  type OutboxData,
} from '../../domain/webhooks/webhook-events';
import { newWebhookMessageId } from './webhook-signing';
import { inTransaction, readRows, RollBack } from './webhook-statements';

/**
 * The dispatcher (contract.md §16): turns outbox entries into events, each with one pending
 * delivery per enabled endpoint of its audience listening for its type. The answers of one
 * session are coalesced: once the oldest of its entries is ANSWERS_COALESCING_MS old, all of
 * its entries read in the pass make one answers.recorded event. Each event is written in the
 * transaction that deletes its entries, so an entry becomes exactly one event even when
 * several instances dispatch at once: the one that deletes fewer entries than it read rolls back.
 */

/** Outbox entries read per pass, at most. */
export const OUTBOX_ENTRIES_PER_PASS = 500;

interface OutboxRow {
  id: number;
  type: string;
  subjectId: number;
  audienceId: number | null;
  data: unknown;
  createdMs: number;
}

/** Entries that make one event. */
interface Group {
  type: string;
  audienceId: number | null;
  rows: OutboxRow[];
}

export interface DispatchPass {
  /** Events written (with at least one delivery). */
  events: number;
  /** Deliveries written. */
  deliveries: number;
  /** Outbox entries consumed (dispatched, or dropped when no endpoint listened). */
  entries: number;
  /** Groups left for the next pass after a conflict with another instance. */
  conflicts: number;
  /** Groups that failed otherwise, left for the next pass. */
  failures: number;
}

function rowOf(raw: Record<string, unknown>): OutboxRow {
  let data: unknown;
  try {
    data = JSON.parse(String(raw.data));
  } catch {
    data = null;
  }
  return {
    id: toNumber(raw.id),
    type: String(raw.type),
    subjectId: toNumber(raw.subject_id),
    audienceId: raw.audience_id === null ? null : toNumber(raw.audience_id),
    data,
    createdMs: toNumber(raw.created_ms),
  };
}

/**
 * The most users one answers.recorded event names: its body stays far below what a text column
 * holds (64 KB on MySQL) whatever the ids; more make another event.
 */
export const USERS_PER_EVENT = 5_000;

/** Distinct user ids an answers entry names. */
const usersOf = (row: OutboxRow): readonly number[] =>
  (row.data as OutboxData['answers.recorded'] | null)?.userIds ?? [];

/**
 * The groups ready at `nowMs`: every entry alone, but a session's answers together, from its
 * oldest entry to those written within ANSWERS_COALESCING_MS of it (a backlog makes one event
 * per window, not one for all), up to USERS_PER_EVENT users. A group is ready once its oldest
 * entry is ANSWERS_COALESCING_MS old.
 */
export function readyGroups(rows: readonly OutboxRow[], nowMs: number): Group[] {
  const groups: Group[] = [];
  const open = new Map<string, { group: Group; users: Set<number> }>();
  for (const row of rows) {
    if (row.type !== 'answers.recorded') {
      groups.push({ type: row.type, audienceId: row.audienceId, rows: [row] });
      continue;
    }
    const key = `${row.subjectId}:${row.audienceId ?? ''}`;
    const current = open.get(key);
    const first = current?.group.rows[0];
    const users = usersOf(row);
    const fits =
      current !== undefined &&
      first !== undefined &&
      row.createdMs < first.createdMs + ANSWERS_COALESCING_MS &&
      new Set([...current.users, ...users]).size <= USERS_PER_EVENT;
    if (fits) {
      current.group.rows.push(row);
      for (const user of users) current.users.add(user);
    } else {
      const group: Group = { type: row.type, audienceId: row.audienceId, rows: [row] };
      open.set(key, { group, users: new Set(users) });
      groups.push(group);
    }
  }
  // Rows come oldest first (by id), so a group's first row is its oldest.
  return groups.filter(
    (group) =>
      group.type !== 'answers.recorded' ||
      nowMs - (group.rows[0] as OutboxRow).createdMs >= ANSWERS_COALESCING_MS,
  );
}

/** The `data` of the event a group makes. */
function eventData(group: Group): unknown {
  const first = group.rows[0] as OutboxRow;
  if (group.type === 'answers.recorded') {
    return answersRecordedData(
      first.subjectId,
      group.rows.map((row) => row.data as OutboxData['answers.recorded']),
    );
  }
  return first.data;
}

/** Writes one group's event and deliveries, deleting its entries, in one transaction. */
async function dispatchGroup(
  deps: Pick<AppDeps, 'db'>,
  group: Group,
  nowMs: number,
): Promise<{ deliveries: number }> {
  const { dialect } = deps.db;
  const ids = group.rows.map((row) => row.id);
  return inTransaction(deps.db, async (run) => {
    const deleted = await run(deleteOutboxEntries(dialect, ids));
    if (deleted.affected !== ids.length) throw new RollBack('dispatched by another instance');
    // An unknown type or an entry without audience reaches nobody: it is only consumed.
    if (!isWebhookEventType(group.type) || group.audienceId === null) return { deliveries: 0 };
    const endpoints = (await run(listeningEndpoints(group.audienceId, group.type))).rows.map(
      (row) => toNumber(row.id),
    );
    if (endpoints.length === 0) return { deliveries: 0 };
    // The event is as old as the first change it announces: the 24 h of retries count from it.
    const createdMs = (group.rows[0] as OutboxRow).createdMs;
    const body = JSON.stringify({
      type: group.type,
      timestamp: new Date(createdMs).toISOString(),
      data: eventData(group),
    });
    const event = await run(insertEvent(newWebhookMessageId(), group.type, body, createdMs));
    const eventId = dialect.insertId(event.raw);
    await run(insertDeliveries(dialect, eventId, endpoints, nowMs));
    return { deliveries: endpoints.length };
  });
}

/** One pass of the dispatcher over the oldest outbox entries. */
export async function dispatchOutbox(
  deps: Pick<AppDeps, 'db' | 'logger'>,
  options: { nowMs?: number; limit?: number } = {},
): Promise<DispatchPass> {
  const pass: DispatchPass = { events: 0, deliveries: 0, entries: 0, conflicts: 0, failures: 0 };
  const rows = (
    await readRows(deps.db, outboxEntries(options.limit ?? OUTBOX_ENTRIES_PER_PASS))
  ).map(rowOf);
  if (rows.length === 0) return pass;
  const nowMs = options.nowMs ?? Date.now();
  for (const group of readyGroups(rows, nowMs)) {
    try {
      const { deliveries } = await dispatchGroup(deps, group, Date.now());
      pass.entries += group.rows.length;
      pass.deliveries += deliveries;
      if (deliveries > 0) pass.events += 1;
    } catch (error) {
      // Another instance took these entries, or a deadlock / Galera certification conflict:
      // rolled back, and whatever is left is dispatched on a next pass.
      if (error instanceof RollBack || isRetryableConflict(error)) {
        pass.conflicts += 1;
        deps.logger.debug(
          { entries: group.rows.length, type: group.type },
          'webhook dispatch conflict',
        );
        continue;
      }
      // Anything else is this group's alone: the others are dispatched all the same, and it is
      // tried again on the next pass.
      pass.failures += 1;
      deps.logger.error(
        { err: error, entries: group.rows.length, type: group.type },
        'webhook dispatch failed',
      );
    }
  }
  return pass;
}

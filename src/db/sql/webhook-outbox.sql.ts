import type { OutboxData, WebhookEventType } from '../../domain/webhooks/webhook-events';
import type { Dialect } from './dialect';
import type { SqlFragment } from './sql-fragment';

/**
 * Outbox entries (contract.md §16), written in the transaction of the change they announce, so
 * that an event is sent for every committed change and for none that rolled back. An entry is
 * written only while its audience has an endpoint listening for its type (read in the same
 * statement): a service without webhooks writes nothing more than before.
 */

const COLUMNS = 'INSERT INTO webhook_outbox (type, subject_id, audience_id, data, created_ms)';

/** The audience `?` has an enabled endpoint for the event type (names never contain another). */
const LISTENING = (audience: string): string =>
  `EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.owner_id = ${audience}
     AND e.disabled_at IS NULL AND e.events LIKE ?)`;

const pattern = (type: WebhookEventType): string => `%${type}%`;

/** MySQL reads a SELECT with a WHERE but no table only from DUAL; SQLite has no DUAL. */
const noTable = (dialect: Dialect): string => (dialect.name === 'mysql' ? 'FROM DUAL' : '');

/** An entry of `type` about `subjectId`, for the endpoints of `audienceId`. */
export function outboxEntry<T extends Exclude<WebhookEventType, 'user.erased'>>(
  dialect: Dialect,
  type: T,
  subjectId: number,
  audienceId: number,
  data: OutboxData[T],
  nowMs: number,
): SqlFragment {
  return {
    sql: `${COLUMNS} SELECT ?, ?, ?, ?, ? ${noTable(dialect)} WHERE ${LISTENING('?')}`,
    params: [type, subjectId, audienceId, JSON.stringify(data), nowMs, audienceId, pattern(type)],
  };
}

/**
 * MySQL/MariaDB, in the batch of addAnswers right after the upsert and the session's marker
 * (which set @answers_changed from the upsert's ROW_COUNT()): the entry is written only when the
 * batch changed an answer.
 */
export function answersOutboxEntryIfChanged(
  sessionId: number,
  ownerId: number,
  data: OutboxData['answers.recorded'],
  nowMs: number,
): SqlFragment {
  return {
    sql: `${COLUMNS} SELECT 'answers.recorded', ?, ?, ?, ? FROM DUAL
          WHERE @answers_changed > 0 AND ${LISTENING('?')}`,
    params: [sessionId, ownerId, JSON.stringify(data), nowMs, ownerId, pattern('answers.recorded')],
  };
}

/**
 * user.erased, before the person's rows are deleted: one entry for each owner of a session they
 * attended or answered in, or of a group they were a member of, who listens for it.
 */
export function userErasedOutboxEntries(userId: number, nowMs: number): SqlFragment {
  const data: OutboxData['user.erased'] = { userId };
  return {
    sql: `${COLUMNS}
          SELECT 'user.erased', ?, known.owner_id, ?, ? FROM (
            SELECT s.owner_id FROM session_attendees a JOIN sessions s ON s.id = a.session_id
             WHERE a.user_id = ?
            UNION SELECT s.owner_id FROM answers x JOIN sessions s ON s.id = x.session_id
             WHERE x.user_id = ?
            UNION SELECT g.owner_id FROM user_group_members m JOIN user_groups g ON g.id = m.group_id
             WHERE m.user_id = ?
          ) known
          WHERE known.owner_id <> ? AND ${LISTENING('known.owner_id')}`,
    params: [
      userId,
      JSON.stringify(data),
      nowMs,
      userId,
      userId,
      userId,
      userId,
      pattern('user.erased'),
    ],
  };
}

/**
 * Erasure, before user.erased is written: the answers entries not yet dispatched, and the events
 * still owed to an endpoint, that may name the person (a LIKE on the id's digits: the caller
 * reads each and keeps those that do), so that no message naming them follows their erasure.
 */
export function pendingMessagesNaming(userId: number): SqlFragment {
  const digits = `%${userId}%`;
  return {
    sql: `SELECT 'outbox' AS source, id, data AS json FROM webhook_outbox
           WHERE type = 'answers.recorded' AND data LIKE ?
          UNION ALL
          SELECT 'event' AS source, v.id, v.body AS json FROM webhook_events v
           WHERE v.type = 'answers.recorded' AND v.body LIKE ?
             AND EXISTS (SELECT 1 FROM webhook_deliveries d
                          WHERE d.event_id = v.id AND d.status = 'pending')`,
    params: [digits, digits],
  };
}

/** Writes back an outbox entry's data or an event's body without the erased person. */
export function rewrittenMessage(
  source: 'outbox' | 'event',
  id: number,
  json: string,
): SqlFragment {
  return source === 'outbox'
    ? { sql: 'UPDATE webhook_outbox SET data = ? WHERE id = ?', params: [json, id] }
    : { sql: 'UPDATE webhook_events SET body = ? WHERE id = ?', params: [json, id] };
}

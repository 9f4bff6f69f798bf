import type { Database } from './database';
import { Session, SessionQuiz } from './entities';
import { addAttendees } from './sql/answers.sql';
import { bumpSessionVersion } from './sql/session-changes.sql';
import { outboxEntry } from './sql/webhook-outbox.sql';

/** The columns of a new session; its id comes from the database. */
export type NewSession = Pick<
  Session,
  'ownerId' | 'title' | 'startDate' | 'clientRef' | 'joinCode' | 'joinCodeExpiresAt'
>;

/** The session of an id as stored now (through the write handle), or null. */
export function sessionById(db: Database, id: number): Promise<Session | null> {
  return db.write.getRepository(Session).findOneBy({ id });
}

/**
 * The sessions of an owner whose clientRef the database finds equal to `ref`: MySQL pads, so
 * this may include refs that differ by trailing spaces.
 */
export function sessionsByClientRef(
  db: Database,
  ownerId: number,
  ref: string,
): Promise<Session[]> {
  return db.write.getRepository(Session).findBy({ ownerId, clientRef: ref });
}

/**
 * Writes a new session with its quizzes and attendees, in one transaction. The attendees go in
 * one statement of our own: TypeORM's insert reads back the rows it wrote (for their defaults)
 * with a WHERE of one OR branch per row, deeper than SQLite's expression tree allows from 998
 * attendees on ("Expression tree is too large"). The `session.created` event joins the same
 * transaction (contract.md §16).
 */
export function insertSession(
  db: Database,
  fields: NewSession,
  quizIds: readonly number[],
  attendeeIds: readonly number[],
): Promise<Session> {
  return db.write.transaction(async (manager) => {
    const saved = await manager.getRepository(Session).save({ ...fields });
    await manager
      .getRepository(SessionQuiz)
      .insert(quizIds.map((quizId) => ({ sessionId: saved.id, quizId })));
    if (attendeeIds.length > 0) {
      const attendees = addAttendees(db.dialect, saved.id, attendeeIds);
      await manager.query(attendees.sql, attendees.params);
    }
    const data = { sessionId: saved.id, quizIds: [...quizIds] };
    const event = outboxEntry(
      db.dialect,
      'session.created',
      saved.id,
      fields.ownerId,
      data,
      Date.now(),
    );
    await manager.query(event.sql, event.params);
    return saved;
  });
}

/**
 * Makes the user an attendee (if not already one) and bumps the session's change marker at
 * `now`, in one transaction.
 */
export function insertAttendee(
  db: Database,
  sessionId: number,
  userId: number,
  now: Date,
): Promise<void> {
  const insert = addAttendees(db.dialect, sessionId, [userId]);
  const marker = bumpSessionVersion(db.dialect, sessionId, now);
  return db.write.transaction(async (manager) => {
    await manager.query(insert.sql, insert.params);
    await manager.query(marker.sql, marker.params);
  });
}

import { absent, array, characters, fail, missing, text } from '../validation/checks';

/**
 * The rules of a classroom session (contract.md §9): the import and addSession apply them, so a
 * session reads the same whichever way it was written. Pure: the callers look up what a rule
 * needs (who attends, which quizzes are played) and name things in errors their own way
 * (`user "s1"` in a data file, `user 42` on the wire).
 */

export const SESSION_LIMITS = {
  titleLength: { min: 1, max: 250 },
  /** addSession only: a data file may hold sessions of any size, as they happened. */
  quizzes: { min: 1, max: 100 },
  clientRefLength: { min: 1, max: 64 },
  /** addSession only: attendees named at creation; more join by answering. */
  attendees: { max: 1000 },
} as const;

export function sessionTitle(value: unknown, path: string): string {
  const { min, max } = SESSION_LIMITS.titleLength;
  return text(value, path, min, max);
}

/** The quizzes an addSession call names: 1 to 100 of them, before any is looked up. */
export function sessionQuizList(value: unknown, path: string): unknown[] {
  if (absent(value)) missing(path);
  const items = array(value, path);
  const { min, max } = SESSION_LIMITS.quizzes;
  if (items.length < min || items.length > max) {
    fail(path, `expected ${min} to ${max} quizzes, got ${items.length}`);
  }
  return items;
}

/**
 * The key that makes addSession idempotent for its owner; null when absent. Compared as given,
 * not trimmed: it is the client's identifier, not a text for people.
 */
export function clientRef(value: unknown, path: string): string | null {
  if (absent(value)) return null;
  const { min, max } = SESSION_LIMITS.clientRefLength;
  if (typeof value !== 'string' || characters(value) < min || characters(value) > max) {
    fail(path, `expected a text of ${min} to ${max} characters`);
  }
  return value;
}

/** The attendees an addSession call names, before any is looked up. */
export function attendeeList(value: unknown, path: string): unknown[] {
  if (absent(value)) return [];
  const items = array(value, path);
  const { max } = SESSION_LIMITS.attendees;
  if (items.length > max) fail(path, `expected at most ${max} attendees, got ${items.length}`);
  return items;
}

/** A user attends a session once. */
export function checkNewAttendee(alreadyAttends: boolean, path: string): void {
  if (alreadyAttends) fail(path, 'attends the session twice');
}

/** An answer is given by an attendee of its session. */
export function checkAttends(
  attends: boolean,
  path: string,
  userName: string,
  sessionName: string,
): void {
  if (!attends) fail(path, `${userName} did not attend ${sessionName}`);
}

/** An answer is to a quiz its session plays. */
export function checkPlays(
  plays: boolean,
  path: string,
  quizName: string,
  sessionName: string,
): void {
  if (!plays) fail(path, `${quizName} was not played in ${sessionName}`);
}

/**
 * The events of webhooks (contract.md §16): their names, what their `data` holds, and whose
 * endpoints receive them. Every body is `{type, timestamp, data}`; `data` holds ids and counts
 * only, never a name, an email or an answer's value.
 */

export const WEBHOOK_EVENT_TYPES = [
  'session.created',
  'answers.recorded',
  'quiz.created',
  'user.erased',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What each event says, for README, OpenAPI and SDL descriptions. */
export const WEBHOOK_EVENT_DESCRIPTIONS: Readonly<Record<WebhookEventType, string>> = {
  'session.created':
    'a session was added; data {sessionId, quizIds}; sent to the endpoints of its owner',
  'answers.recorded':
    "answers of a session were stored or changed; data {sessionId, batches, answers, userIds}: the addAnswers batches that changed something within 1 s of the first, the answers they carried and the users they named; sent to the endpoints of the session's owner",
  'quiz.created': 'a quiz was added; data {quizId}; sent to the endpoints of its author',
  'user.erased':
    'a person was erased; data {userId}; sent to the endpoints of the owners of the sessions and groups the person was in, so that their copies can be erased too',
};

/** Answers batches of one session within this window after the first are one event. */
export const ANSWERS_COALESCING_MS = 1000;

/** How many endpoints a user may have. */
export const WEBHOOKS_PER_USER = 10;

export function isWebhookEventType(value: unknown): value is WebhookEventType {
  return typeof value === 'string' && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** The data of one outbox entry, before coalescing. */
export interface OutboxData {
  'session.created': { sessionId: number; quizIds: number[] };
  'answers.recorded': { answers: number; userIds: number[] };
  'quiz.created': { quizId: number };
  'user.erased': { userId: number };
}

/** Coalesces the outbox entries of one session's answers into the data of one event. */
export function answersRecordedData(
  sessionId: number,
  entries: readonly OutboxData['answers.recorded'][],
): { sessionId: number; batches: number; answers: number; userIds: number[] } {
  const userIds = new Set<number>();
  let answers = 0;
  for (const entry of entries) {
    answers += entry.answers;
    for (const userId of entry.userIds) userIds.add(userId);
  }
  return {
    sessionId,
    batches: entries.length,
    answers,
    userIds: [...userIds].sort((a, b) => a - b),
  };
}

/**
 * An answers entry's data, or an answers.recorded event's body, without `userId` in its userIds
 * (erasure); null when it did not name them.
 */
export function withoutUser(json: string, userId: number): string | null {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  // An event's body holds the entry's fields under `data`.
  const holder = (
    typeof record.data === 'object' && record.data !== null ? record.data : record
  ) as Record<string, unknown>;
  const { userIds } = holder;
  if (!Array.isArray(userIds) || !userIds.includes(userId)) return null;
  holder.userIds = userIds.filter((id) => id !== userId);
  return JSON.stringify(value);
}

import type { RequestContext } from '../../context/request-context';
import { wholeSeconds } from '../../db/entities/column-types';
import {
  knownUserIds,
  sessionAttendeeIds,
  readSessionQuestions,
  readSessionWriteFacts,
  type AnswerRow,
  type SessionQuestion,
  type SessionWriteFacts,
} from '../../db/sql/answers.sql';
import {
  answerBatch,
  answeredQuestion,
  answerTime,
  scoredAnswer,
} from '../../domain/answers/answer.rules';
import { answerWriteDecision, mayNameUser } from '../../domain/policy/access.policy';
import { scorableRow } from '../../domain/questions/question-row.codec';
import type { ScorableQuestion } from '../../domain/questions/question-types';
import { checkPlays } from '../../domain/sessions/session.rules';
import {
  fail,
  fields,
  identifier,
  missing,
  optionalDateTime,
} from '../../domain/validation/checks';
import { Errors } from '../../errors';
import { checkPayload } from '../input-errors';
import { storeAnswers } from './answer.store';
import { sessionNotFound } from './session.service';

/** What addAnswers reports (contract.md §9): every received answer is one of the three counts. */
export interface AddAnswersResult {
  sessionId: number;
  received: number;
  inserted: number;
  updated: number;
  unchanged: number;
}

/** What checking a batch looks up once, before the answers are checked one by one in order. */
interface BatchFacts {
  sessionId: number;
  /** What the access policy reads of the session. */
  policy: { ownerId: number; requesterAttended: boolean };
  /** By quiz the batch names and the session plays: its questions' ids and scoring forms. */
  questions: Map<number, { ids: number[]; scorable: ScorableQuestion[] }>;
  /** Those of the batch's users known to the requester. */
  knownUsers: Set<number>;
}

/** The valid identifiers a batch names under `key`, read loosely: the checks come later. */
function namedIds(items: unknown[], key: 'userId' | 'quizId'): number[] {
  const ids = new Set<number>();
  for (const item of items) {
    const value = (item as Record<string, unknown> | null)?.[key];
    const id = typeof value === 'number' || typeof value === 'string' ? Number(value) : NaN;
    if (Number.isInteger(id) && id >= 1 && id <= 2 ** 31 - 1) ids.add(id);
  }
  return [...ids];
}

/**
 * Everything a batch is checked against, read at once: the session (owner, quizzes, whether the
 * requester attends), the questions of the quizzes the batch names among the session's, and
 * which of the users it names already attend the session. The three reads depend on nothing
 * but the request, so they travel together instead of one after the other; the session decides
 * first whether the rest is used at all.
 */
async function readBatchFacts(
  ctx: RequestContext,
  sessionId: number,
  requesterId: number,
  named: { quizIds: number[]; userIds: number[] },
): Promise<{
  session: SessionWriteFacts | null;
  questions: SessionQuestion[];
  attending: Set<number>;
}> {
  const { db } = ctx;
  const [session, questions, attending] = await Promise.all([
    readSessionWriteFacts(db.write, sessionId, requesterId),
    readSessionQuestions(db.read, db.dialect, sessionId, named.quizIds),
    sessionAttendeeIds(db.read, db.dialect, sessionId, named.userIds),
  ]);
  return { session, questions, attending };
}

/**
 * The users of the batch the owner knows (contract.md §4): its session's attendees, read by
 * primary key with the batch's facts, and, only for the others (pupils named for the first time
 * in it), those the owner's other sessions and groups make known. A class's own batches never
 * pay the second read, whose cost grows with the owner's history.
 */
async function knownToOwner(
  ctx: RequestContext,
  ownerId: number,
  userIds: readonly number[],
  attending: Set<number>,
): Promise<Set<number>> {
  const others = userIds.filter((userId) => !attending.has(userId));
  if (others.length === 0) return attending;
  const known = await knownUserIds(ctx.db.read, ctx.db.dialect, ownerId, others);
  return new Set([...attending, ...known]);
}

/** The questions by quiz: every quiz the batch names and the session plays, even without questions. */
function questionsByQuiz(
  session: SessionWriteFacts,
  rows: readonly SessionQuestion[],
  named: readonly number[],
): BatchFacts['questions'] {
  const questions: BatchFacts['questions'] = new Map();
  for (const quizId of named) {
    if (session.quizIds.includes(quizId)) questions.set(quizId, { ids: [], scorable: [] });
  }
  // Rows come by quiz and position: each list is in the order of the quiz's questions.
  for (const row of rows) {
    const quiz = questions.get(row.quizId);
    if (!quiz) continue;
    quiz.ids.push(row.id);
    quiz.scorable.push(scorableRow(row));
  }
  return questions;
}

/** One answer of the batch checked and scored, or an error naming it (`answers[12].answer`). */
function checkAnswer(
  ctx: RequestContext,
  facts: BatchFacts,
  item: unknown,
  path: string,
  now: Date,
): AnswerRow {
  const record = fields(item, path);
  const userId = identifier(record.userId, `${path}.userId`);
  const decision = answerWriteDecision(ctx.requester, facts.policy, userId);
  if (decision !== 'allowed') {
    throw Errors.forbidden(
      ctx.operation,
      `${path}.userId: an attendee writes only their own answers (user ${userId})`,
    );
  }
  if (!mayNameUser(ctx.requester, { userId, knownToRequester: facts.knownUsers.has(userId) })) {
    fail(`${path}.userId`, `user ${userId} is unknown or not known to the requester`);
  }
  const quizId = identifier(record.quizId, `${path}.quizId`);
  const quiz = facts.questions.get(quizId);
  checkPlays(quiz !== undefined, `${path}.quizId`, `quiz ${quizId}`, `session ${facts.sessionId}`);
  if (record.questionIndex === undefined) missing(`${path}.questionIndex`);
  const { position, question } = answeredQuestion(
    quiz?.scorable ?? [],
    record.questionIndex,
    `${path}.questionIndex`,
    `quiz ${quizId}`,
  );
  if (record.answer === undefined) missing(`${path}.answer`);
  const { value, good } = scoredAnswer(question, record.answer, `${path}.answer`);
  const given = optionalDateTime(record.answeredAt, `${path}.answeredAt`);
  const answeredAt = answerTime(given, now, `${path}.answeredAt`);
  return {
    userId,
    quizId,
    questionId: quiz?.ids[position] as number,
    value: JSON.stringify(value),
    good,
    answeredAt,
  };
}

/**
 * addAnswers (contract.md §9): a batch of 1 to 5,000 answers to a session, all or nothing. Every
 * answer is checked in order (the first refused one is reported by its path) against facts read
 * once for the batch; then the batch is stored in one transaction, each answer inserted or
 * replacing the stored one by the rule of its upsert, and the session's change marker bumped.
 */
export async function addAnswers(
  ctx: RequestContext,
  sessionId: number,
  raw: unknown,
): Promise<AddAnswersResult> {
  const { requester } = ctx;
  if (requester.kind !== 'user') {
    throw Errors.unauthenticated(ctx.operation, 'an access token is required to add answers');
  }
  const items = checkPayload(ctx, { answers: raw }, () => answerBatch(raw, 'answers'));
  const named = { quizIds: namedIds(items, 'quizId'), userIds: namedIds(items, 'userId') };
  const { session, questions, attending } = await readBatchFacts(
    ctx,
    sessionId,
    requester.userId,
    named,
  );
  if (!session) throw sessionNotFound(ctx, sessionId);
  const policy = { ownerId: session.ownerId, requesterAttended: session.requesterAttends };
  if (answerWriteDecision(requester, policy, null) !== 'allowed') {
    throw Errors.forbidden(
      ctx.operation,
      'only the owner and the attendees of a session write its answers',
    );
  }
  // An attendee writes for themself only: whom the owner knows matters to the owner alone.
  const knownUsers =
    session.ownerId === requester.userId
      ? await knownToOwner(ctx, requester.userId, named.userIds, attending)
      : attending;
  const facts: BatchFacts = {
    sessionId,
    policy,
    questions: questionsByQuiz(session, questions, named.quizIds),
    knownUsers,
  };
  const now = wholeSeconds(new Date());
  const rows = checkPayload(ctx, { answers: raw }, () =>
    items.map((item, index) => checkAnswer(ctx, facts, item, `answers[${index}]`, now)),
  );
  // The owner's answers for others make them attendees; an attendee already is one.
  const attendees =
    session.ownerId === requester.userId ? [...new Set(rows.map((row) => row.userId))] : [];
  const counts = await storeAnswers(ctx, {
    sessionId,
    ownerId: session.ownerId,
    rows,
    attendees,
    now,
  });
  // Committed: this instance's live subscribers hear at once; the others read the marker.
  if (counts.inserted + counts.updated > 0) ctx.sessionChanges.changed(sessionId);
  return { sessionId, received: rows.length, ...counts };
}

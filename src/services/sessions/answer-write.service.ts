import type { RequestContext } from '../../context/request-context';
import { wholeSeconds } from '../../db/column-types';
import type { Question } from '../../db/entities';
import {
  existingUserIds,
  readSessionWriteFacts,
  type AnswerRow,
  type SessionWriteFacts,
} from '../../db/sql/answers.sql';
import {
  answerBatch,
  answeredQuestion,
  answerTime,
  scoredAnswer,
} from '../../domain/answers/answer.rules';
import { answerWriteDecision } from '../../domain/policy/access.policy';
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
  session: SessionWriteFacts;
  sessionId: number;
  questions: Map<number, { ids: number[]; scorable: ScorableQuestion[] }>;
  users: Set<number>;
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

async function lookUp(
  ctx: RequestContext,
  sessionId: number,
  session: SessionWriteFacts,
  items: unknown[],
): Promise<BatchFacts> {
  const quizIds = namedIds(items, 'quizId').filter((id) => session.quizIds.includes(id));
  const [questionLists, users] = await Promise.all([
    ctx.loaders.questionsByQuiz.loadMany(quizIds),
    existingUserIds(ctx.db.read, ctx.db.dialect, namedIds(items, 'userId')),
  ]);
  const questions = new Map<number, { ids: number[]; scorable: ScorableQuestion[] }>();
  quizIds.forEach((quizId, index) => {
    const list = questionLists[index];
    if (list instanceof Error) throw list;
    const rows = list ?? ([] as Question[]);
    questions.set(quizId, { ids: rows.map((row) => row.id), scorable: rows.map(scorableRow) });
  });
  return { session, sessionId, questions, users };
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
  const decision = answerWriteDecision(
    ctx.requester,
    { ownerId: facts.session.ownerId, requesterAttended: facts.session.requesterAttends },
    userId,
  );
  if (decision !== 'allowed') {
    throw Errors.forbidden(
      ctx.operation,
      `${path}.userId: an attendee writes only their own answers (user ${userId})`,
    );
  }
  if (!facts.users.has(userId)) fail(`${path}.userId`, `user ${userId} does not exist`);
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
  const session = await readSessionWriteFacts(ctx.db.write, sessionId, requester.userId);
  if (!session) throw sessionNotFound(ctx, sessionId);
  const sessionFacts = { ownerId: session.ownerId, requesterAttended: session.requesterAttends };
  if (answerWriteDecision(requester, sessionFacts, null) !== 'allowed') {
    throw Errors.forbidden(
      ctx.operation,
      'only the owner and the attendees of a session write its answers',
    );
  }
  const facts = await lookUp(ctx, sessionId, session, items);
  const now = wholeSeconds(new Date());
  const rows = checkPayload(ctx, { answers: raw }, () =>
    items.map((item, index) => checkAnswer(ctx, facts, item, `answers[${index}]`, now)),
  );
  // The owner's answers for others make them attendees; an attendee already is one.
  const attendees =
    session.ownerId === requester.userId ? [...new Set(rows.map((row) => row.userId))] : [];
  const counts = await storeAnswers(ctx, sessionId, rows, attendees, now);
  // Committed: this instance's live subscribers hear at once; the others read the marker.
  ctx.sessionChanges.changed(sessionId);
  return { sessionId, received: rows.length, ...counts };
}

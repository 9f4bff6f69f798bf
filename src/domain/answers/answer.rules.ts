import type { GoodAnswer, ScorableQuestion } from '../questions/question-types';
import { gradeAnswer } from '../questions/scoring';
import { absent, array, describe, fail, missing } from '../validation/checks';

/**
 * The rules of one answer (contract.md §9): which question it answers, whether its value fits
 * the question's type (§4), its score, and when it was given. The import and addAnswers apply
 * them to every answer; errors name the answer by `path` (`answers[12].answer`).
 */

export const ANSWER_LIMITS = {
  /** Answers per addAnswers call, all or nothing. */
  batch: { min: 1, max: 5000 },
  /** How far ahead of the server's clock answeredAt may be: clocks of classroom devices drift. */
  maxFutureMs: 5 * 60_000,
} as const;

/** An answer as stored: the normalised value and its score (null for a survey question). */
export interface ScoredAnswer {
  value: GoodAnswer;
  good: boolean | null;
}

/** The answers of an addAnswers call, counted before any is looked at. */
export function answerBatch(value: unknown, path: string): unknown[] {
  if (absent(value)) missing(path);
  const items = array(value, path);
  const { min, max } = ANSWER_LIMITS.batch;
  if (items.length < min || items.length > max) {
    fail(path, `expected ${min} to ${max} answers, got ${items.length}`);
  }
  return items;
}

/**
 * The question at a 0-based `position` of a quiz's questions; `quizName` names the quiz in the
 * error (`quiz "q1"`, `quiz 42`).
 */
export function answeredQuestion<Q>(
  questions: readonly Q[],
  position: unknown,
  path: string,
  quizName: string,
): { position: number; question: Q } {
  if (
    typeof position !== 'number' ||
    !Number.isInteger(position) ||
    position < 0 ||
    position >= questions.length
  ) {
    return fail(
      path,
      questions.length === 0
        ? `${quizName} has no questions`
        : `expected a question index between 0 and ${questions.length - 1}, got ${describe(position)}`,
    );
  }
  return { position, question: questions[position] as Q };
}

/** The answer checked against its question's type and scored, or an error at `path`. */
export function scoredAnswer(
  question: ScorableQuestion,
  answer: unknown,
  path: string,
): ScoredAnswer {
  const graded = gradeAnswer(question, answer);
  return graded.ok ? { value: graded.value, good: graded.good } : fail(path, graded.reason);
}

/** When an answer was given: now when not said, and not more than 5 minutes ahead of now. */
export function answerTime(answeredAt: Date | null, now: Date, path: string): Date {
  if (answeredAt === null) return now;
  if (answeredAt.getTime() > now.getTime() + ANSWER_LIMITS.maxFutureMs) {
    fail(path, 'is more than 5 minutes in the future');
  }
  return answeredAt;
}

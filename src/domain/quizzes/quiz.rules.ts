import { fail } from '../validation/checks';

/**
 * The rules of a quiz beyond its content (quiz-content.validator.ts): who sees it and when it was
 * made. Every write path (the import, addQuiz) applies them, so the stored quizzes agree.
 */

export const QUIZ_VISIBILITIES = ['public', 'private', 'draft'] as const;
export type QuizVisibility = (typeof QUIZ_VISIBILITIES)[number];

export interface QuizDates {
  creationDate: Date;
  lastChangeDate: Date;
}

/**
 * A quiz's creation and last change dates. Given ones must be in order. An absent creation date
 * is `now`; an absent last change is `now` too, but never before the creation, so a file that
 * dates a quiz in the future still stores its dates in order. `path` names the quiz in errors.
 */
export function quizDates(
  creationDate: Date | null,
  lastChangeDate: Date | null,
  now: Date,
  path: string,
): QuizDates {
  if (creationDate && lastChangeDate && lastChangeDate < creationDate) {
    fail(`${path}.lastChangeDate`, 'is before creationDate');
  }
  const creation = creationDate ?? now;
  return {
    creationDate: creation,
    lastChangeDate: lastChangeDate ?? (creation > now ? creation : now),
  };
}

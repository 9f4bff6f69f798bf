import type { RequestContext } from '../../context/request-context';
import { wholeSeconds } from '../../db/entities/column-types';
import type { Quiz } from '../../db/entities';
import { insertQuiz } from '../../db/quizzes.store';
import { userById } from '../../db/users.store';
import { quizCreationDecision } from '../../domain/policy/access.policy';
import { encodeQuestionRow } from '../../domain/questions/question-row.codec';
import { validateQuizContent } from '../../domain/quizzes/quiz-content.validator';
import { quizDates } from '../../domain/quizzes/quiz.rules';
import { isFields, optionalBoolean } from '../../domain/validation/checks';
import { Errors } from '../../errors';
import { checkPayload } from '../input-errors';

/**
 * addQuiz (spec §4.2): validates the whole payload before writing anything, checks the
 * private-quiz right, then writes the quiz, its tags and questions in one transaction.
 */
export async function addQuiz(ctx: RequestContext, raw: unknown): Promise<Quiz> {
  const { requester } = ctx;
  if (requester.kind !== 'user') {
    throw Errors.unauthenticated(ctx.operation, 'an access token is required to add a quiz');
  }
  if (raw === undefined || raw === null || raw === '')
    throw Errors.missingParameter(ctx.operation, 'quiz');
  if (!isFields(raw))
    throw Errors.badParameter(ctx.operation, 'quiz', raw, 'must be a JSON object');
  const { content, favorite } = checkPayload(ctx, { quiz: raw }, () => ({
    content: validateQuizContent(raw, 'quiz'),
    favorite:
      raw.favorite === undefined
        ? undefined
        : optionalBoolean(raw.favorite, 'quiz.favorite', false),
  }));
  const creator = await userById(ctx.db, requester.userId, 'write');
  const decision = quizCreationDecision(
    requester,
    creator
      ? { userId: creator.id, canCreatePrivateQuizzes: creator.canCreatePrivateQuizzes }
      : undefined,
    content.visibility,
  );
  if (decision === 'needsToken')
    throw Errors.unauthenticated(ctx.operation, 'the access token is invalid');
  if (decision === 'denied') {
    throw Errors.forbidden(ctx.operation, 'this account may not create private quizzes');
  }

  // Whole seconds: the legacy format has no fractions, and every dialect stores them alike.
  // A new quiz was made and last changed now, by the rule the import applies to undated quizzes.
  const dates = quizDates(null, null, wholeSeconds(new Date()), 'quiz');
  return insertQuiz(ctx.db, {
    quiz: {
      authorId: requester.userId,
      title: content.title,
      visibility: content.visibility,
      survey: content.survey,
      defaultDuration: content.defaultDuration,
      nbQuestions: content.questions.length,
      ...dates,
    },
    tags: content.tags,
    questions: content.questions.map(encodeQuestionRow),
    favorite,
  });
}

import type { RequestContext } from '../../app/request-context';
import type { Quiz } from '../../db/entities';
import { quizReadDecision } from '../../domain/policy/access.policy';
import { Errors } from '../../errors';
import { quizView, type QuizView } from './quiz.views';

/** One quiz, if the requester may read it (spec §4.1). */
export async function getQuiz(ctx: RequestContext, quizId: number): Promise<QuizView> {
  return quizView(ctx, await readableQuiz(ctx, quizId));
}

/** The quiz entity, once the policy allowed the requester to read it; else the contract's error. */
export async function readableQuiz(ctx: RequestContext, quizId: number): Promise<Quiz> {
  const quiz = await ctx.loaders.quizById.load(quizId);
  if (!quiz)
    throw Errors.notFound(ctx.operation, 'quizId', String(quizId), `quiz ${quizId} does not exist`);
  const playedInAttendedSession =
    quiz.visibility === 'private' && ctx.requester.kind === 'user'
      ? await ctx.loaders.attendedQuiz.load(quiz.id)
      : false;
  const decision = quizReadDecision(ctx.requester, {
    visibility: quiz.visibility,
    authorId: quiz.authorId,
    playedInAttendedSession,
  });
  const reason = `access to quiz ${quizId} is denied`;
  if (decision === 'needsToken') throw Errors.unauthenticated(ctx.operation, reason);
  if (decision === 'denied') throw Errors.forbidden(ctx.operation, reason);
  return quiz;
}

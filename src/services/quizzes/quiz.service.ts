import type { RequestContext } from '../../context/request-context';
import { loadEvery } from '../../context/loaders';
import type { Quiz } from '../../db/entities';
import { quizReadDecision, type Decision } from '../../domain/policy/access.policy';
import { Errors } from '../../errors';
import { quizView, type QuizView } from './quiz.views';

/** One quiz, if the requester may read it (spec §4.1). */
export async function getQuiz(ctx: RequestContext, quizId: number): Promise<QuizView> {
  return quizView(ctx, await readableQuiz(ctx, quizId));
}

/** What the policy says of the requester reading this quiz (loads what it needs through the loaders). */
export async function quizReadDecisionFor(ctx: RequestContext, quiz: Quiz): Promise<Decision> {
  const playedInAttendedSession =
    quiz.visibility === 'private' && ctx.requester.kind === 'user'
      ? await ctx.loaders.attendedQuiz.load(quiz.id)
      : false;
  return quizReadDecision(ctx.requester, {
    visibility: quiz.visibility,
    authorId: quiz.authorId,
    playedInAttendedSession,
  });
}

/** The quiz entity, once the policy allowed the requester to read it; else the contract's error. */
export async function readableQuiz(ctx: RequestContext, quizId: number): Promise<Quiz> {
  const quiz = await ctx.loaders.quizById.load(quizId);
  if (!quiz) {
    throw Errors.notFound(ctx.operation, 'quizId', String(quizId), `quiz ${quizId} does not exist`);
  }
  const decision = await quizReadDecisionFor(ctx, quiz);
  const reason = `access to quiz ${quizId} is denied`;
  if (decision === 'needsToken') throw Errors.unauthenticated(ctx.operation, reason);
  if (decision === 'denied') throw Errors.forbidden(ctx.operation, reason);
  return quiz;
}

/** The quizzes of a page the requester may still read, in the given order (the rest left out). */
export async function readableQuizzes(
  ctx: RequestContext,
  ids: readonly number[],
): Promise<Quiz[]> {
  const loaded = await loadEvery(ctx.loaders.quizById, ids);
  const quizzes = loaded.filter((quiz): quiz is Quiz => quiz !== null);
  const decisions = await Promise.all(quizzes.map((quiz) => quizReadDecisionFor(ctx, quiz)));
  return quizzes.filter((_quiz, index) => decisions[index] === 'allowed');
}

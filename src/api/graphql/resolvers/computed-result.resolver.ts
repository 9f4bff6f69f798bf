import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { quizReadDecisionFor } from '../../../services/quizzes/quiz.service';
import { quizView } from '../../../services/quizzes/quiz.views';
import { sessionOfResult } from '../../../services/sessions/session.service';
import { userView } from '../../../services/users/user.views';
import type { GraphQLContext } from '../execution/graphql.context';
import { ComputedResultObject } from '../types/computed-result.type';
import { QuizObject, toQuizObject } from '../types/quiz.type';
import { SessionObject, toSessionObject } from '../types/session.type';
import { toUserType, type UserType } from '../types/user.type';

/**
 * The objects a computed result points to (getResults, getSessionResults, sessionResults), read
 * through the request's loaders (so a page costs the same statements at any size).
 */
@Resolver(() => ComputedResultObject)
export class ComputedResultResolver {
  @FieldResolver()
  async user(
    @Root() result: ComputedResultObject,
    @Ctx() context: GraphQLContext,
  ): Promise<UserType | null> {
    return result.userId === null
      ? null
      : toUserType(await userView(context.ctx, Number(result.userId)));
  }

  /** The quiz as getQuiz shows it; null where the requester may not read it. */
  @FieldResolver()
  async quiz(
    @Root() result: ComputedResultObject,
    @Ctx() context: GraphQLContext,
  ): Promise<QuizObject | null> {
    if (result.quizId === null) return null;
    const { ctx } = context;
    const quiz = await ctx.loaders.quizById.load(Number(result.quizId));
    if (!quiz || (await quizReadDecisionFor(ctx, quiz)) !== 'allowed') return null;
    return toQuizObject(await quizView(ctx, quiz));
  }

  @FieldResolver()
  async session(
    @Root() result: ComputedResultObject,
    @Ctx() context: GraphQLContext,
  ): Promise<SessionObject | null> {
    if (result.sessionId === null) return null;
    const session = await sessionOfResult(context.ctx, Number(result.sessionId));
    return session ? toSessionObject(session.id, session.details) : null;
  }
}

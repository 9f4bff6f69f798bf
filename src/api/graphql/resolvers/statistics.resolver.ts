import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../../context/request-context';
import { quizReadDecisionFor } from '../../../services/quizzes/quiz.service';
import { quizView } from '../../../services/quizzes/quiz.views';
import { quizQuestionStatistics } from '../../../services/statistics/quiz-questions.loader';
import type { GraphQLContext } from '../execution/graphql.context';
import { QuizObject, toQuizObject } from '../types/quiz.type';
import {
  QuestionStatisticObject,
  QuizStatisticObject,
  toQuizQuestionStatisticObjects,
} from '../types/statistics.type';

/**
 * Item analysis (contract.md §12): the objects a statistic points to, read through the request's
 * loaders (the root fields are built from the catalog, catalog.resolver.ts).
 */

/** The quiz as getQuiz shows it; null where the requester may no longer read it. */
async function readableQuiz(ctx: RequestContext, quizId: string): Promise<QuizObject | null> {
  const quiz = await ctx.loaders.quizById.load(Number(quizId));
  if (!quiz || (await quizReadDecisionFor(ctx, quiz)) !== 'allowed') return null;
  return toQuizObject(await quizView(ctx, quiz));
}

@Resolver(() => QuestionStatisticObject)
export class QuestionStatisticResolver {
  @FieldResolver()
  quiz(
    @Root() statistic: QuestionStatisticObject,
    @Ctx() context: GraphQLContext,
  ): Promise<QuizObject | null> {
    return readableQuiz(context.ctx, statistic.quizId);
  }
}

@Resolver(() => QuizStatisticObject)
export class QuizStatisticResolver {
  @FieldResolver()
  quiz(
    @Root() statistic: QuizStatisticObject,
    @Ctx() context: GraphQLContext,
  ): Promise<QuizObject | null> {
    return readableQuiz(context.ctx, statistic.quizId);
  }

  /** Batched: the quizzes of a page cost one statement (quiz-questions.loader.ts). */
  @FieldResolver()
  async questions(
    @Root() statistic: QuizStatisticObject,
    @Ctx() context: GraphQLContext,
  ): Promise<QuestionStatisticObject[]> {
    const views = await quizQuestionStatistics(
      context.ctx,
      statistic.dataSetId,
      Number(statistic.quizId),
    );
    return toQuizQuestionStatisticObjects(statistic, views);
  }
}

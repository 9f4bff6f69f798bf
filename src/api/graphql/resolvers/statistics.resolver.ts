import {
  Args,
  ArgsType,
  Ctx,
  Field,
  FieldResolver,
  ID,
  Int,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import type { RequestContext } from '../../../context/request-context';
import { quizReadDecisionFor } from '../../../services/quizzes/quiz.service';
import { quizView } from '../../../services/quizzes/quiz.views';
import { quizQuestionStatistics } from '../../../services/statistics/quiz-questions.loader';
import { rootFieldDescription } from '../../operations/operation-catalog';
import {
  getQuestionStatisticsOperation,
  getQuizStatisticsOperation,
} from '../../operations/statistics.operation';
import { resolveOperation, type GraphQLContext } from '../execution/graphql.context';
import {
  type DataSetObject,
  QuestionStatisticPage,
  QuizStatisticPage,
  toDataSetObject,
} from '../types/data-set.type';
import { QuizObject, toQuizObject } from '../types/quiz.type';
import {
  QuestionStatisticObject,
  QuizStatisticObject,
  toQuizQuestionStatisticObjects,
} from '../types/statistics.type';

/**
 * Item analysis (contract.md §12): the two root fields, and the objects a statistic points to,
 * read through the request's loaders.
 */

/** The arguments of both root fields, as the operations define them. */
@ArgsType()
class StatisticsArgs {
  @Field(() => ID)
  userSetId!: string;

  @Field(() => ID)
  quizSetId!: string;

  @Field(() => [ID], { nullable: true })
  sessionIds?: string[];

  @Field(() => ID, { nullable: true })
  sessionId?: string;

  @Field(() => Int, { nullable: true })
  numberOfItemsPerPage?: number;
}

/** The quiz as getQuiz shows it; null where the requester may no longer read it. */
async function readableQuiz(ctx: RequestContext, quizId: string): Promise<QuizObject | null> {
  const quiz = await ctx.loaders.quizById.load(Number(quizId));
  if (!quiz || (await quizReadDecisionFor(ctx, quiz)) !== 'allowed') return null;
  return toQuizObject(await quizView(ctx, quiz));
}

@Resolver(() => QuestionStatisticObject)
export class QuestionStatisticResolver {
  @Query(() => QuestionStatisticPage, {
    nullable: true,
    description: rootFieldDescription(getQuestionStatisticsOperation),
  })
  async getQuestionStatistics(
    @Ctx() context: GraphQLContext,
    @Args() args: StatisticsArgs,
  ): Promise<DataSetObject> {
    return toDataSetObject(
      await resolveOperation(getQuestionStatisticsOperation, context, { ...args }),
    );
  }

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
  @Query(() => QuizStatisticPage, {
    nullable: true,
    description: rootFieldDescription(getQuizStatisticsOperation),
  })
  async getQuizStatistics(
    @Ctx() context: GraphQLContext,
    @Args() args: StatisticsArgs,
  ): Promise<DataSetObject> {
    return toDataSetObject(
      await resolveOperation(getQuizStatisticsOperation, context, { ...args }),
    );
  }

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

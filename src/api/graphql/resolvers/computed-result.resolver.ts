import { Arg, Ctx, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import { quizReadDecisionFor } from '../../../services/quizzes/quiz.service';
import { quizView } from '../../../services/quizzes/quiz.views';
import { sessionOfResult } from '../../../services/sessions/session.service';
import { userView } from '../../../services/users/user.views';
import { rootFieldDescription } from '../../operations/operation-catalog';
import {
  getResultsOperation,
  getSessionResultsOperation,
} from '../../operations/results.operation';
import { resolveOperation, type GraphQLContext } from '../execution/graphql.context';
import {
  AggregationFunctionEnum,
  ComputedResultObject,
  GroupByEnum,
  IncludeQuizzesEnum,
  ResultTypeEnum,
} from '../types/computed-result.type';
import { ComputedResultPage, type DataSetObject, toDataSetObject } from '../types/data-set.type';
import { QuizObject, toQuizObject } from '../types/quiz.type';
import { SessionObject, toSessionObject } from '../types/session.type';
import { SessionResultsObject, toSessionResultsObject } from '../types/session-results.type';
import { toUserType, type UserType } from '../types/user.type';

/**
 * getResults and getSessionResults, and the objects a computed result points to, read through
 * the request's loaders (so a page costs the same statements at any size).
 */
@Resolver(() => ComputedResultObject)
export class ComputedResultResolver {
  @Query(() => ComputedResultPage, {
    nullable: true,
    description: rootFieldDescription(getResultsOperation),
  })
  async getResults(
    @Ctx() context: GraphQLContext,
    @Arg('userSetId', () => ID) userSetId: string,
    @Arg('quizSetId', () => ID) quizSetId: string,
    @Arg('resultTypes', () => [ResultTypeEnum], { nullable: true }) resultTypes?: string[],
    @Arg('aggregationFunctions', () => [AggregationFunctionEnum], { nullable: true })
    aggregationFunctions?: string[],
    @Arg('groupBy', () => GroupByEnum, { nullable: true }) groupBy?: string,
    @Arg('sessionIds', () => [ID], { nullable: true }) sessionIds?: string[],
    @Arg('sessionId', () => ID, { nullable: true }) sessionId?: string,
    @Arg('includeQuizzes', () => IncludeQuizzesEnum, { nullable: true }) includeQuizzes?: string,
    @Arg('numberOfItemsPerPage', () => Int, { nullable: true }) numberOfItemsPerPage?: number,
  ): Promise<DataSetObject> {
    return toDataSetObject(
      await resolveOperation(getResultsOperation, context, {
        userSetId,
        quizSetId,
        resultTypes,
        aggregationFunctions,
        groupBy,
        sessionIds,
        sessionId,
        includeQuizzes,
        numberOfItemsPerPage,
      }),
    );
  }

  @Query(() => SessionResultsObject, {
    nullable: true,
    description: rootFieldDescription(getSessionResultsOperation),
  })
  async getSessionResults(
    @Ctx() context: GraphQLContext,
    @Arg('sessionId', () => ID) sessionId: string,
    @Arg('resultTypes', () => [ResultTypeEnum], { nullable: true }) resultTypes?: string[],
    @Arg('aggregationFunctions', () => [AggregationFunctionEnum], { nullable: true })
    aggregationFunctions?: string[],
    @Arg('groupBy', () => GroupByEnum, { nullable: true }) groupBy?: string,
    @Arg('includeQuizzes', () => IncludeQuizzesEnum, { nullable: true }) includeQuizzes?: string,
    @Arg('numberOfItemsPerPage', () => Int, { nullable: true }) numberOfItemsPerPage?: number,
  ): Promise<SessionResultsObject> {
    return toSessionResultsObject(
      await resolveOperation(getSessionResultsOperation, context, {
        sessionId,
        resultTypes,
        aggregationFunctions,
        groupBy,
        includeQuizzes,
        numberOfItemsPerPage,
      }),
    );
  }

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

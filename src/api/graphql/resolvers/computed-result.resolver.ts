import {
  Arg,
  Ctx,
  Field,
  FieldResolver,
  ID,
  Int,
  ObjectType,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import type { Quiz } from '../../../db/entities';
import { seesSessionDetails } from '../../../domain/policy/access.policy';
import type { DataSetPage } from '../../../services/data-sets/data-set.service';
import { quizReadDecisionFor } from '../../../services/quizzes/quiz.service';
import { getResults } from '../../../services/results/results.service';
import { getSessionResults } from '../../../services/results/session-results.service';
import { userView } from '../../../services/users/user.views';
import { describedWithCost } from '../../operation-costs';
import { forOperation, type GraphQLContext } from '../graphql.context';
import {
  AggregationFunctionEnum,
  ComputedResultObject,
  GroupByEnum,
  IncludeQuizzesEnum,
  ResultTypeEnum,
  SessionObject,
} from '../types/computed-result.type';
import { DataSetObject } from '../types/data-set.type';
import { toUserType, type UserType } from '../types/user.type';

@ObjectType('SessionResults', {
  simpleResolvers: true,
  description:
    'The typical flow of the spec in one request: the user set and quiz set of a session, and their results.',
})
export class SessionResultsObject {
  @Field(() => DataSetObject)
  userSet!: DataSetPage;

  @Field(() => DataSetObject)
  quizSet!: DataSetPage;

  @Field(() => DataSetObject)
  results!: DataSetPage;
}

/** getResults, and the object fields of a computed result, through the request's loaders. */
@Resolver(() => ComputedResultObject)
export class ComputedResultResolver {
  @Query(() => DataSetObject, {
    nullable: true,
    description: describedWithCost(
      'getResults',
      'Results of a user set on a quiz set (contract.md §7).',
    ),
  })
  getResults(
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
  ): Promise<DataSetPage> {
    return getResults(forOperation(context, 'getResults'), {
      userSetId,
      quizSetId,
      resultTypes,
      aggregationFunctions,
      groupBy,
      sessionIds,
      sessionId,
      includeQuizzes,
      numberOfItemsPerPage,
    });
  }

  @Query(() => SessionResultsObject, {
    nullable: true,
    description: describedWithCost(
      'getSessionResults',
      'getUserSet(sessionId), getQuizSet(sessionId) and getResults on them restricted to that session, in one round trip.',
    ),
  })
  getSessionResults(
    @Ctx() context: GraphQLContext,
    @Arg('sessionId', () => ID) sessionId: string,
    @Arg('resultTypes', () => [ResultTypeEnum], { nullable: true }) resultTypes?: string[],
    @Arg('aggregationFunctions', () => [AggregationFunctionEnum], { nullable: true })
    aggregationFunctions?: string[],
    @Arg('groupBy', () => GroupByEnum, { nullable: true }) groupBy?: string,
    @Arg('includeQuizzes', () => IncludeQuizzesEnum, { nullable: true }) includeQuizzes?: string,
    @Arg('numberOfItemsPerPage', () => Int, { nullable: true }) numberOfItemsPerPage?: number,
  ): Promise<SessionResultsObject> {
    return getSessionResults(forOperation(context, 'getSessionResults'), {
      sessionId,
      resultTypes,
      aggregationFunctions,
      groupBy,
      includeQuizzes,
      numberOfItemsPerPage,
    });
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

  @FieldResolver()
  async quiz(
    @Root() result: ComputedResultObject,
    @Ctx() context: GraphQLContext,
  ): Promise<Quiz | null> {
    if (result.quizId === null) return null;
    const quiz = await context.ctx.loaders.quizById.load(Number(result.quizId));
    return quiz && (await quizReadDecisionFor(context.ctx, quiz)) === 'allowed' ? quiz : null;
  }

  @FieldResolver()
  async session(
    @Root() result: ComputedResultObject,
    @Ctx() context: GraphQLContext,
  ): Promise<SessionObject | null> {
    if (result.sessionId === null) return null;
    const { ctx } = context;
    const id = Number(result.sessionId);
    const [session, attended] = await Promise.all([
      ctx.loaders.sessionById.load(id),
      ctx.loaders.attendedSession.load(id),
    ]);
    if (!session) return null;
    const details = seesSessionDetails(ctx.requester, {
      ownerId: session.ownerId,
      requesterAttended: attended,
    });
    return {
      id: String(id),
      title: details ? session.title : null,
      startDate: details ? session.startDate : null,
    };
  }
}

import { Arg, Ctx, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import {
  computeDataSet,
  getPage,
  type DataSetPage,
} from '../../../services/data-sets/data-set.service';
import {
  computedResultItems,
  userGroupItems,
  userItems,
} from '../../../services/data-sets/data-set.views';
import { toComputedResultObject } from '../types/computed-result.type';
import { getQuizSet } from '../../../services/data-sets/quiz-set.service';
import { getUserGroupSet, getUserSet } from '../../../services/data-sets/user-set.service';
import { readableQuizzes } from '../../../services/quizzes/quiz.service';
import { describedWithCost } from '../../operation-costs';
import { forOperation, type GraphQLContext } from '../graphql.context';
import { DataSetObject, SetOperator, UserGroupObject } from '../types/data-set.type';
import { toUserType, UserType } from '../types/user.type';

/**
 * The set operations: resolvers return the service's page, and `items` is resolved through the
 * request's loaders only when asked for (quizzes stay entities, so their own fields are lazy too).
 */
@Resolver(() => DataSetObject)
export class DataSetResolver {
  @Query(() => DataSetObject, {
    nullable: true,
    description: describedWithCost(
      'getQuizSet',
      'Quizzes matching all the given filters (at least one).',
    ),
  })
  getQuizSet(
    @Ctx() context: GraphQLContext,
    @Arg('keywords', () => String, { nullable: true }) keywords?: string,
    @Arg('quizId', () => ID, { nullable: true }) quizId?: string,
    @Arg('tag', () => String, { nullable: true }) tag?: string,
    @Arg('author', () => ID, { nullable: true }) author?: string,
    @Arg('player', () => ID, { nullable: true }) player?: string,
    @Arg('sessionId', () => ID, { nullable: true }) sessionId?: string,
    @Arg('creationDate', () => String, { nullable: true, description: 'start,end or one value' })
    creationDate?: string,
    @Arg('modificationDate', () => String, { nullable: true }) modificationDate?: string,
    @Arg('numberOfItemsPerPage', () => Int, { nullable: true }) numberOfItemsPerPage?: number,
  ): Promise<DataSetPage> {
    return getQuizSet(
      forOperation(context, 'getQuizSet'),
      { keywords, quizId, tag, author, player, sessionId, creationDate, modificationDate },
      { numberOfItemsPerPage },
    );
  }

  @Query(() => DataSetObject, {
    nullable: true,
    description: describedWithCost(
      'getUserSet',
      'Users matching all the given filters (at least one).',
    ),
  })
  getUserSet(
    @Ctx() context: GraphQLContext,
    @Arg('userId', () => ID, { nullable: true }) userId?: string,
    @Arg('userGroupSetId', () => ID, { nullable: true }) userGroupSetId?: string,
    @Arg('sessionId', () => ID, { nullable: true }) sessionId?: string,
    @Arg('raisedHand', () => Boolean, { nullable: true }) raisedHand?: boolean,
    @Arg('quizId', () => ID, { nullable: true }) quizId?: string,
    @Arg('numberOfItemsPerPage', () => Int, { nullable: true }) numberOfItemsPerPage?: number,
  ): Promise<DataSetPage> {
    return getUserSet(
      forOperation(context, 'getUserSet'),
      { userId, userGroupSetId, sessionId, raisedHand, quizId },
      { numberOfItemsPerPage },
    );
  }

  @Query(() => DataSetObject, {
    nullable: true,
    description: describedWithCost(
      'getUserGroupSet',
      'The groups the requester owns or belongs to (needs a token).',
    ),
  })
  getUserGroupSet(
    @Ctx() context: GraphQLContext,
    @Arg('search', () => String, { nullable: true, description: 'name prefix' }) search?: string,
    @Arg('numberOfItemsPerPage', () => Int, { nullable: true }) numberOfItemsPerPage?: number,
  ): Promise<DataSetPage> {
    return getUserGroupSet(
      forOperation(context, 'getUserGroupSet'),
      { search },
      { numberOfItemsPerPage },
    );
  }

  @Query(() => DataSetObject, {
    nullable: true,
    description: describedWithCost('getDataSetPage', 'One page of a data set the requester made.'),
  })
  getDataSetPage(
    @Ctx() context: GraphQLContext,
    @Arg('dataSetId', () => ID) dataSetId: string,
    @Arg('pageIndex', () => Int, { nullable: true, defaultValue: 1 }) pageIndex: number,
  ): Promise<DataSetPage> {
    return getPage(forOperation(context, 'getDataSetPage'), dataSetId, pageIndex);
  }

  @Query(() => DataSetObject, {
    nullable: true,
    description: describedWithCost(
      'computeDataSet',
      'Combines two sets of the requester of the same item type.',
    ),
  })
  computeDataSet(
    @Ctx() context: GraphQLContext,
    @Arg('dataSetId1', () => ID) dataSetId1: string,
    @Arg('dataSetId2', () => ID) dataSetId2: string,
    @Arg('operator', () => SetOperator) operator: SetOperator,
    @Arg('numberOfItemsPerPage', () => Int, { nullable: true }) numberOfItemsPerPage?: number,
  ): Promise<DataSetPage> {
    return computeDataSet(
      forOperation(context, 'computeDataSet'),
      dataSetId1,
      dataSetId2,
      operator,
      {
        numberOfItemsPerPage,
      },
    );
  }

  @FieldResolver()
  dataSetId(@Root() page: DataSetPage): string {
    return String(page.dataSetId);
  }

  @FieldResolver()
  async items(@Root() page: DataSetPage, @Ctx() context: GraphQLContext): Promise<unknown[]> {
    const { ctx } = context;
    switch (page.itemType) {
      case 'user':
        return (await userItems(ctx, page.itemIds)).map((view) =>
          Object.assign(new UserType(), toUserType(view)),
        );
      case 'quiz':
        return readableQuizzes(ctx, page.itemIds);
      case 'userGroup':
        return (await userGroupItems(ctx, page.itemIds)).map((group) =>
          Object.assign(new UserGroupObject(), {
            id: String(group.id),
            name: group.name,
            nbMembers: group.nbMembers,
          }),
        );
      case 'computedResult':
        return computedResultItems(page).map(toComputedResultObject);
    }
  }
}

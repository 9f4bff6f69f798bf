import { Arg, Ctx, ID, Int, Query, Resolver } from 'type-graphql';
import {
  computeDataSetOperation,
  getDataSetItemsOperation,
  getDataSetPageOperation,
  getQuizSetOperation,
  getUserGroupSetOperation,
  getUserSetOperation,
} from '../../operations/data-set.operation';
import { rootFieldDescription } from '../../operations/operation-catalog';
import { resolveOperation, type GraphQLContext } from '../execution/graphql.context';
import {
  DataSetItemConnectionObject,
  toDataSetItemConnection,
} from '../types/data-set-connection.type';
import {
  DataSetObject,
  QuizPage,
  SetOperator,
  toDataSetObject,
  UserGroupPage,
  UserPage,
} from '../types/data-set.type';

/** The set operations: the catalog's operations, their page views as DataSet objects. */
@Resolver()
export class DataSetResolver {
  @Query(() => QuizPage, {
    nullable: true,
    description: rootFieldDescription(getQuizSetOperation),
  })
  async getQuizSet(
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
  ): Promise<DataSetObject> {
    return toDataSetObject(
      await resolveOperation(getQuizSetOperation, context, {
        keywords,
        quizId,
        tag,
        author,
        player,
        sessionId,
        creationDate,
        modificationDate,
        numberOfItemsPerPage,
      }),
    );
  }

  @Query(() => UserPage, {
    nullable: true,
    description: rootFieldDescription(getUserSetOperation),
  })
  async getUserSet(
    @Ctx() context: GraphQLContext,
    @Arg('userId', () => ID, { nullable: true }) userId?: string,
    @Arg('userGroupSetId', () => ID, { nullable: true }) userGroupSetId?: string,
    @Arg('sessionId', () => ID, { nullable: true }) sessionId?: string,
    @Arg('raisedHand', () => Boolean, { nullable: true }) raisedHand?: boolean,
    @Arg('quizId', () => ID, { nullable: true }) quizId?: string,
    @Arg('numberOfItemsPerPage', () => Int, { nullable: true }) numberOfItemsPerPage?: number,
  ): Promise<DataSetObject> {
    return toDataSetObject(
      await resolveOperation(getUserSetOperation, context, {
        userId,
        userGroupSetId,
        sessionId,
        raisedHand,
        quizId,
        numberOfItemsPerPage,
      }),
    );
  }

  @Query(() => UserGroupPage, {
    nullable: true,
    description: rootFieldDescription(getUserGroupSetOperation),
  })
  async getUserGroupSet(
    @Ctx() context: GraphQLContext,
    @Arg('search', () => String, { nullable: true, description: 'name prefix' }) search?: string,
    @Arg('numberOfItemsPerPage', () => Int, { nullable: true }) numberOfItemsPerPage?: number,
  ): Promise<DataSetObject> {
    return toDataSetObject(
      await resolveOperation(getUserGroupSetOperation, context, { search, numberOfItemsPerPage }),
    );
  }

  @Query(() => DataSetObject, {
    nullable: true,
    description: rootFieldDescription(getDataSetPageOperation),
  })
  async getDataSetPage(
    @Ctx() context: GraphQLContext,
    @Arg('dataSetId', () => ID) dataSetId: string,
    @Arg('pageIndex', () => Int, { nullable: true, defaultValue: 1 }) pageIndex: number,
  ): Promise<DataSetObject> {
    return toDataSetObject(
      await resolveOperation(getDataSetPageOperation, context, { dataSetId, pageIndex }),
    );
  }

  @Query(() => DataSetItemConnectionObject, {
    nullable: true,
    description: rootFieldDescription(getDataSetItemsOperation),
  })
  async getDataSetItems(
    @Ctx() context: GraphQLContext,
    @Arg('dataSetId', () => ID) dataSetId: string,
    @Arg('first', () => Int, { nullable: true }) first?: number,
    @Arg('after', () => String, { nullable: true }) after?: string,
  ): Promise<DataSetItemConnectionObject> {
    return toDataSetItemConnection(
      await resolveOperation(getDataSetItemsOperation, context, { dataSetId, first, after }),
    );
  }

  @Query(() => DataSetObject, {
    nullable: true,
    description: rootFieldDescription(computeDataSetOperation),
  })
  async computeDataSet(
    @Ctx() context: GraphQLContext,
    @Arg('dataSetId1', () => ID) dataSetId1: string,
    @Arg('dataSetId2', () => ID) dataSetId2: string,
    @Arg('operator', () => SetOperator) operator: SetOperator,
    @Arg('numberOfItemsPerPage', () => Int, { nullable: true }) numberOfItemsPerPage?: number,
  ): Promise<DataSetObject> {
    return toDataSetObject(
      await resolveOperation(computeDataSetOperation, context, {
        dataSetId1,
        dataSetId2,
        operator,
        numberOfItemsPerPage,
      }),
    );
  }
}

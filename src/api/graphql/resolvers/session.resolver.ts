import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { rootFieldDescription } from '../../operations/operation-catalog';
import {
  addAnswersOperation,
  addSessionOperation,
  getSessionOperation,
  joinSessionOperation,
} from '../../operations/session.operation';
import { plainInput, resolveOperation, type GraphQLContext } from '../execution/graphql.context';
import {
  AddAnswersResultObject,
  AnswerInput,
  SessionInput,
  SessionObject,
  toAddAnswersResultObject,
  toSessionObject,
} from '../types/session.type';

/** addSession, getSession, joinSession and addAnswers: the catalog's operations, their views as objects. */
@Resolver()
export class SessionResolver {
  @Mutation(() => SessionObject, {
    nullable: true,
    description: rootFieldDescription(addSessionOperation),
  })
  async addSession(
    @Arg('session', () => SessionInput) session: SessionInput,
    @Ctx() context: GraphQLContext,
  ): Promise<SessionObject> {
    const view = await resolveOperation(addSessionOperation, context, {
      session: plainInput(session),
    });
    return toSessionObject(view.id, view);
  }

  @Query(() => SessionObject, {
    nullable: true,
    description: rootFieldDescription(getSessionOperation),
  })
  async getSession(
    @Arg('sessionId', () => ID) sessionId: string,
    @Ctx() context: GraphQLContext,
  ): Promise<SessionObject> {
    const view = await resolveOperation(getSessionOperation, context, { sessionId });
    return toSessionObject(view.id, view);
  }

  @Mutation(() => SessionObject, {
    nullable: true,
    description: rootFieldDescription(joinSessionOperation),
  })
  async joinSession(
    @Arg('joinCode', () => String) joinCode: string,
    @Ctx() context: GraphQLContext,
  ): Promise<SessionObject> {
    const view = await resolveOperation(joinSessionOperation, context, { joinCode });
    return toSessionObject(view.id, view);
  }

  @Mutation(() => AddAnswersResultObject, {
    nullable: true,
    description: rootFieldDescription(addAnswersOperation),
  })
  async addAnswers(
    @Arg('sessionId', () => ID) sessionId: string,
    @Arg('answers', () => [AnswerInput]) answers: AnswerInput[],
    @Ctx() context: GraphQLContext,
  ): Promise<AddAnswersResultObject> {
    return toAddAnswersResultObject(
      await resolveOperation(addAnswersOperation, context, {
        sessionId,
        answers: plainInput(answers),
      }),
    );
  }
}

import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Quiz } from '../../../db/entities';
import { readableQuiz } from '../../../services/quizzes/quiz.service';
import { addQuiz } from '../../../services/quizzes/quiz-write.service';
import { quizQuestions, quizRequesterFields } from '../../../services/quizzes/quiz.views';
import { userView } from '../../../services/users/user.views';
import { describedWithCost } from '../../operation-costs';
import { forOperation, type GraphQLContext } from '../graphql.context';
import { parseId } from '../../ids';
import { toQuestionObject, type QuestionObject } from '../types/question.type';
import { QuizInput, QuizObject } from '../types/quiz.type';
import { toUserType, type UserType } from '../types/user.type';

/** Plain objects of the input, so the validator sees exactly what a JSON client would send. */
function plain(input: unknown): unknown {
  return JSON.parse(JSON.stringify(input)) as unknown;
}

/**
 * Quiz reads and addQuiz. Resolvers return the entity; object fields are resolved lazily through
 * the request's loaders, with the same visibility rules as REST.
 */
@Resolver(() => QuizObject)
export class QuizResolver {
  @Query(() => QuizObject, {
    nullable: true,
    description: describedWithCost('getQuiz', 'One quiz (spec §4.1).'),
  })
  async getQuiz(
    @Arg('quizId', () => ID) quizId: string,
    @Ctx() context: GraphQLContext,
  ): Promise<Quiz> {
    const ctx = forOperation(context, 'getQuiz');
    return readableQuiz(ctx, parseId(ctx.operation, 'quizId', quizId));
  }

  @Mutation(() => QuizObject, {
    nullable: true,
    description: describedWithCost(
      'addQuiz',
      'Adds a quiz to the account of the token owner (spec §4.2).',
    ),
  })
  async addQuiz(
    @Arg('quiz', () => QuizInput) quiz: QuizInput,
    @Ctx() context: GraphQLContext,
  ): Promise<Quiz> {
    return addQuiz(forOperation(context, 'addQuiz'), plain(quiz));
  }

  @FieldResolver()
  tags(@Root() quiz: Quiz, @Ctx() context: GraphQLContext): Promise<string[]> {
    return context.ctx.loaders.tagsByQuiz.load(quiz.id);
  }

  @FieldResolver()
  async author(@Root() quiz: Quiz, @Ctx() context: GraphQLContext): Promise<UserType> {
    return toUserType(await userView(context.ctx, quiz.authorId));
  }

  @FieldResolver()
  async questions(@Root() quiz: Quiz, @Ctx() context: GraphQLContext): Promise<QuestionObject[]> {
    return (await quizQuestions(context.ctx, quiz)).map(toQuestionObject);
  }

  @FieldResolver()
  async defaultDuration(
    @Root() quiz: Quiz,
    @Ctx() context: GraphQLContext,
  ): Promise<string | null> {
    return (await quizRequesterFields(context.ctx, quiz))?.defaultDuration ?? null;
  }

  @FieldResolver()
  async imported(@Root() quiz: Quiz, @Ctx() context: GraphQLContext): Promise<boolean | null> {
    return (await quizRequesterFields(context.ctx, quiz))?.imported ?? null;
  }

  @FieldResolver()
  async favorite(@Root() quiz: Quiz, @Ctx() context: GraphQLContext): Promise<boolean | null> {
    return (await quizRequesterFields(context.ctx, quiz))?.favorite ?? null;
  }
}

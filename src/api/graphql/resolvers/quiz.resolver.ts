import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { rootFieldDescription } from '../../operations/operation-catalog';
import {
  addQuizOperation,
  getQuizAttributeOperation,
  getQuizOperation,
} from '../../operations/quiz.operation';
import { plainInput, resolveOperation, type GraphQLContext } from '../execution/graphql.context';
import { ItemAttributeObject, toItemAttributeObject } from '../types/item-attribute.type';
import { QuizInput, QuizObject, toQuizObject } from '../types/quiz.type';

/** getQuiz, addQuiz and getQuizAttribute: the catalog's operations, their views as objects. */
@Resolver()
export class QuizResolver {
  @Query(() => QuizObject, {
    nullable: true,
    description: rootFieldDescription(getQuizOperation),
  })
  async getQuiz(
    @Arg('quizId', () => ID) quizId: string,
    @Ctx() context: GraphQLContext,
  ): Promise<QuizObject> {
    return toQuizObject(await resolveOperation(getQuizOperation, context, { quizId }));
  }

  @Mutation(() => QuizObject, {
    nullable: true,
    description: rootFieldDescription(addQuizOperation),
  })
  async addQuiz(
    @Arg('quiz', () => QuizInput) quiz: QuizInput,
    @Ctx() context: GraphQLContext,
  ): Promise<QuizObject> {
    return toQuizObject(
      await resolveOperation(addQuizOperation, context, { quiz: plainInput(quiz) }),
    );
  }

  @Query(() => ItemAttributeObject, {
    nullable: true,
    description: rootFieldDescription(getQuizAttributeOperation),
  })
  async getQuizAttribute(
    @Arg('quizId', () => ID) quizId: string,
    @Arg('attributeName', () => String) attributeName: string,
    @Ctx() context: GraphQLContext,
  ): Promise<ItemAttributeObject> {
    return toItemAttributeObject(
      await resolveOperation(getQuizAttributeOperation, context, { quizId, attributeName }),
    );
  }
}

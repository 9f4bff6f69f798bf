import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import type { ItemAttribute } from '../../../services/attributes/item-attribute';
import { getQuizAttribute } from '../../../services/quizzes/quiz-attribute.service';
import { getUser, getUserAttribute } from '../../../services/users/user-read.service';
import { parseId } from '../../ids';
import { serializeItemAttribute } from '../../rest/serializers/attribute.serializer';
import { describedWithCost } from '../../operation-costs';
import { forOperation, type GraphQLContext } from '../graphql.context';
import { ItemAttributeObject } from '../types/item-attribute.type';
import { toUserType, UserType } from '../types/user.type';

/** The attribute as REST sends it (ids as strings, legacy dates), so both transports agree. */
function toItemAttributeObject(attribute: ItemAttribute): ItemAttributeObject {
  const wire = serializeItemAttribute(attribute);
  return {
    itemType: String(wire.itemType),
    itemId: String(wire.itemId),
    itemName: String(wire.itemName),
    itemValue: wire.itemValue,
  };
}

@Resolver()
export class UserResolver {
  @Query(() => UserType, {
    nullable: true,
    description: describedWithCost(
      'getUser',
      'One user; details only where the requester may see them.',
    ),
  })
  async getUser(
    @Arg('userId', () => ID) userId: string,
    @Ctx() context: GraphQLContext,
  ): Promise<UserType> {
    const ctx = forOperation(context, 'getUser');
    return toUserType(await getUser(ctx, parseId(ctx.operation, 'userId', userId)));
  }

  @Query(() => ItemAttributeObject, {
    nullable: true,
    description: describedWithCost(
      'getUserAttribute',
      'firstName, lastName, pictureURL, or the computed popularity or influence (needs a token).',
    ),
  })
  async getUserAttribute(
    @Arg('userId', () => ID) userId: string,
    @Arg('attributeName', () => String) attributeName: string,
    @Ctx() context: GraphQLContext,
  ): Promise<ItemAttributeObject> {
    const ctx = forOperation(context, 'getUserAttribute');
    return toItemAttributeObject(
      await getUserAttribute(ctx, parseId(ctx.operation, 'userId', userId), attributeName),
    );
  }

  @Query(() => ItemAttributeObject, {
    nullable: true,
    description: describedWithCost(
      'getQuizAttribute',
      'A Quiz field, or the computed nbSessions, nbPlayers or nbFavorites.',
    ),
  })
  async getQuizAttribute(
    @Arg('quizId', () => ID) quizId: string,
    @Arg('attributeName', () => String) attributeName: string,
    @Ctx() context: GraphQLContext,
  ): Promise<ItemAttributeObject> {
    const ctx = forOperation(context, 'getQuizAttribute');
    return toItemAttributeObject(
      await getQuizAttribute(ctx, parseId(ctx.operation, 'quizId', quizId), attributeName),
    );
  }
}

import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import { rootFieldDescription } from '../../operations/operation-catalog';
import { getUserAttributeOperation, getUserOperation } from '../../operations/user.operation';
import { resolveOperation, type GraphQLContext } from '../execution/graphql.context';
import { ItemAttributeObject, toItemAttributeObject } from '../types/item-attribute.type';
import { toUserType, UserType } from '../types/user.type';

/** getUser and getUserAttribute: the catalog's operations, their views as objects. */
@Resolver()
export class UserResolver {
  @Query(() => UserType, {
    nullable: true,
    description: rootFieldDescription(getUserOperation),
  })
  async getUser(
    @Arg('userId', () => ID) userId: string,
    @Ctx() context: GraphQLContext,
  ): Promise<UserType> {
    return toUserType(await resolveOperation(getUserOperation, context, { userId }));
  }

  @Query(() => ItemAttributeObject, {
    nullable: true,
    description: rootFieldDescription(getUserAttributeOperation),
  })
  async getUserAttribute(
    @Arg('userId', () => ID) userId: string,
    @Arg('attributeName', () => String) attributeName: string,
    @Ctx() context: GraphQLContext,
  ): Promise<ItemAttributeObject> {
    return toItemAttributeObject(
      await resolveOperation(getUserAttributeOperation, context, { userId, attributeName }),
    );
  }
}

import { Field, ID, ObjectType } from 'type-graphql';
import type { UserView } from '../../../services/users/user.views';
import type { RootFieldOutputs } from './root-field.outputs';

@ObjectType('User', {
  simpleResolvers: true,
  description: 'A user. Names and picture are null where the requester may not see them.',
})
export class UserType {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { nullable: true })
  firstName!: string | null;

  @Field(() => String, { nullable: true })
  lastName!: string | null;

  @Field(() => String, { nullable: true })
  pictureURL!: string | null;
}

/** The view as the GraphQL object: details the requester may not see read null. */
export function toUserType(view: UserView): UserType {
  return Object.assign(new UserType(), {
    id: String(view.id),
    firstName: view.details?.firstName ?? null,
    lastName: view.details?.lastName ?? null,
    pictureURL: view.details?.pictureUrl ?? null,
  });
}

/** The root fields that answer with these types. */
export const USER_ROOT_FIELDS: RootFieldOutputs = {
  getUser: { type: () => UserType, from: toUserType },
};

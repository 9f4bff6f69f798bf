import { JSONResolver } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType('ItemAttribute', {
  simpleResolvers: true,
  description: 'One attribute of a user or a quiz; itemValue reads as the same field of REST.',
})
export class ItemAttributeObject {
  @Field(() => String, { description: 'user or quiz' })
  itemType!: string;

  @Field(() => ID)
  itemId!: string;

  @Field(() => String)
  itemName!: string;

  @Field(() => JSONResolver, { nullable: true })
  itemValue!: unknown;
}

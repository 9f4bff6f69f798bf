import { JSONResolver } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';
import type { ItemAttribute } from '../../../services/attributes/item-attribute';
import { serializeItemAttribute } from '../../operations/shapes/attribute.serializer';
import type { RootFieldOutputs } from './root-field.outputs';

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

/** The attribute as REST sends it (ids as strings, legacy dates), so both transports agree. */
export function toItemAttributeObject(attribute: ItemAttribute): ItemAttributeObject {
  const wire = serializeItemAttribute(attribute);
  return {
    itemType: String(wire.itemType),
    itemId: String(wire.itemId),
    itemName: String(wire.itemName),
    itemValue: wire.itemValue,
  };
}

/** The root fields that answer with these types. */
export const ATTRIBUTE_ROOT_FIELDS: RootFieldOutputs = {
  getUserAttribute: { type: () => ItemAttributeObject, from: toItemAttributeObject },
  getQuizAttribute: { type: () => ItemAttributeObject, from: toItemAttributeObject },
};

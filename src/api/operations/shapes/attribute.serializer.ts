import {
  isQuizFieldAttribute,
  type ItemAttribute,
} from '../../../services/attributes/item-attribute';
import { legacyId } from './legacy-format';
import { serializeQuiz } from './quiz.serializer';

/**
 * An ItemAttribute as legacy clients read it. A Quiz field goes through the Quiz serializer so
 * it reads exactly as in getQuiz; a field getQuiz leaves out (defaultDuration when none was
 * set) is null here, since an attribute always carries a value.
 */
export function serializeItemAttribute(attribute: ItemAttribute): Record<string, unknown> {
  const itemValue =
    attribute.itemType === 'quiz' && isQuizFieldAttribute(attribute)
      ? (serializeQuiz(attribute.quiz)[attribute.itemName] ?? null)
      : attribute.itemValue;
  return {
    itemType: attribute.itemType,
    itemId: legacyId(attribute.itemId),
    itemName: attribute.itemName,
    itemValue,
  };
}

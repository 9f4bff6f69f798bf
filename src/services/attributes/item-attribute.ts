import {
  QUIZ_FIELDS,
  QUIZ_PUBLIC_FIELDS,
  QUIZ_REQUESTER_FIELDS,
  type QuizFieldValues,
  type QuizView,
} from '../quizzes/quiz.views';

/**
 * ItemAttribute (contract.md §4): one named value of a user or a quiz. Shared by REST and
 * GraphQL; ids are numbers and values are domain values here, each transport formats them.
 */
export interface ItemAttributeOf<TType extends string, TName extends string, TValue> {
  itemType: TType;
  itemId: number;
  itemName: TName;
  itemValue: TValue;
}

/** User attributes shown only to requesters who may see the user's details. */
export const USER_DETAIL_ATTRIBUTES = ['firstName', 'lastName', 'pictureURL'] as const;
export type UserDetailAttributeName = (typeof USER_DETAIL_ATTRIBUTES)[number];

/** popularity: distinct users who answered the user's quizzes; influence: sessions they hosted. */
export const USER_COUNT_ATTRIBUTES = ['popularity', 'influence'] as const;
export type UserCountAttributeName = (typeof USER_COUNT_ATTRIBUTES)[number];

export const USER_ATTRIBUTE_NAMES = [...USER_DETAIL_ATTRIBUTES, ...USER_COUNT_ATTRIBUTES] as const;
export type UserAttributeName = (typeof USER_ATTRIBUTE_NAMES)[number];

export type UserAttribute =
  | ItemAttributeOf<'user', UserDetailAttributeName, string | null>
  | ItemAttributeOf<'user', UserCountAttributeName, number>;

export { QUIZ_FIELDS, QUIZ_PUBLIC_FIELDS, QUIZ_REQUESTER_FIELDS, type QuizFieldValues };

export type QuizPublicField = (typeof QUIZ_PUBLIC_FIELDS)[number];

export type QuizRequesterField = (typeof QUIZ_REQUESTER_FIELDS)[number];

export type QuizField = (typeof QUIZ_FIELDS)[number];

/** nbSessions: sessions that played the quiz; nbPlayers: distinct users who answered it; nbFavorites: users who flagged it. */
export const QUIZ_COUNT_ATTRIBUTES = ['nbSessions', 'nbPlayers', 'nbFavorites'] as const;
export type QuizCountAttributeName = (typeof QUIZ_COUNT_ATTRIBUTES)[number];

export const QUIZ_ATTRIBUTE_NAMES = [...QUIZ_FIELDS, ...QUIZ_COUNT_ATTRIBUTES] as const;
export type QuizAttributeName = (typeof QUIZ_ATTRIBUTE_NAMES)[number];

/**
 * A Quiz field. `quiz` is the whole view the value was taken from, so a transport can format
 * the field with its own Quiz serializer and read exactly as getQuiz does.
 */
export type QuizFieldAttributeOf<K extends QuizField> = ItemAttributeOf<
  'quiz',
  K,
  QuizFieldValues[K]
> & { quiz: QuizView };

export type QuizFieldAttribute = { [K in QuizField]: QuizFieldAttributeOf<K> }[QuizField];

export type QuizCountAttribute = ItemAttributeOf<'quiz', QuizCountAttributeName, number>;

export type QuizAttribute = QuizFieldAttribute | QuizCountAttribute;

export type ItemAttribute = UserAttribute | QuizAttribute;

function isOneOf<T extends string>(names: readonly T[], name: string): name is T {
  return (names as readonly string[]).includes(name);
}

export const isUserAttributeName = (name: string): name is UserAttributeName =>
  isOneOf(USER_ATTRIBUTE_NAMES, name);
export const isUserDetailAttributeName = (name: string): name is UserDetailAttributeName =>
  isOneOf(USER_DETAIL_ATTRIBUTES, name);
export const isQuizAttributeName = (name: string): name is QuizAttributeName =>
  isOneOf(QUIZ_ATTRIBUTE_NAMES, name);
export const isQuizField = (name: string): name is QuizField => isOneOf(QUIZ_FIELDS, name);
export const isQuizRequesterField = (name: string): name is QuizRequesterField =>
  isOneOf(QUIZ_REQUESTER_FIELDS, name);

export function isQuizFieldAttribute(attribute: QuizAttribute): attribute is QuizFieldAttribute {
  return 'quiz' in attribute;
}

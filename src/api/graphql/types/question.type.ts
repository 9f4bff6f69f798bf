import { Field, Float, Int, InterfaceType, ObjectType, registerEnumType } from 'type-graphql';
import { MEDIA_TYPES, type MediaType } from '../../../domain/questions/question-types';
import { QUESTION_TYPES, type QuestionType } from '../../../domain/questions/question-types';
import type { QuestionView } from '../../../services/quizzes/quiz.views';

const enumOf = <T extends string>(values: readonly T[]) =>
  Object.fromEntries(values.map((value) => [value, value])) as Record<T, T>;

export const QuestionKind = enumOf(QUESTION_TYPES);
registerEnumType(QuestionKind, { name: 'QuestionType', description: 'The five question types.' });

export const MediaKind = enumOf(MEDIA_TYPES);
registerEnumType(MediaKind, { name: 'MediaType' });

@ObjectType('Media', { simpleResolvers: true })
export class MediaObject {
  @Field(() => MediaKind)
  type!: MediaType;

  @Field(() => String)
  url!: string;
}

/** The GraphQL object type name of each question type. */
const OBJECT_TYPE: Record<QuestionType, string> = {
  MultipleChoicesOneGoodAnswer: 'MultipleChoicesOneGoodAnswerQuestion',
  MultipleChoicesSeveralGoodAnswers: 'MultipleChoicesSeveralGoodAnswersQuestion',
  TrueFalse: 'TrueFalseQuestion',
  FreeAnswerText: 'FreeAnswerTextQuestion',
  FreeAnswerNumber: 'FreeAnswerNumberQuestion',
};

/** The object type of a question, by its type (synchronous: graphql.schema.ts). */
export function questionTypeName(question: { type: QuestionType }): string {
  return OBJECT_TYPE[question.type];
}

@InterfaceType('Question', {
  description: 'A question of a quiz; goodAnswer is shown only to the quiz author.',
  resolveType: (question: QuestionObject) => questionTypeName(question),
})
export abstract class QuestionObject {
  @Field(() => Int, { description: '0-based place of the question in its quiz.' })
  position!: number;

  @Field(() => QuestionKind)
  type!: QuestionType;

  @Field(() => String)
  title!: string;

  @Field(() => MediaObject, { nullable: true })
  media!: MediaObject | null;
}

@ObjectType('MultipleChoicesOneGoodAnswerQuestion', {
  implements: QuestionObject,
  simpleResolvers: true,
})
export class MultipleChoicesOneGoodAnswerQuestion extends QuestionObject {
  @Field(() => [String])
  propositions!: string[];

  @Field(() => Int, { nullable: true, description: 'Index of the good proposition.' })
  goodAnswer!: number | null;
}

@ObjectType('MultipleChoicesSeveralGoodAnswersQuestion', {
  implements: QuestionObject,
  simpleResolvers: true,
})
export class MultipleChoicesSeveralGoodAnswersQuestion extends QuestionObject {
  @Field(() => [String])
  propositions!: string[];

  @Field(() => [Int], { nullable: true, description: 'Indexes of the good propositions.' })
  goodAnswer!: number[] | null;
}

@ObjectType('TrueFalseQuestion', { implements: QuestionObject, simpleResolvers: true })
export class TrueFalseQuestion extends QuestionObject {
  @Field(() => Boolean, { nullable: true })
  goodAnswer!: boolean | null;
}

@ObjectType('FreeAnswerTextQuestion', { implements: QuestionObject, simpleResolvers: true })
export class FreeAnswerTextQuestion extends QuestionObject {
  @Field(() => Int, {
    nullable: true,
    description: 'Percent of edit distance allowed; null in surveys.',
  })
  tolerance!: number | null;

  @Field(() => Boolean)
  caseSensitive!: boolean;

  @Field(() => String, { nullable: true })
  goodAnswer!: string | null;
}

@ObjectType('FreeAnswerNumberQuestion', { implements: QuestionObject, simpleResolvers: true })
export class FreeAnswerNumberQuestion extends QuestionObject {
  @Field(() => Int, {
    nullable: true,
    description: 'Percent of the good number allowed; null in surveys.',
  })
  tolerance!: number | null;

  @Field(() => Float, { nullable: true })
  goodAnswer!: number | null;
}

export const QUESTION_OBJECT_TYPES = [
  MultipleChoicesOneGoodAnswerQuestion,
  MultipleChoicesSeveralGoodAnswersQuestion,
  TrueFalseQuestion,
  FreeAnswerTextQuestion,
  FreeAnswerNumberQuestion,
];

/** A question view as the GraphQL object of its type; the same visibility as REST. */
export function toQuestionObject(view: QuestionView): QuestionObject & Record<string, unknown> {
  const goodAnswer =
    view.goodAnswer === undefined
      ? null
      : view.type === 'FreeAnswerNumber'
        ? Number(view.goodAnswer)
        : view.goodAnswer;
  return {
    position: view.position,
    type: view.type,
    title: view.title,
    media: view.media ?? null,
    propositions: view.propositions ?? [],
    tolerance: view.tolerance ?? null,
    caseSensitive: view.caseSensitive ?? false,
    goodAnswer,
  };
}

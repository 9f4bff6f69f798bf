import { JSONResolver } from 'graphql-scalars';
import { DateTimeScalar } from './date-time.scalar';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { QUIZ_LIMITS } from '../../../domain/quizzes/quiz-content.validator';
import { QUIZ_VISIBILITIES, type QuizVisibility } from '../../../domain/quizzes/quiz.rules';
import type { QuizView } from '../../../services/quizzes/quiz.views';
import type { MediaType } from '../../../domain/questions/question-types';
import { MediaKind, QuestionObject, toQuestionObject } from './question.type';
import { toUserType, UserType } from './user.type';
import type { RootFieldOutputs } from './root-field.outputs';

export const Visibility = Object.fromEntries(QUIZ_VISIBILITIES.map((v) => [v, v])) as Record<
  QuizVisibility,
  QuizVisibility
>;
registerEnumType(Visibility, { name: 'QuizVisibility' });

@ObjectType('Quiz', {
  simpleResolvers: true,
  description:
    'A quiz. defaultDuration, imported and favorite are null for an anonymous requester; imported and favorite are about the requester.',
})
export class QuizObject {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  title!: string;

  @Field(() => Visibility)
  visibility!: QuizVisibility;

  @Field(() => Boolean)
  survey!: boolean;

  @Field(() => [String])
  tags!: string[];

  @Field(() => DateTimeScalar)
  creationDate!: Date;

  @Field(() => DateTimeScalar)
  lastChangeDate!: Date;

  @Field(() => UserType)
  author!: UserType;

  @Field(() => Int)
  nbQuestions!: number;

  @Field(() => [QuestionObject])
  questions!: QuestionObject[];

  @Field(() => String, { nullable: true })
  defaultDuration!: string | null;

  @Field(() => Boolean, { nullable: true })
  imported!: boolean | null;

  @Field(() => Boolean, { nullable: true })
  favorite!: boolean | null;
}

/** The view as the GraphQL object: what REST leaves out reads null. */
export function toQuizObject(view: QuizView): QuizObject {
  return Object.assign(new QuizObject(), {
    id: String(view.id),
    title: view.title,
    visibility: view.visibility,
    survey: view.survey,
    tags: view.tags,
    creationDate: view.creationDate,
    lastChangeDate: view.lastChangeDate,
    author: toUserType(view.author),
    nbQuestions: view.nbQuestions,
    questions: view.questions.map(toQuestionObject),
    defaultDuration: view.requesterFields?.defaultDuration ?? null,
    imported: view.requesterFields?.imported ?? null,
    favorite: view.requesterFields?.favorite ?? null,
  });
}

@InputType('MediaInput')
export class MediaInput {
  @Field(() => MediaKind)
  type!: MediaType;

  @Field(() => String)
  url!: string;
}

/**
 * A question to add. Fields are loosely typed on purpose: the one validator of every write path
 * checks them, so addQuiz fails alike on GraphQL and REST (goodAnswer's type depends on `type`).
 */
const {
  titleLength,
  tags,
  tagLength,
  questions,
  questionTitleLength,
  propositions,
  propositionLength,
} = QUIZ_LIMITS;

@InputType('QuestionInput')
export class QuestionInput {
  @Field(() => String, {
    description: `${questionTitleLength.min} to ${questionTitleLength.max} characters.`,
  })
  title!: string;

  // Text, not the QuestionType enum: the legacy spellings are read as aliases (contract.md §4).
  @Field(() => String, {
    description: 'A question type, or one of its accepted aliases.',
  })
  type!: string;

  @Field(() => MediaInput, { nullable: true })
  media?: MediaInput;

  @Field(() => [String], {
    nullable: true,
    description: `Multiple choice: ${propositions.min} to ${propositions.max}, each of ${propositionLength.min} to ${propositionLength.max} characters.`,
  })
  propositions?: string[];

  @Field(() => JSONResolver, {
    nullable: true,
    description: 'Index, indexes, boolean, text or number.',
  })
  goodAnswer?: unknown;

  @Field(() => Int, { nullable: true })
  tolerance?: number;

  @Field(() => Boolean, { nullable: true })
  caseSensitive?: boolean;
}

@InputType('QuizInput', {
  description: 'addQuiz payload; the constraints are those of REST addQuiz.',
})
export class QuizInput {
  @Field(() => String, {
    description: `${titleLength.min} to ${titleLength.max} characters.`,
  })
  title!: string;

  @Field(() => Visibility)
  visibility!: QuizVisibility;

  @Field(() => Boolean)
  survey!: boolean;

  @Field(() => [String], {
    description: `${tags.min} to ${tags.max} distinct tags of ${tagLength.min} to ${tagLength.max} characters, without " or \\.`,
  })
  tags!: string[];

  @Field(() => [QuestionInput], {
    nullable: true,
    description: `At most ${questions.max} questions.`,
  })
  questions?: QuestionInput[];

  @Field(() => String, { nullable: true, description: 'H:M:S, M:S or S.' })
  defaultDuration?: string;

  @Field(() => Boolean, { nullable: true })
  favorite?: boolean;
}

/** The root fields that answer with these types. */
export const QUIZ_ROOT_FIELDS: RootFieldOutputs = {
  getQuiz: { type: () => QuizObject, from: toQuizObject },
  addQuiz: { type: () => QuizObject, from: toQuizObject },
};

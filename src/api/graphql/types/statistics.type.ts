import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import type {
  QuestionStatisticView,
  QuizStatisticView,
} from '../../../services/data-sets/data-set.views';
import {
  QUESTION_STATISTIC_FIELDS,
  QUIZ_STATISTIC_FIELDS,
  type StatisticField,
} from '../../../services/statistics/item-statistics.registry';
import { QuestionKind } from './question.type';
import { QuizObject } from './quiz.type';

/** The GraphQL objects of item analysis (contract.md §12), described from the registry. */

const described = (fields: readonly StatisticField[], name: string) =>
  fields.find((field) => field.name === name)?.description;
const question = (name: string) => ({ description: described(QUESTION_STATISTIC_FIELDS, name) });
const quiz = (name: string) => ({ description: described(QUIZ_STATISTIC_FIELDS, name) });

@ObjectType('QuestionStatistic', { simpleResolvers: true })
export class QuestionStatisticObject {
  @Field(() => ID, { description: 'Unique within its data set.' })
  id!: string;

  @Field(() => ID, question('quizId'))
  quizId!: string;

  @Field(() => QuizObject, {
    nullable: true,
    description: 'null where the requester may no longer read the quiz',
  })
  quiz!: QuizObject | null;

  @Field(() => Int, question('questionIndex'))
  questionIndex!: number;

  @Field(() => String, question('title'))
  title!: string;

  @Field(() => QuestionKind, question('type'))
  type!: string;

  @Field(() => Int, question('nbAttempts'))
  nbAttempts!: number;

  @Field(() => Int, question('nbAnswers'))
  nbAnswers!: number;

  @Field(() => Float, { nullable: true, ...question('facility') })
  facility!: number | null;

  @Field(() => Float, { nullable: true, ...question('discrimination') })
  discrimination!: number | null;

  @Field(() => [Int], { nullable: true, ...question('choiceCounts') })
  choiceCounts!: number[] | null;
}

@ObjectType('QuizStatistic', { simpleResolvers: true })
export class QuizStatisticObject {
  @Field(() => ID, { description: 'Unique within its data set.' })
  id!: string;

  /** Not a field: where its question statistics are kept. */
  dataSetId!: number;

  @Field(() => ID, quiz('quizId'))
  quizId!: string;

  @Field(() => QuizObject, {
    nullable: true,
    description: 'null where the requester may no longer read the quiz',
  })
  quiz!: QuizObject | null;

  @Field(() => Int, quiz('nbAttempts'))
  nbAttempts!: number;

  @Field(() => Float, { nullable: true, ...quiz('mean') })
  mean!: number | null;

  @Field(() => Float, { nullable: true, ...quiz('median') })
  median!: number | null;

  @Field(() => Float, { nullable: true, ...quiz('stddev') })
  stddev!: number | null;

  @Field(() => Float, { nullable: true, ...quiz('cronbachAlpha') })
  cronbachAlpha!: number | null;

  @Field(() => [Int], { nullable: true, ...quiz('histogram') })
  histogram!: number[] | null;

  @Field(() => [QuestionStatisticObject], {
    description:
      'The statistics of its questions, in question order, over the same user set, quiz set and sessions: computed when asked (one statement per page), so over the answers of the moment; needs those two sets unexpired.',
  })
  questions!: QuestionStatisticObject[];
}

export function toQuestionStatisticObject(view: QuestionStatisticView): QuestionStatisticObject {
  return Object.assign(new QuestionStatisticObject(), {
    ...view,
    id: String(view.id),
    quizId: String(view.quizId),
  });
}

export function toQuizStatisticObject(view: QuizStatisticView): QuizStatisticObject {
  return Object.assign(new QuizStatisticObject(), {
    ...view,
    id: String(view.id),
    quizId: String(view.quizId),
  });
}

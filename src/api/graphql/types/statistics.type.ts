import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import type {
  QuestionStatisticView,
  QuizStatisticView,
} from '../../../services/statistics/statistics.views';
import {
  QUESTION_STATISTIC_FIELDS,
  QUIZ_STATISTIC_FIELDS,
  type StatisticField,
} from '../../../services/statistics/item-statistics.registry';
import { QuestionKind } from './question.type';
import { globalItemId, ITEM_ID_DESCRIPTION, ITEM_NUMBER_DESCRIPTION } from './computed-result.type';
import { QuizObject } from './quiz.type';

/** The GraphQL objects of item analysis (contract.md §12), described from the registry. */

const described = (fields: readonly StatisticField[], name: string) =>
  fields.find((field) => field.name === name)?.description;
const question = (name: string) => ({ description: described(QUESTION_STATISTIC_FIELDS, name) });
const quiz = (name: string) => ({ description: described(QUIZ_STATISTIC_FIELDS, name) });

@ObjectType('QuestionStatistic', { simpleResolvers: true })
export class QuestionStatisticObject {
  @Field(() => ID, { description: ITEM_ID_DESCRIPTION })
  id!: string;

  @Field(() => ID, { description: ITEM_NUMBER_DESCRIPTION })
  itemId!: string;

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
  @Field(() => ID, { description: ITEM_ID_DESCRIPTION })
  id!: string;

  @Field(() => ID, { description: ITEM_NUMBER_DESCRIPTION })
  itemId!: string;

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

/** An item of questionStatistic set `dataSetId`. */
export function toQuestionStatisticObject(
  view: QuestionStatisticView,
  dataSetId: number,
): QuestionStatisticObject {
  return Object.assign(new QuestionStatisticObject(), {
    ...view,
    id: globalItemId(dataSetId, view.id),
    itemId: String(view.id),
    quizId: String(view.quizId),
  });
}

/**
 * The questions of item `quiz` of a quizStatistic set, which no set holds: numbered in their
 * list, identified by the quiz's item (`41:3:2`, set 41, item 3, its second question).
 */
export function toQuizQuestionStatisticObjects(
  quiz: QuizStatisticObject,
  views: readonly QuestionStatisticView[],
): QuestionStatisticObject[] {
  return views.map((view, index) =>
    Object.assign(new QuestionStatisticObject(), {
      ...view,
      id: globalItemId(quiz.id, index + 1),
      itemId: String(index + 1),
      quizId: String(view.quizId),
    }),
  );
}

export function toQuizStatisticObject(view: QuizStatisticView): QuizStatisticObject {
  return Object.assign(new QuizStatisticObject(), {
    ...view,
    id: globalItemId(view.dataSetId, view.id),
    itemId: String(view.id),
    quizId: String(view.quizId),
  });
}

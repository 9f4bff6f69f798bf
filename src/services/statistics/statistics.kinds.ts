import type { SetKind } from '../sets/set-kind';
import { QUESTION_STATISTIC_FIELDS, QUIZ_STATISTIC_FIELDS } from './item-statistics.registry';
import {
  questionStatisticItems,
  quizStatisticItems,
  type QuestionStatisticView,
  type QuizStatisticView,
} from './statistics.views';

/**
 * Sets of item analysis (getQuestionStatistics, getQuizStatistics): rows in question_statistics
 * and quiz_statistics, whose page columns are the registry's fields (item-statistics.registry).
 */

export const QUESTION_STATISTIC_KIND: SetKind<QuestionStatisticView> = {
  itemType: 'questionStatistic',
  membersTable: 'question_statistics',
  pageColumns: ['position', ...QUESTION_STATISTIC_FIELDS.map((field) => field.column)],
  members: 'rows',
  combinable: { refusedAs: 'sets of question statistics' },
  items: (_ctx, page) => Promise.resolve(questionStatisticItems(page.resultRows)),
};

export const QUIZ_STATISTIC_KIND: SetKind<QuizStatisticView> = {
  itemType: 'quizStatistic',
  membersTable: 'quiz_statistics',
  pageColumns: ['position', ...QUIZ_STATISTIC_FIELDS.map((field) => field.column)],
  members: 'rows',
  combinable: { refusedAs: 'sets of quiz statistics' },
  items: (_ctx, page) => Promise.resolve(quizStatisticItems(page.dataSetId, page.resultRows)),
};

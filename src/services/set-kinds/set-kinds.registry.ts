import type { DataSetItemType } from '../../domain/data-sets/item-types';
import { QUIZ_SET_KIND, USER_GROUP_SET_KIND, USER_SET_KIND } from '../data-sets/id-set.kinds';
import { COMPUTED_RESULT_KIND } from '../results/computed-result.kind';
import { registerSetKinds, type SetKind } from '../sets/set-kind';
import { QUESTION_STATISTIC_KIND, QUIZ_STATISTIC_KIND } from '../statistics/statistics.kinds';
import type { ComputedResultView } from '../results/computed-result.views';
import type { QuestionStatisticView, QuizStatisticView } from '../statistics/statistics.views';
import type { QuizView } from '../quizzes/quiz.views';
import type { UserView } from '../users/user.views';
import type { UserGroupView } from '../data-sets/id-set.views';

/**
 * The registry of data set kinds, one per item type, each declared by the service that makes its
 * sets. Importing this module registers them with the set engine (services/sets), which imports
 * no kind: the composition roots (app, CLI) import it, and so does every module that shows pages.
 */

/** The item of each item type, as its kind shows it. */
export interface SetItems {
  user: UserView;
  quiz: QuizView;
  userGroup: UserGroupView;
  computedResult: ComputedResultView;
  questionStatistic: QuestionStatisticView;
  quizStatistic: QuizStatisticView;
}

export const DATA_SET_KINDS: { readonly [K in DataSetItemType]: SetKind<SetItems[K]> } = {
  user: USER_SET_KIND,
  quiz: QUIZ_SET_KIND,
  userGroup: USER_GROUP_SET_KIND,
  computedResult: COMPUTED_RESULT_KIND,
  questionStatistic: QUESTION_STATISTIC_KIND,
  quizStatistic: QUIZ_STATISTIC_KIND,
};

registerSetKinds(Object.values(DATA_SET_KINDS));

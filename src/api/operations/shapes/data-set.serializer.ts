import type {
  ComputedResultView,
  DataSetPageView,
  QuestionStatisticView,
  QuizStatisticView,
  UserGroupView,
} from '../../../services/set-kinds/data-set.views';
import {
  QUESTION_STATISTIC_FIELDS,
  QUIZ_STATISTIC_FIELDS,
  type StatisticField,
} from '../../../services/statistics/item-statistics.registry';
import type { DataSetItemsView } from '../../../services/set-kinds/data-set-export.service';
import { legacyId } from './legacy-format';
import { serializeQuiz, serializeUser } from './quiz.serializer';

export function serializeUserGroup(group: UserGroupView): Record<string, unknown> {
  return { id: legacyId(group.id), name: group.name, nbMembers: group.nbMembers };
}

const idOrNull = (id: number | null) => (id === null ? null : legacyId(id));

/** A ComputedResult by shape (contract.md §4): ids as strings, one number per result type. */
export function serializeComputedResult(result: ComputedResultView): Record<string, unknown> {
  const json: Record<string, unknown> = { id: legacyId(result.id) };
  if (result.shape === 'detailed') {
    json.userId = idOrNull(result.userId);
    json.quizId = idOrNull(result.quizId);
    json.sessionId = idOrNull(result.sessionId);
  } else {
    if (result.shape === 'byUser') json.userId = idOrNull(result.userId);
    else json.quizId = idOrNull(result.quizId);
    json.aggregationFunction = result.aggregationFunction;
  }
  for (const { type, value } of result.values) json[type] = value;
  return json;
}

/** A statistic item (contract.md §12): its id and the quiz's as strings, then the registry's fields. */
export function serializeStatistic(
  item: QuestionStatisticView | QuizStatisticView,
  fields: readonly StatisticField[],
): Record<string, unknown> {
  const values = item as unknown as Record<string, unknown>;
  const json: Record<string, unknown> = { id: legacyId(item.id) };
  for (const field of fields) {
    json[field.name] = field.name === 'quizId' ? legacyId(item.quizId) : values[field.name];
  }
  return json;
}

/** The legacy JSON of items of one item type: a page's, or a chunk of an export. */
export function serializeDataSetItems(page: DataSetItemsView): Record<string, unknown>[] {
  switch (page.itemType) {
    case 'user':
      return page.items.map(serializeUser);
    case 'quiz':
      return page.items.map(serializeQuiz);
    case 'userGroup':
      return page.items.map(serializeUserGroup);
    case 'computedResult':
      return page.items.map(serializeComputedResult);
    case 'questionStatistic':
      return page.items.map((item) => serializeStatistic(item, QUESTION_STATISTIC_FIELDS));
    case 'quizStatistic':
      return page.items.map((item) => serializeStatistic(item, QUIZ_STATISTIC_FIELDS));
  }
}

/** The DataSetPage envelope (spec §2.3), fields in the legacy order. */
export function serializeDataSetPage(page: DataSetPageView): Record<string, unknown> {
  return {
    dataSetId: legacyId(page.dataSetId),
    itemType: page.itemType,
    numberOfPages: page.numberOfPages,
    numberOfItemsPerPage: page.numberOfItemsPerPage,
    totalNumberOfItems: page.totalNumberOfItems,
    items: serializeDataSetItems(page),
    currentPageIndex: page.currentPageIndex,
  };
}

import { toNumber } from '../../db/sql/dialect';
import type { ResultRow } from '../sets/data-set.types';
import {
  countsOf,
  QUESTION_STATISTIC_FIELDS,
  QUIZ_STATISTIC_FIELDS,
  type StatisticField,
} from './item-statistics.registry';

/** The items of item analysis sets, for both transports (contract.md §12). */

export interface QuestionStatisticView {
  /** Unique within its set: its position. */
  id: number;
  quizId: number;
  questionIndex: number;
  title: string;
  type: string;
  nbAttempts: number;
  nbAnswers: number;
  facility: number | null;
  discrimination: number | null;
  choiceCounts: number[] | null;
}

export interface QuizStatisticView {
  id: number;
  /** The set it belongs to: its quizzes' question statistics are kept there too. */
  dataSetId: number;
  quizId: number;
  nbAttempts: number;
  mean: number | null;
  median: number | null;
  stddev: number | null;
  cronbachAlpha: number | null;
  histogram: number[] | null;
}

function fieldValue(field: StatisticField, stored: unknown): unknown {
  switch (field.value) {
    case 'integer':
      return toNumber(stored);
    case 'number':
      return stored === null || stored === undefined ? null : toNumber(stored);
    case 'text':
      return String(stored ?? '');
    case 'counts':
      return countsOf(stored);
  }
}

function fieldsOf(fields: readonly StatisticField[], row: ResultRow): Record<string, unknown> {
  return Object.fromEntries(
    fields.map((field) => [field.name, fieldValue(field, row[field.column])]),
  );
}

/** Rows of question_statistics (position and the registry's columns) as items. */
export function questionStatisticItems(rows: readonly ResultRow[]): QuestionStatisticView[] {
  return rows.map(
    (row) =>
      ({
        id: toNumber(row.position),
        ...fieldsOf(QUESTION_STATISTIC_FIELDS, row),
      }) as QuestionStatisticView,
  );
}

/** Rows of quiz_statistics of set `dataSetId` as items. */
export function quizStatisticItems(
  dataSetId: number,
  rows: readonly ResultRow[],
): QuizStatisticView[] {
  return rows.map(
    (row) =>
      ({
        id: toNumber(row.position),
        dataSetId,
        ...fieldsOf(QUIZ_STATISTIC_FIELDS, row),
      }) as QuizStatisticView,
  );
}

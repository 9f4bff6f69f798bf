import { toNumber } from '../../db/sql/dialect';
import type { DataSetPage, ResultRow } from '../sets/data-set.types';
import { storedResultsShape, type StoredResultsShape } from './result-parameters';
import { resultTypeDefinition, type ResultType } from '../../domain/results/result-types.registry';

/** The items of computed results sets, stored or read live, for both transports (contract.md §7). */

/** One computed result; `shape` says which of userId / quizId / sessionId it carries. */
export interface ComputedResultView {
  /** Unique within its set: its position. */
  id: number;
  shape: 'detailed' | 'byUser' | 'byQuiz';
  userId: number | null;
  quizId: number | null;
  sessionId: number | null;
  aggregationFunction: string | null;
  /** One value per requested result type, in the requested order. */
  values: { type: ResultType; value: number | null }[];
}

/**
 * Computed results of the page (its rows were read with it), shaped by what the set was asked
 * for (data_sets.parameters, see resultsParametersJson): the requested result types in their
 * order, and detailed or grouped by user or quiz. Without readable parameters: nbGoodAnswers,
 * grouping read from the row.
 */
export function computedResultItems(
  page: Pick<DataSetPage, 'resultRows' | 'parameters'>,
): ComputedResultView[] {
  return resultRowItems(page.resultRows, storedResultsShape(page.parameters));
}

/**
 * Rows of the results query (stored, or selected on their own) as computed results of `stored`'s
 * shape; without one, nbGoodAnswers, grouping read from each row.
 */
export function resultRowItems(
  rows: readonly ResultRow[],
  stored: StoredResultsShape | undefined,
): ComputedResultView[] {
  const resultTypes: ResultType[] = stored?.resultTypes ?? ['nbGoodAnswers'];
  const numberOrNull = (value: unknown) =>
    value === null || value === undefined ? null : toNumber(value);
  return rows.map((row) => {
    const aggregationFunction =
      typeof row.aggregation_function === 'string' ? row.aggregation_function : null;
    const userId = numberOrNull(row.user_id);
    const groupBy = stored
      ? stored.groupBy
      : aggregationFunction === null
        ? null
        : userId !== null
          ? 'user'
          : 'quiz';
    const shape = groupBy === null ? 'detailed' : groupBy === 'user' ? 'byUser' : 'byQuiz';
    return {
      // Unique within the set: its position.
      id: toNumber(row.position),
      shape,
      userId,
      quizId: numberOrNull(row.quiz_id),
      sessionId: numberOrNull(row.session_id),
      aggregationFunction,
      values: resultTypes.map((type) => ({
        type,
        value: numberOrNull(row[resultTypeDefinition(type).column]),
      })),
    };
  });
}

import type { AggregationFunction } from './aggregation-functions.registry';
import type { ResultType } from './result-types.registry';

/**
 * A checked getResults request (contract.md §7): what the parameter parser gives
 * (services/results/result-parameters.ts) and the results query is built from (src/db/sql).
 */

export const GROUP_BY = ['user', 'quiz'] as const;
export type GroupBy = (typeof GROUP_BY)[number];

export const INCLUDE_QUIZZES = ['answered', 'all'] as const;
export type IncludeQuizzes = (typeof INCLUDE_QUIZZES)[number];

/** Aggregated results: the functions in the order asked, per user or per quiz. */
export interface Aggregation {
  functions: AggregationFunction[];
  groupBy: GroupBy;
}

/** A checked request; also what data_sets.parameters records (with the two set ids). */
export interface ResultsRequest {
  userSetId: number;
  quizSetId: number;
  /** In the order asked, without repeats. */
  resultTypes: ResultType[];
  /** Absent: detailed results (one item per attempt). */
  aggregation: Aggregation | null;
  includeQuizzes: IncludeQuizzes;
  /** Absent: every session. */
  sessionIds: number[] | null;
}

/** A results request before its two sets are named (getSessionResults makes them). */
export type ResultsOptions = Omit<ResultsRequest, 'userSetId' | 'quizSetId'>;

import type { AggregationFunction } from './aggregation-functions.registry';

/**
 * The registry of result types (contract.md §7): each statistic of an attempt is defined here
 * once. The parameter parser takes its names from here, the SQL builder its measures and
 * expressions, the set store and the views its computed_results column, and the API's enums
 * and documentation its names. A new result type is one entry here; outside, only what declares
 * one column or field per type: its computed_results column (entity and migrations) and its
 * field of the GraphQL ComputedResult type.
 */

/**
 * The SQL functions whose spelling differs between databases that a measure or a value may
 * call: the database layer's Dialect (src/db/sql/dialect.ts) is one.
 */
export interface ResultSqlDialect {
  /** Whole seconds from one datetime expression to another. */
  secondsBetween(fromSql: string, toSql: string): string;
}

/**
 * What the answers of one attempt (one user, one quiz, one session) give, computed once per
 * attempt whatever the result types that read it. Every measure is an aggregate over the
 * attempt's answers `a` (answers columns: good, answered_at, ...).
 */
export interface AttemptMeasure {
  /** Its column in the attempts stage. */
  column: string;
  sql(dialect: ResultSqlDialect): string;
  /** Its value in a zero attempt (includeQuizzes=all: a pair without any answer). */
  zero: string;
}

export const ATTEMPT_MEASURES = {
  nbGood: {
    column: 'nb_good',
    sql: () => 'SUM(CASE WHEN a.good = 1 THEN 1 ELSE 0 END)',
    zero: '0',
  },
  nbAnswers: { column: 'nb_answers', sql: () => 'COUNT(*)', zero: '0' },
  // Whole seconds from the first answer to the last.
  duration: {
    column: 'duration',
    sql: (dialect) => dialect.secondsBetween('MIN(a.answered_at)', 'MAX(a.answered_at)'),
    zero: '0',
  },
} as const satisfies Record<string, AttemptMeasure>;

export type AttemptMeasureName = keyof typeof ATTEMPT_MEASURES;

export interface ResultTypeDefinition {
  /** As in the contract, on both transports. */
  name: string;
  /** Its column in computed_results (a DOUBLE). */
  column: string;
  /** The measures its value reads. */
  measures: readonly AttemptMeasureName[];
  /**
   * Its value for one attempt, as a DOUBLE (`+ 0e0`, `1e2`: MySQL would otherwise divide
   * DECIMALs to 4 places), over the attempt row `t` (the measures' columns, user_id, quiz_id,
   * session_id) among all the attempts of the request, real and zero; window functions over
   * them are allowed. With `readsQuiz`, `q` is the attempt's row of quizzes.
   */
  value(dialect: ResultSqlDialect): string;
  readsQuiz?: boolean;
  /**
   * A score (contract.md §7): surveys have none, so its value is null for an attempt on a survey
   * quiz, real or zero, and aggregates of it ignore those attempts (see valueSql).
   */
  scored?: boolean;
  /** An aggregation that differs from the generic one (aggregation-functions.registry.ts), over `x`. */
  aggregate?: Partial<Record<AggregationFunction, (x: string) => string>>;
}

export const RESULT_TYPE_DEFINITIONS = [
  // Good answers of the attempt.
  {
    name: 'nbGoodAnswers',
    column: 'nb_good_answers',
    measures: ['nbGood'],
    value: () => 't.nb_good + 0e0',
    scored: true,
  },
  // 100 × nbGoodAnswers / nbQuestions of the quiz.
  {
    name: 'goodAnswersPercent',
    column: 'good_answers_percent',
    measures: ['nbGood'],
    value: () => 'CASE WHEN q.nb_questions > 0 THEN 1e2 * t.nb_good / q.nb_questions ELSE 0e0 END',
    readsQuiz: true,
    scored: true,
  },
  // 100 × (B + E/2) / N among the N attempts on the quiz.
  {
    name: 'percentile',
    column: 'percentile',
    measures: ['nbGood'],
    // B attempts below (RANK − 1), E tied (itself included), N on the quiz.
    value: () => `1e2 * (2 * (RANK() OVER (PARTITION BY t.quiz_id ORDER BY t.nb_good) - 1)
                      + COUNT(*) OVER (PARTITION BY t.quiz_id, t.nb_good))
                 / (2 * COUNT(*) OVER (PARTITION BY t.quiz_id))`,
    // A survey's attempts rank among themselves only (one quiz per partition): all null.
    scored: true,
  },
  // Questions answered in the attempt.
  {
    name: 'nbAnswers',
    column: 'nb_answers',
    measures: ['nbAnswers'],
    value: () => 't.nb_answers + 0e0',
  },
  // Seconds from the first answer of the attempt to its last.
  {
    name: 'duration',
    column: 'duration',
    measures: ['duration'],
    value: () => 't.duration + 0e0',
  },
] as const satisfies readonly ResultTypeDefinition[];

export type ResultType = (typeof RESULT_TYPE_DEFINITIONS)[number]['name'];

/** The names, in registry order (the order of the API's enums). */
export const RESULT_TYPES: readonly ResultType[] = RESULT_TYPE_DEFINITIONS.map((type) => type.name);

/** The registry, each entry as a ResultTypeDefinition. */
export const RESULT_TYPE_REGISTRY: readonly ResultTypeDefinition[] = RESULT_TYPE_DEFINITIONS;

const BY_NAME = new Map(RESULT_TYPE_REGISTRY.map((type) => [type.name, type]));

export function resultTypeDefinition(name: ResultType): ResultTypeDefinition {
  return BY_NAME.get(name) as ResultTypeDefinition;
}

export function isResultType(name: unknown): name is ResultType {
  return typeof name === 'string' && BY_NAME.has(name);
}

/** Whether the type's value reads the attempt's row of quizzes `q`: its own reads, or a score's survey flag. */
export function readsQuiz(type: ResultTypeDefinition): boolean {
  return Boolean(type.readsQuiz || type.scored);
}

/**
 * The type's value for one attempt `t`, as the results query selects it: a score is null on a
 * survey quiz (contract.md §7), decided here once rather than by each score's expression.
 */
export function valueSql(type: ResultTypeDefinition, dialect: ResultSqlDialect): string {
  const value = type.value(dialect);
  return type.scored ? `CASE WHEN q.survey = 1 THEN NULL ELSE ${value} END` : value;
}

/** Every result column of computed_results, in registry order. */
export const RESULT_COLUMNS: readonly string[] = RESULT_TYPE_REGISTRY.map((type) => type.column);

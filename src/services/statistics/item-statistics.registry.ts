/**
 * The registry of item analysis statistics (contract.md §12): every field of a questionStatistic
 * and of a quizStatistic, once, with its column in the members table and how its value is read.
 * The set kinds take their page columns from here, the views their fields, the REST reference
 * and the exports their lists; the SQL that computes them is src/db/sql/statistics.sql.ts.
 */

/** How a stored value becomes the field's value. */
export type StatisticValue =
  /** An id, or a count: a number, never null. */
  | 'integer'
  /** A rounded number, or null. */
  | 'number'
  | 'text'
  /** A JSON array of counts kept as text, or null. */
  | 'counts';

export interface StatisticField {
  /** As on both transports. */
  name: string;
  /** Its column in the members table. */
  column: string;
  value: StatisticValue;
  description: string;
}

export const QUESTION_STATISTIC_FIELDS = [
  { name: 'quizId', column: 'quiz_id', value: 'integer', description: 'the quiz' },
  {
    name: 'questionIndex',
    column: 'question_index',
    value: 'integer',
    description: '0-based place of the question in its quiz',
  },
  { name: 'title', column: 'title', value: 'text', description: 'the question, when computed' },
  { name: 'type', column: 'type', value: 'text', description: 'its question type' },
  {
    name: 'nbAttempts',
    column: 'nb_attempts',
    value: 'integer',
    description: 'attempts of the quiz counted',
  },
  {
    name: 'nbAnswers',
    column: 'nb_answers',
    value: 'integer',
    description: 'answers to the question in those attempts',
  },
  {
    name: 'facility',
    column: 'facility',
    value: 'number',
    description:
      '100 × good answers / attempts (unanswered counted as wrong); null without attempts or in a survey',
  },
  {
    name: 'discrimination',
    column: 'discrimination',
    value: 'number',
    description:
      "Pearson correlation between the question's score (0/1) and the rest of the attempt's score; null when either has no variance, or in a survey",
  },
  {
    name: 'choiceCounts',
    column: 'choice_counts',
    value: 'counts',
    description:
      'multiple choice: how many answers chose each proposition, by index; null for other types, and in a survey counted over fewer attempts than SURVEY_MIN_RESPONSES (default 5)',
  },
] as const satisfies readonly StatisticField[];

export const QUIZ_STATISTIC_FIELDS = [
  { name: 'quizId', column: 'quiz_id', value: 'integer', description: 'the quiz' },
  {
    name: 'nbAttempts',
    column: 'nb_attempts',
    value: 'integer',
    description: 'attempts of the quiz counted',
  },
  {
    name: 'mean',
    column: 'mean',
    value: 'number',
    description: 'mean goodAnswersPercent of the attempts; null without attempts or for a survey',
  },
  {
    name: 'median',
    column: 'median',
    value: 'number',
    description: 'median goodAnswersPercent (the mean of the two middle ones for an even count)',
  },
  {
    name: 'stddev',
    column: 'stddev',
    value: 'number',
    description: 'population standard deviation of goodAnswersPercent',
  },
  {
    name: 'cronbachAlpha',
    column: 'cronbach_alpha',
    value: 'number',
    description:
      'k/(k−1) × (1 − Σ question score variances / variance of the totals); null below 2 attempts or 2 questions, without variance, or for a survey',
  },
  {
    name: 'histogram',
    column: 'histogram',
    value: 'counts',
    description:
      'attempts by goodAnswersPercent in [0,10), [10,20) … [90,100]: 10 counts; null for a survey',
  },
] as const satisfies readonly StatisticField[];

export type QuestionStatisticField = (typeof QUESTION_STATISTIC_FIELDS)[number]['name'];
export type QuizStatisticField = (typeof QUIZ_STATISTIC_FIELDS)[number]['name'];

/** Counts kept as a JSON array of integers; anything else reads as null. */
export function countsOf(stored: unknown): number[] | null {
  if (typeof stored !== 'string') return null;
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) && parsed.every((n) => Number.isInteger(n))
      ? (parsed as number[])
      : null;
  } catch {
    return null;
  }
}

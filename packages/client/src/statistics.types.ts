/** Item analysis (contract.md §12): the items of getQuestionStatistics and getQuizStatistics. */

/** One question of a quiz of the quiz set; numbers rounded to 2 decimals. */
export interface QuestionStatistic {
  /** Unique within its set. */
  id: string;
  quizId: string;
  /** 0-based place of the question in its quiz. */
  questionIndex: number;
  title: string;
  type: string;
  nbAttempts: number;
  nbAnswers: number;
  /** 100 × good answers / attempts; null without attempts or in a survey. */
  facility: number | null;
  /** Correlation of the question's score with the rest of the attempt's; null without variance. */
  discrimination: number | null;
  /**
   * Multiple choice: answers that chose each proposition, by index; null otherwise, and in a
   * survey answered in fewer attempts than the service's minimum (SURVEY_MIN_RESPONSES).
   */
  choiceCounts: number[] | null;
}

/** One quiz of the quiz set; numbers rounded to 2 decimals, null without attempts or for a survey. */
export interface QuizStatistic {
  id: string;
  quizId: string;
  nbAttempts: number;
  mean: number | null;
  median: number | null;
  stddev: number | null;
  /** null below 2 attempts or 2 questions. */
  cronbachAlpha: number | null;
  /** Attempts by goodAnswersPercent in [0,10), [10,20) … [90,100]. */
  histogram: number[] | null;
}

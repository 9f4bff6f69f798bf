import type { WireSchema } from './wire.types';

/**
 * Item analysis (contract.md §12): the items of getQuestionStatistics and getQuizStatistics, as
 * the service sends them (the generated wire types; their fields are documented there).
 */

/** One question of a quiz of the quiz set; numbers rounded to 2 decimals. */
export type QuestionStatistic = WireSchema<'QuestionStatistic'>;

/** One quiz of the quiz set; numbers rounded to 2 decimals, null without attempts or for a survey. */
export type QuizStatistic = WireSchema<'QuizStatistic'>;

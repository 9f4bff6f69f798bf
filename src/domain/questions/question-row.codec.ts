import type {
  GoodAnswer,
  MediaType,
  QuestionType,
  ScorableQuestion,
  ValidQuestion,
} from './question-types';
import { scorable } from './question-types';

/**
 * A question as its table stores it: the same fields as a ValidQuestion, with the lists and the
 * good answer as JSON text (no JSON column type runs alike on MariaDB and SQLite, and the keyword
 * search reads the propositions as text). Every writer encodes with this module and every reader
 * decodes with it, so the stored form is decided once.
 */
export interface QuestionRow {
  position: number;
  type: QuestionType;
  title: string;
  mediaType: MediaType | null;
  mediaUrl: string | null;
  /** JSON array of strings for the multiple-choice types, else null. */
  propositions: string | null;
  /** JSON of the normalised good answer (index, indexes, boolean, text, decimal text); null in surveys. */
  goodAnswer: string | null;
  tolerance: number | null;
  caseSensitive: boolean | null;
}

const toJson = (value: unknown): string | null => (value === null ? null : JSON.stringify(value));

export function encodeQuestionRow(question: ValidQuestion): QuestionRow {
  return {
    position: question.position,
    type: question.type,
    title: question.title,
    mediaType: question.mediaType,
    mediaUrl: question.mediaUrl,
    propositions: toJson(question.propositions),
    goodAnswer: toJson(question.goodAnswer),
    tolerance: question.tolerance,
    caseSensitive: question.caseSensitive,
  };
}

/** The question a stored row holds; rows are only written by encodeQuestionRow, so trusted. */
export function decodeQuestionRow(row: QuestionRow): ValidQuestion {
  return {
    position: row.position,
    type: row.type,
    title: row.title,
    mediaType: row.mediaType,
    mediaUrl: row.mediaUrl,
    propositions: row.propositions === null ? null : (JSON.parse(row.propositions) as string[]),
    goodAnswer: row.goodAnswer === null ? null : (JSON.parse(row.goodAnswer) as GoodAnswer),
    tolerance: row.tolerance,
    caseSensitive: row.caseSensitive,
  };
}

/** What scoring needs of a stored question, e.g. to score an answer written later. */
export function scorableRow(row: QuestionRow): ScorableQuestion {
  return scorable(decodeQuestionRow(row));
}

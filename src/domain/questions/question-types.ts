export const QUESTION_TYPES = [
  'MultipleChoicesOneGoodAnswer',
  'MultipleChoicesSeveralGoodAnswers',
  'TrueFalse',
  'FreeAnswerText',
  'FreeAnswerNumber',
] as const;

export type QuestionType = (typeof QUESTION_TYPES)[number];

/** Other spellings accepted on input (the legacy contract has typos that clients still send). */
export const QUESTION_TYPE_ALIASES: Readonly<Record<string, QuestionType>> = Object.freeze({
  MultipleChoicesOneGoodAnwer: 'MultipleChoicesOneGoodAnswer',
  MultipleChoicesSeveralGoodAnwers: 'MultipleChoicesSeveralGoodAnswers',
  MCQOneGoodAnswer: 'MultipleChoicesOneGoodAnswer',
  MCQSeveralGoodAnswers: 'MultipleChoicesSeveralGoodAnswers',
});

function isCanonicalQuestionType(input: string): input is QuestionType {
  return (QUESTION_TYPES as readonly string[]).includes(input);
}

export function normalizeQuestionType(input: unknown): QuestionType | undefined {
  if (typeof input !== 'string') return undefined;
  if (isCanonicalQuestionType(input)) return input;
  // Own properties only, so names like "toString" or "__proto__" never resolve through the prototype.
  return Object.prototype.hasOwnProperty.call(QUESTION_TYPE_ALIASES, input)
    ? QUESTION_TYPE_ALIASES[input]
    : undefined;
}

export const TOLERANCES = [0, 5, 20, 30] as const;

export type Tolerance = (typeof TOLERANCES)[number];

/** Good answer as stored: index, array of indexes, boolean, string, or a number kept as a canonical decimal string (e.g. "0.75", "-12", "3.5") */
export type GoodAnswer = number | number[] | boolean | string;

/** Kinds of media a question may show (contract.md §4). */
export const MEDIA_TYPES = ['video', 'youtube', 'image', 'sound', 'document'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

export interface ScorableQuestion {
  type: QuestionType;
  goodAnswer: GoodAnswer | null; // null for a survey question
  tolerance?: number | null;
  caseSensitive?: boolean | null;
  nbPropositions?: number | null; // for the two multiple-choice types
}

/** A question as every write path accepts it, once validated (see quiz-content.validator.ts). */
export interface ValidQuestion {
  position: number;
  type: QuestionType;
  title: string;
  mediaType: MediaType | null;
  mediaUrl: string | null;
  propositions: string[] | null;
  /** Normalised by checkGoodAnswer (numbers as canonical decimal strings); null in surveys. */
  goodAnswer: GoodAnswer | null;
  tolerance: number | null;
  caseSensitive: boolean | null;
}

/** What scoring needs of a validated question. */
export function scorable(question: ValidQuestion): ScorableQuestion {
  return {
    type: question.type,
    goodAnswer: question.goodAnswer,
    tolerance: question.tolerance,
    caseSensitive: question.caseSensitive,
    nbPropositions: question.propositions?.length ?? null,
  };
}

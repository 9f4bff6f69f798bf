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

export interface ScorableQuestion {
  type: QuestionType;
  goodAnswer: GoodAnswer | null; // null for a survey question
  tolerance?: number | null;
  caseSensitive?: boolean | null;
  nbPropositions?: number | null; // for the two multiple-choice types
}

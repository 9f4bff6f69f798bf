import {
  MEDIA_TYPES,
  QUESTION_TYPES,
  TOLERANCES,
  normalizeQuestionType,
  type GoodAnswer,
  type MediaType,
  type QuestionType,
  type ScorableQuestion,
  type ValidQuestion,
} from '../questions/question-types';
import { checkGoodAnswer } from '../questions/scoring';
import {
  absent,
  array,
  describe,
  fail,
  fields,
  httpUrl,
  missing,
  oneOf,
  optionalArray,
  optionalBoolean,
  requiredBoolean,
  text,
  type Fields,
} from '../validation/checks';
import { QUIZ_VISIBILITIES, type QuizVisibility } from './quiz.rules';

/**
 * The content of a quiz as every write path accepts it (contract.md §4): the import file and
 * addQuiz on both transports validate with these functions, so a rule lives in one place.
 */

export interface QuizContent {
  title: string;
  visibility: QuizVisibility;
  survey: boolean;
  tags: string[];
  defaultDuration: string | null;
  questions: ValidQuestion[];
}

const MULTIPLE_CHOICE_TYPES: readonly QuestionType[] = [
  'MultipleChoicesOneGoodAnswer',
  'MultipleChoicesSeveralGoodAnswers',
];
const FREE_ANSWER_TYPES: readonly QuestionType[] = ['FreeAnswerText', 'FreeAnswerNumber'];
// H:M:S, M:S or S; minutes and seconds after a colon stay below 60.
export const DURATION_PATTERN = /^\d{1,6}(?::[0-5]?\d){0,2}$/;
/**
 * The bounds of a quiz's content (contract.md §4, and §11's spirit for the counts the contract
 * leaves open: more would make a quiz nobody plays, and they bound the work of one request).
 * Counts are checked before any element is looked at; the OpenAPI document and the SDL read them.
 */
export const QUIZ_LIMITS = {
  titleLength: { min: 3, max: 250 },
  tags: { min: 2, max: 20 },
  tagLength: { min: 1, max: 100 },
  questions: { max: 200 },
  questionTitleLength: { min: 1, max: 250 },
  propositions: { min: 2, max: 10 },
  propositionLength: { min: 1, max: 250 },
} as const;

/** Validates the fields of a quiz's content found in `record`; `path` prefixes every error path. */
export function validateQuizContent(record: Fields, path: string): QuizContent {
  const { min, max } = QUIZ_LIMITS.titleLength;
  const title = text(record.title, `${path}.title`, min, max);
  const visibility = oneOf(record.visibility, QUIZ_VISIBILITIES, `${path}.visibility`);
  const survey = requiredBoolean(record.survey, `${path}.survey`);
  const quizTags = validTags(record.tags, `${path}.tags`);
  let defaultDuration: string | null = null;
  if (!absent(record.defaultDuration)) {
    const duration = record.defaultDuration;
    defaultDuration =
      typeof duration === 'string' && DURATION_PATTERN.test(duration)
        ? duration
        : fail(`${path}.defaultDuration`, `expected H:M:S, M:S or S, got ${describe(duration)}`);
  }
  const rawQuestions = optionalArray(record.questions, `${path}.questions`);
  if (rawQuestions.length > QUIZ_LIMITS.questions.max) {
    fail(
      `${path}.questions`,
      `expected at most ${QUIZ_LIMITS.questions.max} questions, got ${rawQuestions.length}`,
    );
  }
  const questions = rawQuestions.map((raw, position) =>
    validQuestion(raw, `${path}.questions[${position}]`, position, survey),
  );
  return { title, visibility, survey, tags: quizTags, defaultDuration, questions };
}

function validTags(value: unknown, path: string): string[] {
  if (value === undefined) missing(path);
  const { min, max } = QUIZ_LIMITS.tags;
  const items = array(value, path);
  if (items.length > max) fail(path, `expected at most ${max} tags, got ${items.length}`);
  const seen = new Set<string>();
  const tags = items.map((item, position) => {
    const tag = text(
      item,
      `${path}[${position}]`,
      QUIZ_LIMITS.tagLength.min,
      QUIZ_LIMITS.tagLength.max,
    );
    if (/["\\]/.test(tag)) fail(`${path}[${position}]`, 'a tag cannot contain " or \\');
    if (seen.has(tag)) fail(`${path}[${position}]`, `duplicate tag "${tag}"`);
    seen.add(tag);
    return tag;
  });
  if (tags.length < min) fail(path, `expected at least ${min} distinct tags, got ${tags.length}`);
  return tags;
}

function validQuestion(
  raw: unknown,
  path: string,
  position: number,
  survey: boolean,
): ValidQuestion {
  const record = fields(raw, path);
  const { min, max } = QUIZ_LIMITS.questionTitleLength;
  const title = text(record.title, `${path}.title`, min, max);
  const type =
    normalizeQuestionType(record.type) ??
    fail(
      `${path}.type`,
      `expected one of ${QUESTION_TYPES.join(', ')}, got ${describe(record.type)}`,
    );
  const media = absent(record.media) ? null : validMedia(record.media, `${path}.media`);
  const propositions = validPropositions(record.propositions, `${path}.propositions`, type);
  const caseSensitivePath = `${path}.caseSensitive`;
  const caseSensitive =
    onlyFor(type, ['FreeAnswerText'], record.caseSensitive, caseSensitivePath) &&
    !absent(record.caseSensitive)
      ? optionalBoolean(record.caseSensitive, caseSensitivePath, false)
      : null;
  const tolerance = validTolerance(
    record.tolerance,
    `${path}.tolerance`,
    type,
    survey,
    caseSensitive,
  );
  const scorable: ScorableQuestion = {
    type,
    goodAnswer: null,
    tolerance,
    caseSensitive,
    nbPropositions: propositions?.length ?? null,
  };
  let goodAnswer: GoodAnswer | null = null;
  const goodPath = `${path}.goodAnswer`;
  if (survey) {
    if (!absent(record.goodAnswer)) fail(goodPath, 'a survey question has no goodAnswer');
  } else {
    if (absent(record.goodAnswer)) missing(goodPath);
    const check = checkGoodAnswer(scorable, record.goodAnswer);
    goodAnswer = check.ok ? check.value : fail(goodPath, check.reason);
  }
  return {
    position,
    type,
    title,
    mediaType: media?.type ?? null,
    mediaUrl: media?.url ?? null,
    propositions,
    goodAnswer,
    tolerance,
    caseSensitive,
  };
}

/** True when the field is given for a type that has it; given for another type it is refused. */
function onlyFor(
  type: QuestionType,
  types: readonly QuestionType[],
  value: unknown,
  path: string,
): boolean {
  if (types.includes(type)) return true;
  if (!absent(value)) fail(path, `only ${types.join(' and ')} questions have this field`);
  return false;
}

function validMedia(value: unknown, path: string): { type: MediaType; url: string } {
  const record = fields(value, path);
  return {
    type: oneOf(record.type, MEDIA_TYPES, `${path}.type`),
    url: httpUrl(record.url, `${path}.url`),
  };
}

function validPropositions(value: unknown, path: string, type: QuestionType): string[] | null {
  if (!MULTIPLE_CHOICE_TYPES.includes(type)) {
    // An empty list on another type says the same as no list.
    if (Array.isArray(value) && value.length === 0) return null;
    onlyFor(type, MULTIPLE_CHOICE_TYPES, value, path);
    return null;
  }
  if (value === undefined) missing(path);
  const items = array(value, path);
  const { min, max } = QUIZ_LIMITS.propositions;
  if (items.length < min || items.length > max) {
    fail(path, `expected ${min} to ${max} propositions, got ${items.length}`);
  }
  const length = QUIZ_LIMITS.propositionLength;
  return items.map((item, position) => text(item, `${path}[${position}]`, length.min, length.max));
}

function validTolerance(
  value: unknown,
  path: string,
  type: QuestionType,
  survey: boolean,
  caseSensitive: boolean | null,
): number | null {
  if (absent(value)) return null;
  if (survey) fail(path, 'a survey question has no tolerance');
  onlyFor(type, FREE_ANSWER_TYPES, value, path);
  if (typeof value !== 'number' || !(TOLERANCES as readonly number[]).includes(value)) {
    fail(path, `expected one of ${TOLERANCES.join(', ')}, got ${describe(value)}`);
  }
  if (caseSensitive === true && value !== 0) fail(path, 'must be 0 when caseSensitive is true');
  return value;
}

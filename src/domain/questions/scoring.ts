import { normalizeQuestionType } from './question-types';
import type { GoodAnswer, QuestionType, ScorableQuestion } from './question-types';

/**
 * The one place that decides whether an answer is well formed and whether it is good
 * (contract.md §4): checkGoodAnswer for a quiz's good answers, gradeAnswer for every answer that
 * is stored (the import, addAnswers), scoreAnswer for a value alone (the generator, the tests).
 */

export type AnswerCheck = { ok: true; value: GoodAnswer } | { ok: false; reason: string };

/** An answer checked and scored: `value` is what is stored, `good` null for a survey question. */
export type GradedAnswer =
  { ok: true; value: GoodAnswer; good: boolean | null } | { ok: false; reason: string };

type Check<T extends GoodAnswer> = { ok: true; value: T } | { ok: false; reason: string };

const MAX_TEXT_LENGTH = 250;
const MAX_DECIMAL_DIGITS = 8;
const DECIMAL_SCALE = 10n ** BigInt(MAX_DECIMAL_DIGITS);

// Optional sign, up to 8 digits, optional '.' or ',' mark followed by up to 8 digits.
const DECIMAL_PATTERN = /^([+-]?)([0-9]{0,8})(?:[.,]([0-9]{0,8}))?$/;

const NUMBER_REASON =
  'expected a decimal number with at most 8 digits before and 8 after the decimal mark';

// Read once here, not as the global `Math` in the edit-distance loops: under jest each test file
// runs in a vm context, whose globals are looked up through a slow interceptor on every access
// (5,000 answers of 250 characters took 30 s there, and under a second in plain Node).
const { max, min } = Math;

function ok<T extends GoodAnswer>(value: T): Check<T> {
  return { ok: true, value };
}

function fail<T extends GoodAnswer>(reason: string): Check<T> {
  return { ok: false, reason };
}

/** Plain (non-exponent) decimal text of a finite number, using its shortest round-trip form. */
function numberToPlainText(input: number): string | undefined {
  const text = String(input);
  const match = /^(-?)([0-9])(?:\.([0-9]+))?e([+-][0-9]+)$/.exec(text);
  if (!match) return text;
  const [, sign = '', lead = '', rest = '', exponentText = '0'] = match;
  const digits = lead + rest;
  const point = 1 + Number(exponentText);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

export function parseDecimal(input: unknown): string | undefined {
  let text: string | undefined;
  if (typeof input === 'number') {
    text = Number.isFinite(input) ? numberToPlainText(input) : undefined;
  } else if (typeof input === 'string') {
    text = input.trim();
  }
  if (text === undefined) return undefined;
  const match = DECIMAL_PATTERN.exec(text);
  if (!match) return undefined;
  const [, sign = '', integerDigits = '', fractionDigits = ''] = match;
  if (integerDigits === '' && fractionDigits === '') return undefined;
  const integerPart = integerDigits.replace(/^0+/, '') || '0';
  const fractionPart = fractionDigits.replace(/0+$/, '');
  const magnitude = fractionPart === '' ? integerPart : `${integerPart}.${fractionPart}`;
  if (magnitude === '0') return '0';
  return sign === '-' ? `-${magnitude}` : magnitude;
}

/** Canonical decimal string -> exact integer scaled by 10^8. */
function toScaled(canonical: string): bigint {
  const negative = canonical.startsWith('-');
  const [integerPart = '0', fractionPart = ''] = (negative ? canonical.slice(1) : canonical).split(
    '.',
  );
  const scaled = BigInt(integerPart + fractionPart.padEnd(MAX_DECIMAL_DIGITS, '0'));
  return negative ? -scaled : scaled;
}

function absolute(value: bigint): bigint {
  return value < 0n ? -value : value;
}

function codePointLength(text: string): number {
  return Array.from(text).length;
}

/** True when the string has more than `max` code points; cheap length checks first since a code point is 1 or 2 UTF-16 units. */
function exceedsCodePoints(text: string, max: number): boolean {
  if (text.length <= max) return false;
  if (text.length > 2 * max) return true;
  return codePointLength(text) > max;
}

function knownPropositionCount(question: ScorableQuestion): number | undefined {
  const count = question.nbPropositions;
  return typeof count === 'number' && Number.isSafeInteger(count) && count >= 0 ? count : undefined;
}

function indexReason(nbPropositions: number | undefined): string {
  if (nbPropositions === undefined) return 'expected a non-negative integer index';
  if (nbPropositions === 0) return 'the question has no propositions to choose from';
  return `expected an index between 0 and ${nbPropositions - 1}`;
}

function isIndex(value: unknown, nbPropositions: number | undefined): value is number {
  return (
    typeof value === 'number' &&
    Number.isSafeInteger(value) &&
    value >= 0 &&
    (nbPropositions === undefined || value < nbPropositions)
  );
}

function checkIndex(value: unknown, nbPropositions: number | undefined): Check<number> {
  return isIndex(value, nbPropositions) ? ok(value) : fail(indexReason(nbPropositions));
}

function checkIndexes(
  value: unknown,
  nbPropositions: number | undefined,
  atLeastOne: boolean,
): Check<number[]> {
  if (!Array.isArray(value)) return fail('expected an array of indexes');
  const seen = new Set<number>();
  // Indexed loop rather than forEach so holes in sparse arrays are seen (as undefined).
  for (let position = 0; position < value.length; position += 1) {
    const item: unknown = value[position];
    if (!isIndex(item, nbPropositions)) {
      return fail(`${indexReason(nbPropositions)} for every element of the array`);
    }
    if (seen.has(item)) return fail(`index ${item} is given more than once`);
    seen.add(item);
  }
  if (atLeastOne && seen.size === 0) return fail('expected at least one index');
  return ok([...seen].sort((left, right) => left - right));
}

function checkBoolean(value: unknown): Check<boolean> {
  if (typeof value === 'boolean') return ok(value);
  if (value === 'true') return ok(true);
  if (value === 'false') return ok(false);
  return fail('expected true or false');
}

/** An answer text is kept as given: not blank (§4: 1 to 250 characters), at most 250 characters. */
function checkAnswerText(value: unknown): Check<string> {
  if (typeof value !== 'string') return fail('expected a text');
  if (value.trim() === '') return fail('expected a non-empty text');
  if (exceedsCodePoints(value, MAX_TEXT_LENGTH)) {
    return fail(`expected a text of at most ${MAX_TEXT_LENGTH} characters`);
  }
  return ok(value);
}

function checkGoodText(value: unknown): Check<string> {
  if (typeof value !== 'string') return fail('expected a text');
  const trimmed = value.trim();
  if (trimmed === '') return fail('expected a non-empty text');
  if (exceedsCodePoints(trimmed, MAX_TEXT_LENGTH)) {
    return fail(`expected a text of at most ${MAX_TEXT_LENGTH} characters`);
  }
  return ok(trimmed);
}

function checkNumber(value: unknown): Check<string> {
  const canonical = parseDecimal(value);
  return canonical === undefined ? fail(NUMBER_REASON) : ok(canonical);
}

function checkShape(
  type: QuestionType,
  question: ScorableQuestion,
  value: unknown,
  isGoodAnswer: boolean,
): AnswerCheck {
  switch (type) {
    case 'MultipleChoicesOneGoodAnswer':
      return checkIndex(value, knownPropositionCount(question));
    case 'MultipleChoicesSeveralGoodAnswers':
      return checkIndexes(value, knownPropositionCount(question), isGoodAnswer);
    case 'TrueFalse':
      return checkBoolean(value);
    case 'FreeAnswerText':
      return isGoodAnswer ? checkGoodText(value) : checkAnswerText(value);
    case 'FreeAnswerNumber':
      return checkNumber(value);
  }
}

export function checkAnswer(question: ScorableQuestion, answer: unknown): AnswerCheck {
  const type = normalizeQuestionType(question.type);
  if (type === undefined) return { ok: false, reason: 'unknown question type' };
  return checkShape(type, question, answer, false);
}

export function checkGoodAnswer(question: ScorableQuestion, goodAnswer: unknown): AnswerCheck {
  const type = normalizeQuestionType(question.type);
  if (type === undefined) return { ok: false, reason: 'unknown question type' };
  return checkShape(type, question, goodAnswer, true);
}

export function editDistance(a: string, b: string): number {
  let longer = Array.from(a);
  let shorter = Array.from(b);
  if (shorter.length > longer.length) [longer, shorter] = [shorter, longer];
  // Single row of the Levenshtein matrix, sized on the shorter string.
  const row: number[] = Array.from({ length: shorter.length + 1 }, (_, column) => column);
  for (let line = 1; line <= longer.length; line += 1) {
    let diagonal = line - 1;
    row[0] = line;
    for (let column = 1; column <= shorter.length; column += 1) {
      const above = row[column] ?? 0;
      const left = row[column - 1] ?? 0;
      const substitution = diagonal + (longer[line - 1] === shorter[column - 1] ? 0 : 1);
      row[column] = min(above + 1, left + 1, substitution);
      diagonal = above;
    }
  }
  return row[shorter.length] ?? 0;
}

/**
 * Whether the edit distance of `a` and `b` is at most `limit`, in O(length × limit): only the
 * band of the Levenshtein matrix within `limit` of its diagonal can hold such a path, and the
 * search stops as soon as a whole row of the band exceeds it. A batch of long text answers is
 * then scored in linear time, not in the square of their length.
 */
export function editDistanceWithin(a: string, b: string, limit: number): boolean {
  let longer = Array.from(a);
  let shorter = Array.from(b);
  if (shorter.length > longer.length) [longer, shorter] = [shorter, longer];
  const width = shorter.length;
  if (longer.length - width > limit) return false;
  // Any value above the limit stands for "too far"; cells outside the band hold it.
  const far = limit + 1;
  let previous = new Array<number>(width + 2).fill(far);
  let current = new Array<number>(width + 2).fill(far);
  for (let column = 0; column <= min(width, limit); column += 1) previous[column] = column;
  for (let line = 1; line <= longer.length; line += 1) {
    const from = max(1, line - limit);
    const to = min(width, line + limit);
    current[0] = line <= limit ? line : far;
    current[from - 1] = from === 1 ? (current[0] as number) : far;
    let best = from === 1 ? (current[0] as number) : far;
    for (let column = from; column <= to; column += 1) {
      const same = longer[line - 1] === shorter[column - 1];
      const value = min(
        (previous[column] as number) + 1,
        (current[column - 1] as number) + 1,
        (previous[column - 1] as number) + (same ? 0 : 1),
        far,
      );
      current[column] = value;
      if (value < best) best = value;
    }
    // The next row reads one cell past this band: it must read as too far, not as a stale value.
    current[to + 1] = far;
    if (best > limit) return false;
    [previous, current] = [current, previous];
  }
  return (previous[width] as number) <= limit;
}

/** Tolerance in percent, or 0 when absent or unusable. */
function tolerancePercent(tolerance: number | null | undefined): number {
  return typeof tolerance === 'number' && Number.isFinite(tolerance) && tolerance > 0
    ? tolerance
    : 0;
}

function numberMatches(
  answer: string,
  good: string,
  tolerance: number | null | undefined,
): boolean {
  const answerScaled = toScaled(answer);
  const goodScaled = toScaled(good);
  if (answerScaled === goodScaled) return true;
  const percent = parseDecimal(tolerancePercent(tolerance));
  if (percent === undefined || percent === '0') return false;
  // |a - g| * 100 <= t * |g|, every side scaled by 10^8 so the comparison is exact.
  return (
    absolute(answerScaled - goodScaled) * 100n * DECIMAL_SCALE <=
    toScaled(percent) * absolute(goodScaled)
  );
}

function textMatches(answer: string, good: string, question: ScorableQuestion): boolean {
  const caseSensitive = question.caseSensitive === true;
  const fold = (text: string): string => {
    const composed = text.trim().normalize('NFC');
    // Lower-casing can decompose characters, hence the second NFC pass.
    return caseSensitive ? composed : composed.toLowerCase().normalize('NFC');
  };
  const foldedAnswer = fold(answer);
  const foldedGood = fold(good);
  if (foldedAnswer === foldedGood) return true;
  const percent = caseSensitive ? 0 : tolerancePercent(question.tolerance);
  if (percent === 0) return false;
  // d * 100 <= percent * length, d an integer: d <= floor(percent * length / 100).
  const limit = Math.floor((percent * codePointLength(foldedGood)) / 100);
  return editDistanceWithin(foldedAnswer, foldedGood, limit);
}

function bothMatch<T extends GoodAnswer>(
  answer: Check<T>,
  good: Check<T>,
  matches: (answerValue: T, goodValue: T) => boolean,
): boolean {
  return answer.ok && good.ok && matches(answer.value, good.value);
}

export function scoreAnswer(question: ScorableQuestion, answer: unknown): boolean | null {
  const good: unknown = question.goodAnswer;
  if (good === null || good === undefined) return null;
  const type = normalizeQuestionType(question.type);
  if (type === undefined) return false;
  const nbPropositions = knownPropositionCount(question);
  switch (type) {
    case 'MultipleChoicesOneGoodAnswer':
      return bothMatch(
        checkIndex(answer, nbPropositions),
        checkIndex(good, nbPropositions),
        (a, g) => a === g,
      );
    case 'MultipleChoicesSeveralGoodAnswers':
      // Both sides come back sorted and duplicate-free, so element-wise comparison is set equality.
      return bothMatch(
        checkIndexes(answer, nbPropositions, false),
        checkIndexes(good, nbPropositions, true),
        (a, g) => a.length === g.length && a.every((index, position) => index === g[position]),
      );
    case 'TrueFalse':
      return bothMatch(checkBoolean(answer), checkBoolean(good), (a, g) => a === g);
    case 'FreeAnswerNumber':
      return bothMatch(checkNumber(answer), checkNumber(good), (a, g) =>
        numberMatches(a, g, question.tolerance),
      );
    case 'FreeAnswerText':
      return bothMatch(checkAnswerText(answer), checkGoodText(good), (a, g) =>
        textMatches(a, g, question),
      );
  }
}

/** Checks an answer against its question's type and scores the normalised value. */
export function gradeAnswer(question: ScorableQuestion, answer: unknown): GradedAnswer {
  const check = checkAnswer(question, answer);
  if (!check.ok) return check;
  // No object spread: the import grades millions of answers, and a literal is cheaper.
  return { ok: true, value: check.value, good: scoreAnswer(question, check.value) };
}

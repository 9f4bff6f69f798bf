import fc from 'fast-check';
import {
  checkAnswer,
  checkGoodAnswer,
  editDistance,
  editDistanceWithin,
  gradeAnswer,
  parseDecimal,
  scoreAnswer,
} from '../../src/domain/questions/scoring';
import type { AnswerCheck } from '../../src/domain/questions/scoring';
import { QUESTION_TYPES, normalizeQuestionType } from '../../src/domain/questions/question-types';
import type { GoodAnswer, ScorableQuestion } from '../../src/domain/questions/question-types';

const mcqOne = (
  goodAnswer: GoodAnswer | null,
  nbPropositions: number | null = 4,
): ScorableQuestion => ({
  type: 'MultipleChoicesOneGoodAnswer',
  goodAnswer,
  nbPropositions,
});

const mcqSeveral = (
  goodAnswer: GoodAnswer | null,
  nbPropositions: number | null = 4,
): ScorableQuestion => ({ type: 'MultipleChoicesSeveralGoodAnswers', goodAnswer, nbPropositions });

const trueFalse = (goodAnswer: GoodAnswer | null): ScorableQuestion => ({
  type: 'TrueFalse',
  goodAnswer,
});

const numberQuestion = (
  goodAnswer: GoodAnswer | null,
  tolerance?: number | null,
): ScorableQuestion => ({
  type: 'FreeAnswerNumber',
  goodAnswer,
  tolerance,
});

const textQuestion = (
  goodAnswer: GoodAnswer | null,
  options: { tolerance?: number | null; caseSensitive?: boolean | null } = {},
): ScorableQuestion => ({ type: 'FreeAnswerText', goodAnswer, ...options });

const reasonOf = (check: AnswerCheck): string | undefined => (check.ok ? undefined : check.reason);

/** `good` with its first `count` characters replaced by '#', i.e. exactly `count` substitutions away. */
const substituted = (good: string, count: number): string => '#'.repeat(count) + good.slice(count);

describe('scoreAnswer', () => {
  describe('MultipleChoicesOneGoodAnswer', () => {
    it.each<[unknown, boolean]>([
      [2, true],
      [0, false],
      [1, false],
      [3, false],
      // Badly shaped answers are wrong, never thrown.
      [4, false],
      [-1, false],
      [2.5, false],
      ['2', false],
      [[2], false],
      [null, false],
      [undefined, false],
    ])('good index 2, answer %p -> %p', (answer, expected) => {
      expect(scoreAnswer(mcqOne(2), answer)).toBe(expected);
    });

    it('accepts any non-negative index when the number of propositions is unknown', () => {
      expect(scoreAnswer(mcqOne(12, null), 12)).toBe(true);
      expect(scoreAnswer(mcqOne(12, null), 11)).toBe(false);
    });
  });

  describe('MultipleChoicesSeveralGoodAnswers', () => {
    it.each<[unknown, boolean]>([
      [[0, 2], true],
      [[2, 0], true],
      [[0], false],
      [[2], false],
      [[0, 1, 2], false],
      [[1, 3], false],
      [[], false],
      [[0, 0, 2], false],
      [[0, 2, 4], false],
      [[0, '2'], false],
      ['0,2', false],
      [2, false],
    ])('good [0, 2], answer %p -> %p', (answer, expected) => {
      expect(scoreAnswer(mcqSeveral([0, 2]), answer)).toBe(expected);
    });

    it('compares sets whatever the order of the stored good answer', () => {
      expect(scoreAnswer(mcqSeveral([3, 1, 0]), [0, 1, 3])).toBe(true);
      expect(scoreAnswer(mcqSeveral([3, 1, 0]), [3, 0, 1])).toBe(true);
      expect(scoreAnswer(mcqSeveral([3, 1, 0]), [3, 1])).toBe(false);
    });
  });

  describe('TrueFalse', () => {
    it.each<[boolean, unknown, boolean]>([
      [true, true, true],
      [true, false, false],
      [false, false, true],
      [false, true, false],
      [true, 'true', true],
      [false, 'false', true],
      [true, 'false', false],
      [true, 1, false],
      [true, 'yes', false],
      [true, null, false],
    ])('good %p, answer %p -> %p', (good, answer, expected) => {
      expect(scoreAnswer(trueFalse(good), answer)).toBe(expected);
    });
  });

  describe('FreeAnswerNumber', () => {
    it.each<[string, number | null | undefined, unknown, boolean]>([
      // tolerance 0 (and absent): exact value only, any spelling of it
      ['100', 0, '100', true],
      ['100', 0, 100, true],
      ['100', 0, '100.0', true],
      ['100', 0, '0100,00', true],
      ['100', 0, '100.00000001', false],
      ['100', 0, '99.99999999', false],
      ['100', null, '100', true],
      ['100', null, '100.00000001', false],
      ['100', undefined, '100', true],
      ['100', undefined, '101', false],
      // tolerance 5: [95, 105]
      ['100', 5, '95', true],
      ['100', 5, '105', true],
      ['100', 5, '94.99999999', false],
      ['100', 5, '105.00000001', false],
      ['100', 5, 102.5, true],
      // tolerance 20: [80, 120]
      ['100', 20, '80', true],
      ['100', 20, '120', true],
      ['100', 20, '79.99999999', false],
      ['100', 20, '120.00000001', false],
      // tolerance 30: [70, 130]
      ['100', 30, '70', true],
      ['100', 30, '130', true],
      ['100', 30, '69.99999999', false],
      ['100', 30, '130.00000001', false],
      // negative good numbers: the interval is around -200
      ['-200', 5, '-190', true],
      ['-200', 5, '-210', true],
      ['-200', 5, '-189.99999999', false],
      ['-200', 5, '-210.00000001', false],
      ['-200', 5, '200', false],
      ['-12', 0, '-12', true],
      ['-12', 0, '12', false],
      // good 0: no tolerance can widen zero
      ['0', 30, '0', true],
      ['0', 30, '-0', true],
      ['0', 30, '0.00000001', false],
      ['0', 30, '-0.00000001', false],
      // boundaries where floating point would get it wrong (0.9 - 0.75 > 0.15 in doubles)
      ['0.75', 20, '0.6', true],
      ['0.75', 20, '0.9', true],
      ['0.75', 20, 0.9, true],
      ['0.75', 20, '0.59999999', false],
      ['0.75', 20, '0.90000001', false],
      ['3.3', 30, '2.31', true],
      ['3.3', 30, '4.29', true],
      ['3.3', 30, '4.29000001', false],
      ['0.3', 0, '0.3', true],
      // comma decimals and surrounding white space
      ['0.75', 0, '0,75', true],
      ['0.75', 0, '  0,75  ', true],
      ['100', 5, ' \t105\n', true],
      ['3.5', 0, '+3,50', true],
      // badly shaped answers are wrong
      ['100', 30, 'abc', false],
      ['100', 30, '1e2', false],
      ['100', 30, '100 000', false],
      ['100', 30, '', false],
      ['100', 30, null, false],
      ['100', 30, Number.NaN, false],
      ['0.3', 30, 0.1 + 0.2, false], // 17 fractional digits: more precision than the contract allows
    ])('good %p, tolerance %p, answer %p -> %p', (good, tolerance, answer, expected) => {
      expect(scoreAnswer(numberQuestion(good, tolerance), answer)).toBe(expected);
    });

    it('normalises a good answer that was stored as a JS number or with a comma', () => {
      expect(scoreAnswer(numberQuestion(100, 5), '105')).toBe(true);
      expect(scoreAnswer(numberQuestion('0,5', 0), 0.5)).toBe(true);
    });

    it('scores a badly stored good number as wrong instead of throwing', () => {
      expect(scoreAnswer(numberQuestion('not a number', 5), '1')).toBe(false);
    });
  });

  describe('FreeAnswerText', () => {
    it.each<
      [string, { tolerance?: number | null; caseSensitive?: boolean | null }, unknown, boolean]
    >([
      ['Paris', {}, 'Paris', true],
      ['Paris', {}, 'Lyon', false],
      ['Paris', {}, 'Pari', false],
      ['Paris', {}, 'Pa ris', false],
      // surrounding white space is ignored on both sides
      ['Paris', {}, '  Paris\n', true],
      ['  Paris ', {}, 'Paris', true],
      // case rules
      ['Paris', {}, 'PARIS', true],
      ['Paris', { caseSensitive: false }, 'paris', true],
      ['Paris', { caseSensitive: null }, 'paris', true],
      ['Paris', { caseSensitive: true }, 'paris', false],
      ['Paris', { caseSensitive: true }, ' Paris ', true],
      // accents and Unicode normalisation
      ['Élève', {}, 'élève', true],
      ['Élève', {}, 'ÉLÈVE', true],
      ['Élève', { caseSensitive: true }, 'élève', false],
      ['Élève', { caseSensitive: true }, 'E\u0301le\u0300ve', true],
      ['Élève', {}, 'e\u0301le\u0300ve', true],
      ['Élève', {}, 'Eleve', false],
      ['Élève', { tolerance: 30 }, 'Elève', true], // 1 edit on 5 code points: 100 <= 150
      ['Élève', { tolerance: 30 }, 'Eleve', false], // 2 edits: 200 > 150
      // caseSensitive disables the tolerance
      ['Paris', { tolerance: 30 }, 'Pariss', true],
      ['Paris', { tolerance: 30, caseSensitive: true }, 'Pariss', false],
      ['Paris', { tolerance: 0 }, 'Pariss', false],
      ['Paris', { tolerance: null }, 'Pariss', false],
      // badly shaped answers are wrong
      ['Paris', {}, 42, false],
      ['Paris', {}, null, false],
      ['Paris', {}, '', false],
      ['Paris', { tolerance: 30 }, 'P'.repeat(251), false],
    ])('good %p, options %p, answer %p -> %p', (good, options, answer, expected) => {
      expect(scoreAnswer(textQuestion(good, options), answer)).toBe(expected);
    });

    const twenty = 'abcdefghijklmnopqrst';
    const forty = twenty + twenty.toUpperCase();
    const ten = 'abcdefghij';

    // distance * 100 <= tolerance * length, with strings built to sit exactly at the limit
    it.each<[number, string, number, boolean]>([
      [5, twenty, 1, true], // 100 <= 100
      [5, twenty, 2, false], // 200 > 100
      [5, forty, 2, true], // 200 <= 200
      [5, forty, 3, false],
      [5, twenty.slice(0, 19), 1, false], // 100 > 95
      [20, ten, 2, true], // 200 <= 200
      [20, ten, 3, false],
      [20, twenty, 4, true],
      [20, twenty, 5, false],
      [30, ten, 3, true], // 300 <= 300
      [30, ten, 4, false],
      [30, twenty, 6, true],
      [30, twenty, 7, false],
    ])('tolerance %p, good %p, %p substitutions -> %p', (tolerance, good, edits, expected) => {
      const answer = substituted(good, edits);
      expect(editDistance(answer.toLowerCase(), good.toLowerCase())).toBe(edits);
      expect(scoreAnswer(textQuestion(good, { tolerance }), answer)).toBe(expected);
    });

    it('measures the tolerance on trimmed, case-folded strings', () => {
      const answer = `  #${twenty.slice(1).toUpperCase()} `;
      expect(scoreAnswer(textQuestion(twenty, { tolerance: 5 }), answer)).toBe(true);
      expect(scoreAnswer(textQuestion(twenty, { tolerance: 5, caseSensitive: true }), answer)).toBe(
        false,
      );
    });

    it('counts edits and length in code points, not UTF-16 units', () => {
      // One emoji replacing one letter is a single edit (two in UTF-16 units, which would be 200 > 100).
      expect(
        scoreAnswer(textQuestion(twenty, { tolerance: 5 }), `\u{1F600}${twenty.slice(1)}`),
      ).toBe(true);
      expect(
        scoreAnswer(textQuestion(twenty, { tolerance: 5 }), `\u{1F600}\u{1F600}${twenty.slice(2)}`),
      ).toBe(false);
    });
  });

  describe('survey questions (no good answer)', () => {
    it.each<[string, ScorableQuestion, unknown]>([
      ['MCQ one', mcqOne(null), 1],
      ['MCQ several', mcqSeveral(null), [0, 1]],
      ['true/false', trueFalse(null), true],
      ['number', numberQuestion(null, 5), '12'],
      ['text', textQuestion(null), 'anything'],
      ['text, badly shaped answer', textQuestion(null), 42],
    ])('%s scores null', (_label, question, answer) => {
      expect(scoreAnswer(question, answer)).toBeNull();
    });
  });

  it('accepts question type aliases and scores unknown types as wrong', () => {
    const aliased = { type: 'MCQOneGoodAnswer', goodAnswer: 1, nbPropositions: 3 };
    expect(scoreAnswer(aliased as unknown as ScorableQuestion, 1)).toBe(true);
    const unknownType = { type: 'Essay', goodAnswer: 'x' };
    expect(scoreAnswer(unknownType as unknown as ScorableQuestion, 'x')).toBe(false);
  });
});

describe('checkAnswer', () => {
  // A hole in the array must be rejected like undefined.
  const sparseIndexes: unknown[] = [0];
  sparseIndexes[2] = 2;

  it.each<[string, ScorableQuestion, unknown, GoodAnswer]>([
    ['MCQ one first index', mcqOne(1), 0, 0],
    ['MCQ one last index', mcqOne(1), 3, 3],
    ['MCQ one, unknown count', mcqOne(1, null), 99, 99],
    ['MCQ several sorted', mcqSeveral([1]), [3, 0, 2], [0, 2, 3]],
    ['MCQ several empty', mcqSeveral([1]), [], []],
    ['true', trueFalse(true), true, true],
    ['"false" string', trueFalse(true), 'false', false],
    ['"true" string', trueFalse(true), 'true', true],
    ['text kept as given', textQuestion('x'), '  Abc ', '  Abc '],
    ['250 character text', textQuestion('x'), 'a'.repeat(250), 'a'.repeat(250)],
    ['250 astral code points', textQuestion('x'), '\u{1F600}'.repeat(250), '\u{1F600}'.repeat(250)],
    ['number', numberQuestion('1'), 3, '3'],
    ['comma number', numberQuestion('1'), ' 0,750 ', '0.75'],
    ['negative number', numberQuestion('1'), '-012.50', '-12.5'],
  ])('%s: accepts %#', (_label, question, answer, expected) => {
    expect(checkAnswer(question, answer)).toEqual({ ok: true, value: expected });
  });

  it.each<[string, ScorableQuestion, unknown]>([
    ['MCQ one above range', mcqOne(1), 4],
    ['MCQ one negative', mcqOne(1), -1],
    ['MCQ one fractional', mcqOne(1), 1.5],
    ['MCQ one string', mcqOne(1), '1'],
    ['MCQ one NaN', mcqOne(1), Number.NaN],
    ['MCQ one null', mcqOne(1), null],
    ['MCQ one, no propositions', mcqOne(0, 0), 0],
    ['MCQ several not an array', mcqSeveral([1]), 1],
    ['MCQ several duplicates', mcqSeveral([1]), [1, 1]],
    ['MCQ several out of range', mcqSeveral([1]), [0, 4]],
    ['MCQ several wrong element type', mcqSeveral([1]), [0, '1']],
    ['MCQ several sparse', mcqSeveral([1]), sparseIndexes],
    ['true/false number', trueFalse(true), 1],
    ['true/false other string', trueFalse(true), 'TRUE'],
    ['empty text', textQuestion('x'), ''],
    ['blank text', textQuestion('x'), ' \t\n'],
    ['text too long', textQuestion('x'), 'a'.repeat(251)],
    ['text too many code points', textQuestion('x'), '\u{1F600}'.repeat(251)],
    ['text number', textQuestion('x'), 12],
    ['number garbage', numberQuestion('1'), 'abc'],
    ['number object', numberQuestion('1'), { value: 1 }],
    ['number boolean', numberQuestion('1'), true],
    ['number infinite', numberQuestion('1'), Number.POSITIVE_INFINITY],
  ])('%s: rejects with a reason', (_label, question, answer) => {
    const check = checkAnswer(question, answer);
    expect(check.ok).toBe(false);
    expect(reasonOf(check)).toMatch(/\S/);
  });

  it('states the allowed index range in the reason', () => {
    expect(reasonOf(checkAnswer(mcqOne(1), 4))).toBe('expected an index between 0 and 3');
    expect(reasonOf(checkAnswer(mcqSeveral([1]), [7]))).toContain('between 0 and 3');
  });
});

describe('checkGoodAnswer', () => {
  it.each<[string, ScorableQuestion, unknown, GoodAnswer]>([
    ['MCQ one', mcqOne(null), 3, 3],
    ['MCQ several sorted', mcqSeveral(null), [2, 0], [0, 2]],
    ['true/false string', trueFalse(null), 'false', false],
    ['text trimmed', textQuestion(null), '  Paris  ', 'Paris'],
    ['one character text', textQuestion(null), ' x ', 'x'],
    ['250 characters after trimming', textQuestion(null), ` ${'a'.repeat(250)} `, 'a'.repeat(250)],
    ['number', numberQuestion(null), 0.75, '0.75'],
    ['comma number', numberQuestion(null), '1,50', '1.5'],
    ['negative zero', numberQuestion(null), '-0.0', '0'],
  ])('%s: accepts and normalises', (_label, question, good, expected) => {
    expect(checkGoodAnswer(question, good)).toEqual({ ok: true, value: expected });
  });

  it.each<[string, ScorableQuestion, unknown]>([
    ['MCQ one out of range', mcqOne(null), 4],
    ['MCQ several empty', mcqSeveral(null), []],
    ['MCQ several duplicates', mcqSeveral(null), [1, 1]],
    ['true/false garbage', trueFalse(null), 'maybe'],
    ['empty text', textQuestion(null), ''],
    ['blank text', textQuestion(null), '   \n'],
    ['text too long after trimming', textQuestion(null), ` ${'a'.repeat(251)} `],
    ['number garbage', numberQuestion(null), '1.2.3'],
    ['number with 9 integer digits', numberQuestion(null), '123456789'],
    ['unknown type', { type: 'Essay', goodAnswer: null } as unknown as ScorableQuestion, 'x'],
  ])('%s: rejects with a reason', (_label, question, good) => {
    const check = checkGoodAnswer(question, good);
    expect(check.ok).toBe(false);
    expect(reasonOf(check)).toMatch(/\S/);
  });
});

describe('parseDecimal', () => {
  it.each<[unknown, string]>([
    ['0.75', '0.75'],
    ['0,75', '0.75'],
    ['-12', '-12'],
    ['3.5', '3.5'],
    ['+3.50', '3.5'],
    ['007', '7'],
    ['0', '0'],
    ['0.0', '0'],
    ['-0', '0'],
    ['-0,000', '0'],
    ['+0', '0'],
    ['5.', '5'],
    ['.5', '0.5'],
    ['-,5', '-0.5'],
    ['  42\t', '42'],
    ['\n-1,25 ', '-1.25'],
    ['12345678.12345678', '12345678.12345678'],
    ['-99999999.99999999', '-99999999.99999999'],
    ['0.00000001', '0.00000001'],
    [3.5, '3.5'],
    [-12, '-12'],
    [0, '0'],
    [-0, '0'],
    [1e-7, '0.0000001'],
    [-1.5e-7, '-0.00000015'],
    [99999999.5, '99999999.5'],
  ])('%p -> %p', (input, expected) => {
    expect(parseDecimal(input)).toBe(expected);
  });

  it.each<[unknown]>([
    ['1.2.3'],
    [''],
    ['   '],
    ['abc'],
    ['.'],
    ['-'],
    ['+-1'],
    ['- 1'],
    ['1 000'],
    ['1,2,3'],
    ['123456789.1'],
    ['123456789'],
    ['1.123456789'],
    ['1e5'],
    ['0x10'],
    ['١٢'],
    ['Infinity'],
    ['NaN'],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    [Number.NEGATIVE_INFINITY],
    [1e8],
    [1e-9],
    [0.1 + 0.2],
    [null],
    [undefined],
    [true],
    [[1]],
    [{}],
  ])('rejects %p', (input) => {
    expect(parseDecimal(input)).toBeUndefined();
  });
});

describe('editDistance', () => {
  it.each<[string, string, number]>([
    ['', '', 0],
    ['abc', '', 3],
    ['', 'abc', 3],
    ['abc', 'abc', 0],
    ['kitten', 'sitting', 3],
    ['sitting', 'kitten', 3],
    ['flaw', 'lawn', 2],
    ['abc', 'acb', 2],
    ['Paris', 'paris', 1],
    ['é', 'e', 1],
    ['\u{1F600}a', 'a', 1],
    ['\u{1F600}', '\u{1F601}', 1],
  ])('%p vs %p -> %p', (a, b, expected) => {
    expect(editDistance(a, b)).toBe(expected);
  });
});

describe('editDistanceWithin', () => {
  it('says whether editDistance is at most the limit, for any two texts and limit', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'b', 'c', 'é', '\u{1F600}'),
      maxLength: 12,
    });
    fc.assert(
      fc.property(text, text, fc.nat(14), (a, b, limit) => {
        expect(editDistanceWithin(a, b, limit)).toBe(editDistance(a, b) <= limit);
      }),
      { numRuns: 3000 },
    );
  });

  it('tells apart the long texts within the limit among 5,000 answers', () => {
    const good = 'x'.repeat(250);
    let within = 0;
    for (let index = 0; index < 5000; index += 1) {
      const answer = `${'y'.repeat(index % 100)}${'x'.repeat(250 - (index % 100))}`;
      if (editDistanceWithin(answer, good, 75)) within += 1;
    }
    // Answers 0..75 substitutions away are within; the rest are not.
    expect(within).toBe(50 * 76);
  });
});

describe('normalizeQuestionType', () => {
  it.each<[unknown, string | undefined]>([
    ...QUESTION_TYPES.map((type): [unknown, string] => [type, type]),
    ['MultipleChoicesOneGoodAnwer', 'MultipleChoicesOneGoodAnswer'],
    ['MultipleChoicesSeveralGoodAnwers', 'MultipleChoicesSeveralGoodAnswers'],
    ['MCQOneGoodAnswer', 'MultipleChoicesOneGoodAnswer'],
    ['MCQSeveralGoodAnswers', 'MultipleChoicesSeveralGoodAnswers'],
    ['truefalse', undefined],
    ['toString', undefined],
    ['__proto__', undefined],
    [42, undefined],
    [null, undefined],
  ])('%p -> %p', (input, expected) => {
    expect(normalizeQuestionType(input)).toBe(expected);
  });
});

describe('gradeAnswer: the check and the score of an answer that is stored', () => {
  const questions: ScorableQuestion[] = [
    mcqOne(2),
    mcqOne(null),
    mcqSeveral([0, 2]),
    trueFalse(true),
    numberQuestion('0.75', 5),
    numberQuestion('-12', 0),
    textQuestion('Paris', { tolerance: 20 }),
    textQuestion('Berlin', { caseSensitive: true, tolerance: 0 }),
    textQuestion(null),
  ];
  const answers = fc.oneof(
    fc.anything(),
    fc.integer({ min: -1, max: 5 }),
    fc.array(fc.integer({ min: -1, max: 5 }), { maxLength: 5 }),
    fc.constantFrom('0,75', '0.78', ' paris', 'Pari', 'berlin', 'true', 'false', '-12.0'),
    fc.double(),
  );

  it('refuses what checkAnswer refuses, and scores the normalised value as the raw one', () => {
    fc.assert(
      fc.property(fc.constantFrom(...questions), answers, (question, answer) => {
        const check = checkAnswer(question, answer);
        const graded = gradeAnswer(question, answer);
        if (!check.ok) {
          expect(graded).toEqual(check);
          return;
        }
        expect(graded).toEqual({
          ok: true,
          value: check.value,
          good: scoreAnswer(question, answer),
        });
        // The import stores the normalised value: scoring it again must not change the verdict.
        expect(scoreAnswer(question, check.value)).toBe(scoreAnswer(question, answer));
      }),
      { seed: 13, numRuns: 2000 },
    );
  });

  it('gives null for a survey question and a verdict otherwise', () => {
    expect(gradeAnswer(mcqOne(null), 1)).toEqual({ ok: true, value: 1, good: null });
    expect(gradeAnswer(numberQuestion('0.75', 5), '0,78')).toEqual({
      ok: true,
      value: '0.78',
      good: true,
    });
    expect(gradeAnswer(mcqSeveral([0, 2]), [2, 0])).toEqual({
      ok: true,
      value: [0, 2],
      good: true,
    });
    expect(gradeAnswer(trueFalse(true), 'yes')).toEqual({
      ok: false,
      reason: 'expected true or false',
    });
  });
});

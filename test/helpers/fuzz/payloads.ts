import fc from 'fast-check';
import { leakFree } from './leaks';
import { hostileText } from './values';

/*
 * addQuiz payloads: a valid quiz, then the same with one field broken.
 */

const word = fc.constantFrom(
  'math',
  'fractions',
  'grade4',
  'geo',
  'europe',
  'robots',
  'quiz',
  'été',
);
const phrase = fc
  .array(fc.oneof(word, fc.stringMatching(/^[A-Za-z0-9]{1,8}$/)), { minLength: 1, maxLength: 5 })
  .map((words) => words.join(' '));
const title = phrase.filter((text) => text.trim().length >= 3);
const media = fc.record({
  type: fc.constantFrom('video', 'youtube', 'image', 'sound', 'document'),
  url: fc.constantFrom('https://example.org/m.png', 'http://media.example.com/a.mp3'),
});
const propositions = fc.uniqueArray(phrase, { minLength: 2, maxLength: 10 });
const tolerance = fc.constantFrom(0, 5, 20, 30);

const question: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.oneof(
      propositions.chain((props) =>
        fc.record({
          title,
          type: fc.constantFrom(
            'MultipleChoicesOneGoodAnswer',
            'MultipleChoicesOneGoodAnwer',
            'MCQOneGoodAnswer',
          ),
          propositions: fc.constant(props),
          goodAnswer: fc.nat(props.length - 1),
        }),
      ),
      propositions.chain((props) =>
        fc.record({
          title,
          type: fc.constantFrom('MultipleChoicesSeveralGoodAnswers', 'MCQSeveralGoodAnswers'),
          propositions: fc.constant(props),
          goodAnswer: fc.subarray([...props.keys()], { minLength: 1 }),
        }),
      ),
      fc.record({ title, type: fc.constant('TrueFalse'), goodAnswer: fc.boolean() }),
      fc.record({
        title,
        type: fc.constant('FreeAnswerText'),
        caseSensitive: fc.constant(false),
        tolerance,
        goodAnswer: phrase,
      }),
      fc.record({
        title,
        type: fc.constant('FreeAnswerText'),
        caseSensitive: fc.constant(true),
        tolerance: fc.constant(0),
        goodAnswer: phrase,
      }),
      fc.record({
        title,
        type: fc.constant('FreeAnswerNumber'),
        tolerance,
        goodAnswer: fc.oneof(
          fc.integer({ min: -99_999_999, max: 99_999_999 }),
          fc.constantFrom('0,75', '2.1', 3.25),
        ),
      }),
    ),
    fc.option(media, { nil: undefined }),
  )
  .map(([fields, picked]) => (picked ? { ...fields, media: picked } : fields));

/** A quiz addQuiz accepts (for an account that may create private quizzes). */
const validQuiz: fc.Arbitrary<Record<string, unknown>> = fc
  .record(
    {
      title,
      visibility: fc.constantFrom('public', 'private', 'draft'),
      survey: fc.boolean(),
      tags: fc.uniqueArray(fc.oneof(word, fc.stringMatching(/^[a-z0-9-]{1,12}$/)), {
        minLength: 2,
        maxLength: 5,
      }),
      questions: fc.array(question, { maxLength: 4 }),
      defaultDuration: fc.constantFrom('10:00', '1:30:00', '90', '0:45'),
      favorite: fc.boolean(),
    },
    { requiredKeys: ['title', 'visibility', 'survey', 'tags'] },
  )
  .map((quiz) =>
    // A survey's questions have no good answer and no tolerance (contract.md §4).
    quiz.survey && quiz.questions
      ? {
          ...quiz,
          questions: quiz.questions.map(
            ({ goodAnswer: _goodAnswer, tolerance: _tolerance, ...rest }) => rest,
          ),
        }
      : quiz,
  );

/** Values that break a field of a quiz: wrong types, limits, oddities, random JSON. */
const brokenValue: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom<unknown>(
      '',
      '   ',
      0,
      -1,
      1.5,
      1e308,
      -1e-9,
      true,
      false,
      null,
      [],
      {},
      [null],
      [[]],
      ['a'],
      ['a', 'a'],
      ['a', 'b"c'],
      ['a', 'b\\c'],
      { 0: 'a' },
      'x'.repeat(251),
      'y'.repeat(5000),
      '\u0000',
      'PUBLIC',
      'secret',
      '1:75:00',
      '10 minutes',
      'Essay',
      'javascript:alert(1)',
      '1.123456789',
      '123456789',
      99,
      [0, 0],
      [5],
    ),
  },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: hostileText },
);

/** Every path of a JSON value's fields, arrays' items included (`['questions', 0, 'title']`). */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) {
    return value.flatMap((item, index) => [
      [...prefix, index],
      ...pathsOf(item, [...prefix, index]),
    ]);
  }
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => [
      [...prefix, key],
      ...pathsOf(item, [...prefix, key]),
    ]);
  }
  return [];
}

/** A copy of `value` with the field at `path` replaced (or removed when `replacement` is absent). */
function withField(
  value: unknown,
  path: (string | number)[],
  replacement: { value?: unknown },
): unknown {
  if (path.length === 0) return 'value' in replacement ? replacement.value : undefined;
  const [head, ...rest] = path;
  const copy = (
    Array.isArray(value) ? [...(value as unknown[])] : { ...(value as Record<string, unknown>) }
  ) as Record<string | number, unknown>;
  if (rest.length === 0 && !('value' in replacement)) {
    if (Array.isArray(copy)) copy.splice(head as number, 1);
    else delete copy[head];
    return copy;
  }
  copy[head] = withField(copy[head], rest, replacement);
  return copy;
}

const QUIZ_EXTRA_FIELDS = [
  'id',
  'author',
  'creationDate',
  'nbQuestions',
  '__proto__',
  'imported',
  'questions',
];

/** A valid quiz with one field removed, replaced or added; now and then left valid. */
export const quizPayload: fc.Arbitrary<unknown> = fc
  .tuple(
    validQuiz,
    fc.nat(),
    fc.constantFrom('remove', 'replace', 'replace', 'replace', 'add', 'keep'),
    brokenValue,
    fc.constantFrom(...QUIZ_EXTRA_FIELDS),
  )
  .map(([quiz, pick, change, replacement, extra]) => {
    if (change === 'keep') return quiz;
    if (change === 'add') return { ...quiz, [extra]: replacement };
    const paths = pathsOf(quiz);
    const path = paths[pick % paths.length];
    return withField(quiz, path, change === 'remove' ? {} : { value: replacement });
  })
  .filter(leakFree);

/*
 * Request bodies.
 */

/** JSON nested past the service's depth limit, or just under it. */
const deepJson = fc
  .tuple(fc.integer({ min: 15, max: 120 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays
      ? `${'['.repeat(depth)}1${']'.repeat(depth)}`
      : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  );

const CONTENT_TYPES = [
  'application/json',
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/vnd.api+json',
  'APPLICATION/JSON',
  'application/jsonx',
  '',
];

export interface FuzzBody {
  contentType?: string;
  contentEncoding?: string;
  text: string;
}

/**
 * A body as it travels: JSON of some value, or text that is not JSON, under a content type
 * (mostly JSON's; none now and then). A few announce a Content-Encoding they do not have.
 */
export function bodyArb(value: fc.Arbitrary<unknown>, jsonWeight = 1): fc.Arbitrary<FuzzBody> {
  return fc.record({
    contentType: fc.oneof(
      { weight: jsonWeight, arbitrary: fc.constant('application/json') },
      { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
      { weight: 1, arbitrary: fc.constant(undefined) },
    ),
    contentEncoding: fc.oneof(
      { weight: 6, arbitrary: fc.constant(undefined) },
      {
        weight: 1,
        arbitrary: fc.constantFrom('gzip', 'deflate', 'br', 'compress', 'identity', 'GZIP'),
      },
    ),
    text: fc.oneof(
      { weight: 6, arbitrary: value.map((json) => JSON.stringify(json) ?? 'undefined') },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '{',
          '{"quiz":',
          'nul',
          "{'quiz': 1}",
          '\u0000',
          '',
          '[1,]',
          '{"a":1}{',
        ),
      },
      { weight: 1, arbitrary: deepJson },
      { weight: 1, arbitrary: hostileText },
    ),
  });
}

/** Random JSON, leak-free. */
export const anyJson = fc.jsonValue({ maxDepth: 4 }).filter(leakFree);

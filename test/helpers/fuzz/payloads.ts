import fc from 'fast-check';
import { ANSWER_LIMITS } from '../../../src/domain/answers/answer.rules';
import { leakFree } from './leaks';
import type { AnsweredQuestion, FuzzPools } from './pools';
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

/**
 * A valid payload with one field removed, replaced or added (`extras` names the added ones); now
 * and then left valid.
 */
function oneFieldBroken(
  valid: fc.Arbitrary<Record<string, unknown>>,
  broken: fc.Arbitrary<unknown>,
  extras: readonly string[],
): fc.Arbitrary<unknown> {
  return fc
    .tuple(
      valid,
      fc.nat(),
      fc.constantFrom('remove', 'replace', 'replace', 'replace', 'add', 'keep'),
      broken,
      fc.constantFrom(...extras),
    )
    .map(([payload, pick, change, replacement, extra]) => {
      if (change === 'keep') return payload;
      if (change === 'add') return { ...payload, [extra]: replacement };
      const paths = pathsOf(payload);
      const path = paths[pick % paths.length];
      return withField(payload, path, change === 'remove' ? {} : { value: replacement });
    });
}

/** A valid quiz with one field removed, replaced or added; now and then left valid. */
export const quizPayload: fc.Arbitrary<unknown> = oneFieldBroken(
  validQuiz,
  brokenValue,
  QUIZ_EXTRA_FIELDS,
).filter(leakFree);

/*
 * addSession and addAnswers payloads: valid ones naming the fixture's quizzes, users and
 * answering session, then the same with one field (or one answer's field) broken.
 */

/** An identifier as a JSON client writes it: digits mostly, a number now and then. */
function jsonId(ids: fc.Arbitrary<string>): fc.Arbitrary<string | number> {
  return fc.tuple(ids, fc.nat(3)).map(([id, form]) => (form === 0 ? Number(id) : id));
}

function jsonIds(ids: fc.Arbitrary<string[]>): fc.Arbitrary<(string | number)[]> {
  return ids.chain((list) => fc.tuple(...list.map((id) => jsonId(fc.constant(id)))));
}

/** The wire's datetime, `YYYY-MM-DD hh:mm:ss` UTC. */
const wireDateTime = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

const pastDateTime = fc
  .date({ min: new Date('2000-01-01'), max: new Date('2026-01-01'), noInvalidDate: true })
  .map(wireDateTime);

/** A datetime `seconds` from the moment the request is generated. */
const fromNow = (seconds: fc.Arbitrary<number>) =>
  seconds.map((offset) => wireDateTime(new Date(Date.now() + offset * 1000)));

/** Datetimes refused wherever one is read, or at the edges of what is stored. */
const ODD_DATE_TIMES = [
  '2026-02-30 10:00:00',
  '2026-09-07',
  '2026-09-07T09:00:00Z',
  '2026-09-07 24:00:00',
  '0000-00-00 00:00:00',
  '0999-12-31 23:59:59',
  '1000-01-01 00:00:00',
  '9999-12-31 23:59:59',
  '+02026-09-07 09:00:00',
];

/** JSON nested `depth` levels, past the service's limit or just under it. */
const deepValue: fc.Arbitrary<unknown> = fc
  .tuple(fc.integer({ min: 3, max: 60 }), fc.boolean())
  .map(([depth, arrays]) => {
    let value: unknown = 1;
    for (let level = 0; level < depth; level += 1) value = arrays ? [value] : { a: value };
    return value;
  });

/**
 * Lists past the bounds of addSession's lists (100 quizzes, 1000 attendees): ids counting up, or
 * the fixture's over and over.
 */
function hugeLists(ids: readonly string[]): fc.Arbitrary<unknown> {
  return fc.constantFrom<unknown>(
    ...[101, 1001].flatMap((length) => [
      Array.from({ length }, (_, index) => String(index + 1)),
      Array.from({ length }, (_, index) => ids[index % ids.length]),
    ]),
  );
}

/** Values that break an identifier: unknown, out of range, other kinds of ids, malformed. */
function brokenIds(pools: FuzzPools): fc.Arbitrary<unknown> {
  return fc.oneof(
    {
      weight: 2,
      arbitrary: fc.constantFrom<unknown>(
        pools.unknownId,
        Number(pools.unknownId),
        '0',
        0,
        -1,
        '-1',
        '2147483648',
        2 ** 31,
        '4294967296',
        '99999999999999999999',
        1e21,
        1.5,
        '1.0',
        ' 1 ',
        '0x1F',
        '１２',
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom(...pools.quizIds, ...pools.userIds) },
  );
}

const SESSION_EXTRA_FIELDS = [
  'id',
  'owner',
  'ownerId',
  'nbAttendees',
  'quizzes',
  'attendees',
  '__proto__',
];

/** A session addSession accepts from any user: the answering session's quizzes are public. */
function validSession(pools: FuzzPools): fc.Arbitrary<Record<string, unknown>> {
  const quizIds = pools.answering.quizzes.map((quiz) => quiz.quizId);
  return fc.record(
    {
      title: fc.oneof(
        { weight: 9, arbitrary: title },
        {
          weight: 1,
          arbitrary: fc.constantFrom('Q', ' padded ', 't'.repeat(250), '😀'.repeat(250)),
        },
      ),
      quizIds: jsonIds(fc.uniqueArray(fc.constantFrom(...quizIds), { minLength: 1 })),
      startDate: fc.oneof(
        pastDateTime,
        fc.constantFrom('1000-01-01 00:00:00', '9999-12-31 23:59:59'),
      ),
      attendeeIds: jsonIds(fc.uniqueArray(fc.constantFrom(...pools.userIds), { maxLength: 4 })),
      // A few shared refs make repeated calls return the session of the first.
      clientRef: fc.oneof(
        fc.constantFrom('fuzz-1', 'fuzz-2', 'é', '😀'.repeat(64), 'r'.repeat(64)),
        fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
      ),
    },
    { requiredKeys: ['title', 'quizIds'] },
  );
}

/** A list of the session (its quizzes, else its attendees) with its first id again. */
function withDuplicate(session: Record<string, unknown>, form: number): Record<string, unknown> {
  const field = Array.isArray(session.attendeeIds) && form % 2 === 1 ? 'attendeeIds' : 'quizIds';
  const list = session[field] as (string | number)[];
  if (list.length === 0) return session;
  const first = list[0];
  const again = [first, String(first), Number(first), ` ${first} `][form % 4];
  return { ...session, [field]: [...list, again] };
}

/**
 * addSession's payload: a valid session, then the same with one field broken (wrong types,
 * bounds, unknown or invisible ids, an id twice, huge lists, deep nesting).
 */
export function sessionPayload(pools: FuzzPools): fc.Arbitrary<unknown> {
  const valid = validSession(pools);
  const broken = fc.oneof(
    { weight: 4, arbitrary: brokenValue },
    { weight: 2, arbitrary: brokenIds(pools) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<unknown>(...ODD_DATE_TIMES, 'r'.repeat(65), '😀'.repeat(65)),
    },
    { weight: 1, arbitrary: deepValue },
    { weight: 1, arbitrary: hugeLists(pools.quizIds) },
  );
  return fc
    .oneof(
      { weight: 6, arbitrary: oneFieldBroken(valid, broken, SESSION_EXTRA_FIELDS) },
      {
        weight: 1,
        arbitrary: fc.tuple(valid, fc.nat()).map(([session, form]) => withDuplicate(session, form)),
      },
    )
    .filter(leakFree);
}

/** A valid answer to a question of its type (contract.md §4, §9). */
function answerTo(question: AnsweredQuestion): fc.Arbitrary<unknown> {
  const indexes = [...Array(question.nbPropositions).keys()];
  switch (question.type) {
    case 'MultipleChoicesOneGoodAnswer':
      return fc.constantFrom(...indexes);
    case 'MultipleChoicesSeveralGoodAnswers':
      return fc.shuffledSubarray(indexes);
    case 'TrueFalse':
      return fc.constantFrom<unknown>(true, false, 'true', 'false');
    case 'FreeAnswerText':
      return fc.oneof(
        { weight: 4, arbitrary: phrase },
        {
          weight: 1,
          arbitrary: fc.constantFrom('', ' Paris ', '"', 'é'.repeat(250), '😀'.repeat(250)),
        },
      );
    case 'FreeAnswerNumber':
      return fc.oneof(
        fc.integer({ min: -99_999_999, max: 99_999_999 }),
        fc.constantFrom<unknown>('0,75', '0.8', ' -12 ', '+3', '12345678.12345678', 0.78, -0),
      );
  }
}

/** Values that break an answer whatever its question: other types, out of range, too long. */
const brokenAnswers: fc.Arbitrary<unknown> = fc.constantFrom<unknown>(
  -1,
  3,
  4,
  99,
  1.5,
  2 ** 53,
  [0, 0],
  [4],
  [-1],
  [0, '1'],
  [],
  [[0]],
  { 0: 1 },
  'maybe',
  'TRUE',
  '1e5',
  '123456789',
  '1.123456789',
  '0x10',
  'NaN',
  'Infinity',
  '1,2,3',
  'x'.repeat(251),
  '😀'.repeat(251),
  null,
);

const ANSWER_EXTRA_FIELDS = ['sessionId', 'good', 'score', 'id', '__proto__'];

/**
 * Values that break one field of an answer: unknown users and quizzes, quizzes the session does
 * not play, question indexes out of range, answers of another question type or out of range,
 * answeredAt in the future or malformed; random JSON for any of them.
 */
function brokenAnswerField(pools: FuzzPools): fc.Arbitrary<[string, unknown]> {
  const questions = pools.answering.quizzes.flatMap((quiz) => quiz.questions);
  const mostQuestions = Math.max(...pools.answering.quizzes.map((quiz) => quiz.questions.length));
  const byField: Record<string, fc.Arbitrary<unknown>> = {
    userId: brokenIds(pools),
    quizId: brokenIds(pools),
    questionIndex: fc.constantFrom<unknown>(
      mostQuestions,
      -1,
      1.5,
      '0',
      ' 1',
      2 ** 31,
      1e21,
      true,
      [0],
    ),
    answer: fc.oneof(fc.constantFrom(...questions).chain(answerTo), brokenAnswers, deepValue),
    answeredAt: fc.oneof(
      fromNow(fc.integer({ min: 360, max: 10 * 365 * 86_400 })),
      fc.constantFrom<unknown>(...ODD_DATE_TIMES, 0, 1_790_000_000_000, ''),
    ),
  };
  return fc.oneof(
    ...Object.entries(byField).map(([field, values]) => ({
      weight: 3,
      arbitrary: values.map((value): [string, unknown] => [field, value]),
    })),
    {
      weight: 2,
      arbitrary: fc.tuple(fc.constantFrom(...Object.keys(byField)), brokenValue),
    },
  );
}

/** A valid answer to a question the answering session plays, by its attendee or any user. */
function validAnswer(pools: FuzzPools): fc.Arbitrary<Record<string, unknown>> {
  const { quizzes, attendeeId } = pools.answering;
  const user = fc.oneof(
    { weight: 2, arbitrary: fc.constant(attendeeId) },
    { weight: 1, arbitrary: fc.constantFrom(...pools.userIds) },
  );
  return fc.constantFrom(...quizzes).chain((quiz) =>
    fc.nat(quiz.questions.length - 1).chain((index) =>
      fc.record(
        {
          userId: jsonId(user),
          quizId: jsonId(fc.constant(quiz.quizId)),
          questionIndex: fc.constant(index),
          answer: answerTo(quiz.questions[index]),
          // Up to 4 minutes ahead: within the 5 allowed, with time left for the request to arrive.
          answeredAt: fc.oneof(pastDateTime, fromNow(fc.integer({ min: -3600, max: 240 }))),
        },
        { requiredKeys: ['userId', 'quizId', 'questionIndex', 'answer'] },
      ),
    ),
  );
}

/**
 * addAnswers' payload: a valid batch for the answering session, then batches with one answer
 * broken (each field, or the answer itself), with no answer or more than 5,000, or no batch.
 */
export function answersPayload(pools: FuzzPools): fc.Arbitrary<unknown> {
  const answer = validAnswer(pools);
  const batch = fc.array(answer, { minLength: 1, maxLength: 6 });
  const oneBroken = fc
    .tuple(
      batch,
      fc.nat(),
      fc.constantFrom('remove', 'replace', 'replace', 'replace', 'element', 'add'),
      brokenAnswerField(pools),
      fc.constantFrom(...ANSWER_EXTRA_FIELDS),
    )
    .map(([answers, pick, change, [field, value], extra]) => {
      const index = pick % answers.length;
      if (change === 'element') return withField(answers, [index], { value });
      if (change === 'add') return withField(answers, [index, extra], { value });
      return withField(answers, [index, field], change === 'remove' ? {} : { value });
    });
  const { max } = ANSWER_LIMITS.batch;
  const wholeBatch = fc.oneof(
    { weight: 3, arbitrary: fc.constant([]) },
    // The same answer max + 1 times, or max times (accepted: one answer, stored once). Rare: a
    // GraphQL document of 5,000 inputs costs as much to check as a hundred small requests.
    { weight: 1, arbitrary: answer.map((one) => Array.from({ length: max + 1 }, () => one)) },
    { weight: 1, arbitrary: answer.map((one) => Array.from({ length: max }, () => one)) },
    // One answer not in a list (GraphQL reads it as a list of one), or the list as JSON text.
    { weight: 3, arbitrary: answer },
    { weight: 2, arbitrary: batch.map((answers) => JSON.stringify(answers)) },
    { weight: 4, arbitrary: brokenValue },
    { weight: 2, arbitrary: deepValue },
  );
  return fc
    .oneof(
      { weight: 3, arbitrary: batch },
      { weight: 6, arbitrary: oneBroken },
      { weight: 2, arbitrary: wholeBatch },
    )
    .filter(leakFree);
}

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

import fc from 'fast-check';

/**
 * Generators of hostile requests for the fuzz suite (test/integration/fuzz.test.ts): every REST
 * operation and every GraphQL root field, with parameters present, absent, blank, repeated or
 * of the wrong type, odd credentials, methods, bodies and content types. Each generated request
 * is a plain object that reads as the HTTP request it describes, so a counterexample printed by
 * fast-check can be replayed by hand.
 */

/**
 * What must never appear in an answer: a stack frame, SQL or a driver's error, a path of the
 * machine. A frame is matched in V8's own form (`at fn (/file.js:1:2)`, `at node:internal/x:1:2`)
 * rather than as any `at …:1:2`, because answers legitimately hold times such as 09:00:00 next to
 * words such as "at most". MySQL's error codes (ER_DUP_ENTRY) are matched as words.
 */
const LEAK_PATTERNS: readonly RegExp[] = [
  /\bat (?:async )?(?:[^\s()"]+ ){0,2}\(?(?:file:\/\/|node:|\/|[A-Za-z]:\\)[^\s"()]*:\d+:\d+/,
  /\\n\s+at \S/,
  /\b(SELECT|INSERT|UPDATE|DELETE)\b.*\b(FROM|INTO|SET)\b/i,
  // A word of its own: GraphQL's BAD_USER_INPUT holds "ER_INPUT" but is no driver's code.
  /\bER_[A-Z_]+|SQLITE_|QueryFailedError/,
  /\/(work|home|root|usr|tmp)\/|node_modules|\.ts:\d+/,
];

export function leakIn(text: string): RegExp | undefined {
  return LEAK_PATTERNS.find((pattern) => pattern.test(text));
}

/**
 * The service may echo what it was sent (providedValue, graphql-js messages): generated text
 * never matches a leak pattern itself, so a match in an answer is the service's own text.
 */
const leakFree = (value: unknown): boolean => leakIn(JSON.stringify(value) ?? '') === undefined;

export type ItemType = 'user' | 'quiz' | 'userGroup' | 'computedResult';
const ITEM_TYPES: readonly ItemType[] = ['user', 'quiz', 'userGroup', 'computedResult'];

/** Ids of the fixture, as the API writes them (strings). */
export interface FuzzPools {
  quizIds: string[];
  userIds: string[];
  sessionIds: string[];
  /** Data sets made before the fuzz, by owner (a credentials label) and item type. */
  sets: Record<string, Record<ItemType, string[]>>;
  /** A set past its expiry. */
  expiredSetId: string;
  /** An id no row has. */
  unknownId: string;
}

/**
 * Ids of sets for a parameter: mostly the owner's sets of the item type the parameter names (so
 * that clean requests often name a set they may use), then anyone's, then any set at all.
 */
function setIds(pools: FuzzPools, owner?: string, itemType?: ItemType): string[] {
  const owners = Object.values(pools.sets);
  const all = [
    ...owners.flatMap((sets) => ITEM_TYPES.flatMap((type) => sets[type])),
    pools.expiredSetId,
  ];
  const mine = owner ? pools.sets[owner] : undefined;
  const pick = (sets: Record<ItemType, string[]>) =>
    itemType ? sets[itemType] : ITEM_TYPES.flatMap((type) => sets[type]);
  const owned = mine ? pick(mine) : [];
  const typed = owners.flatMap(pick);
  return [...owned, ...owned, ...owned, ...typed, ...all];
}

/** One way of presenting credentials: query-string pairs, or (GraphQL only) headers. */
export interface FuzzCredentials {
  label: string;
  pairs: [string, string][];
}

/*
 * Scalar values, as text.
 */

const STRANGE_TEXTS = [
  '',
  ' ',
  '\t\n',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-0',
  'true',
  '[]',
  '{}',
  '{"a":1}',
  '["x"]',
  '%',
  '%zz',
  '%00',
  '\u0000',
  '\uFEFF',
  '\u202Eevil',
  'é',
  'e\u0301',
  '😀',
  '👩‍👩‍👧',
  '日本語',
  "' OR '1'='1",
  '1 OR 1=1',
  '"; DROP TABLE quizzes; --',
  '1) OR SLEEP(5)#',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  '\\',
  '"',
  "'",
  ',',
  ',,',
  'a,b',
  '_',
  '%%',
  '*',
];

/** A few KB of one character (URL-encoded, some exceed the URL and header limits). */
const longText = fc
  .tuple(fc.constantFrom('a', '9', 'é', '😀', ' ', '%', ','), fc.integer({ min: 256, max: 4096 }))
  .map(([char, count]) => char.repeat(count));

const hostileText: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 3, arbitrary: fc.constantFrom(...STRANGE_TEXTS) },
    { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
    // Lone surrogates: not UTF-8 once encoded (see encodeQueryComponent).
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
    { weight: 1, arbitrary: longText },
  )
  .filter(leakFree);

/**
 * A parameter's values: `clean` ones a client would send (existing ids, valid enums, well-formed
 * dates), which take requests deep into the service; `any` adds the odd and the hostile.
 */
export interface ParamValues {
  clean: fc.Arbitrary<string>;
  any: fc.Arbitrary<string>;
}

function values(
  clean: fc.Arbitrary<string>,
  odd: fc.Arbitrary<string>,
  hostileWeight = 1,
): ParamValues {
  return {
    clean,
    any: fc.oneof(
      { weight: 3, arbitrary: clean },
      { weight: 2, arbitrary: odd },
      { weight: hostileWeight, arbitrary: hostileText },
    ),
  };
}

/** An identifier: existing ones mostly, then unknown, out of range and malformed ones. */
function idValues(pool: readonly string[], unknownId: string): ParamValues {
  const existing = fc.constantFrom(...pool);
  return values(
    fc.oneof(
      { weight: 8, arbitrary: existing },
      { weight: 1, arbitrary: fc.constant(unknownId) },
      { weight: 1, arbitrary: existing.map((id) => ` ${id} `) },
    ),
    fc.oneof(
      { weight: 1, arbitrary: existing.map((id) => `0${id}`) },
      { weight: 1, arbitrary: existing.map((id) => `${id}.0`) },
      {
        weight: 4,
        arbitrary: fc.constantFrom(
          '0',
          '-1',
          '-0',
          '+1',
          '1e3',
          '1E1',
          '0x1F',
          '0b1',
          '2147483647',
          '2147483648',
          '4294967296',
          '9007199254740993',
          '99999999999999999999999',
          '١٢',
          '１２',
          '1 2',
          '1,2',
          '1;2',
          '1%00',
        ),
      },
      { weight: 1, arbitrary: fc.integer().map(String) },
      { weight: 1, arbitrary: fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String) },
    ),
    2,
  );
}

const booleanValues = values(
  fc.constantFrom('true', 'false', '1', '0'),
  fc.constantFrom(
    'TRUE',
    'False',
    'yes',
    'no',
    'on',
    'off',
    't',
    'f',
    '2',
    '-1',
    ' true',
    'false ',
  ),
);

/** Page sizes and page indexes. */
const integerValues = values(
  fc.constantFrom('1', '2', '3', '10', '50', '1000'),
  fc.oneof(
    fc.constantFrom('1001', '0', '-1', '1.5', '1e2', '01', ' 3', '+2', '9999999999', '2147483648'),
    fc.constantFrom('-2147483649', '0x10', '3,4'),
    fc.integer().map(String),
  ),
);

function enumValues(names: readonly string[]): ParamValues {
  const valid = fc.constantFrom(...names);
  return values(
    valid,
    fc.oneof(
      valid.map((name) => name.toUpperCase()),
      valid.map((name) => ` ${name} `),
    ),
  );
}

/** A comma-separated list; odd ones have other separators, empty items, doubles, JSON. */
function listValues(items: ParamValues): ParamValues {
  return values(
    fc.uniqueArray(items.clean, { minLength: 1, maxLength: 4 }).map((list) => list.join(',')),
    fc.oneof(
      {
        weight: 5,
        arbitrary: fc
          .tuple(
            fc.array(items.any, { maxLength: 6 }),
            fc.constantFrom(',', ', ', ' , ', ';', '|', ' ', ',,', '\t'),
            fc.constantFrom('', ',', ' '),
          )
          .map(([list, separator, edge]) => `${edge}${list.join(separator)}${edge}`),
      },
      {
        weight: 1,
        arbitrary: fc.array(items.any, { maxLength: 4 }).map((list) => JSON.stringify(list)),
      },
    ),
  );
}

const ODD_DATES = [
  '2026-09-30,2026-09-01',
  '2026-02-30',
  '2026-13-01',
  '0000-00-00',
  '0000-00-00 00:00:00',
  '2026-09-01T08:00:00Z',
  '2026-09-01T08:00:00+02:00',
  '2026-9-1',
  '01/09/2026',
  ',',
  ',2026-09-01',
  '2026-09-01,',
  '2026-09-01,,2026-09-02',
  '2026-09-01,2026-09-02,2026-09-03',
  '1e3',
  'yesterday',
];

/** A datetime interval `start,end`, or one datetime. */
const dateValues = values(
  fc.oneof(
    fc.constantFrom(
      '2026-09-01',
      '2026-09-07 09:00:00',
      '2026-09-01,2026-09-30',
      '2026-09-01 00:00:00,2026-09-08 23:59:59',
      '9999-12-31 23:59:59',
    ),
    fc
      .tuple(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }),
        fc.integer({ min: 0, max: 400 }),
      )
      .map(
        ([start, days]) =>
          `${start.toISOString().slice(0, 19).replace('T', ' ')},${new Date(start.getTime() + days * 86_400_000).toISOString().slice(0, 10)}`,
      ),
  ),
  fc.oneof(
    fc.constantFrom(...ODD_DATES),
    fc
      .tuple(fc.date({ noInvalidDate: true }), fc.date({ noInvalidDate: true }))
      .map(([a, b]) => `${a.toISOString()},${b.toISOString().slice(0, 10)}`),
  ),
);

/** Search text: words of the fixture, LIKE wildcards, and anything. */
const searchValues = values(
  fc.constantFrom('math', 'Fractions', 'frac', 'geo', 'Ada', 'Lovelace', 'Class', 'Rob', 'Paris'),
  fc.constantFrom('é', '%', '_', '%a%', 'a_b', 'MATH', ' math '),
  2,
);

const QUIZ_ATTRIBUTE_NAMES = [
  'id',
  'title',
  'visibility',
  'survey',
  'tags',
  'creationDate',
  'lastChangeDate',
  'author',
  'nbQuestions',
  'questions',
  'defaultDuration',
  'imported',
  'favorite',
  'nbSessions',
  'nbPlayers',
  'nbFavorites',
];
const USER_ATTRIBUTE_NAMES = [
  'firstName',
  'lastName',
  'pictureURL',
  'popularity',
  'influence',
  'email',
  'passwordHash',
  'id',
];
const RESULT_TYPES = ['nbGoodAnswers', 'goodAnswersPercent', 'percentile', 'nbAnswers', 'duration'];
const AGGREGATION_FUNCTIONS = ['min', 'max', 'average', 'median', 'stddev', 'count'];
const GROUP_BY = ['user', 'quiz'];
const INCLUDE_QUIZZES = ['answered', 'all'];
const SET_OPERATORS = ['union', 'intersection', 'difference'];

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
const quizPayload: fc.Arbitrary<unknown> = fc
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
function bodyArb(value: fc.Arbitrary<unknown>, jsonWeight = 1): fc.Arbitrary<FuzzBody> {
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
const anyJson = fc.jsonValue({ maxDepth: 4 }).filter(leakFree);

/*
 * Query strings.
 */

/** One name=value pair, or a bare name (`?quizId`) when the value is null. */
export type QueryPair = [name: string, value: string | null];

/**
 * Percent-encodes like encodeURIComponent, except that lone surrogates become their (invalid)
 * three UTF-8-like bytes instead of throwing: the server must cope with bytes that are not UTF-8.
 */
function encodeQueryComponent(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(text.slice(i, i + 2));
      i += 1;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(text[i]);
    }
  }
  return out;
}

function queryString(pairs: readonly QueryPair[], raw: readonly string[] = []): string {
  const parts = pairs.map(([name, value]) =>
    value === null
      ? encodeQueryComponent(name)
      : `${encodeQueryComponent(name)}=${encodeQueryComponent(value)}`,
  );
  return [...parts, ...raw].join('&');
}

/**
 * A parameter given once (or absent, unless it is required); or, when not clean, absent, twice,
 * blank, bare or under a near-miss name, with odd values.
 */
function parameterPairs(
  name: string,
  param: ParamValues,
  clean: boolean,
  required = false,
): fc.Arbitrary<QueryPair[]> {
  const absent = fc.constant<QueryPair[]>([]);
  if (clean) {
    const once = param.clean.map((v): QueryPair[] => [[name, v]]);
    return required ? once : fc.oneof(absent, once);
  }
  const value = param.any;
  return fc.oneof(
    { weight: 4, arbitrary: absent },
    { weight: 10, arbitrary: value.map((v): QueryPair[] => [[name, v]]) },
    {
      weight: 1,
      arbitrary: fc.tuple(value, value).map(([a, b]): QueryPair[] => [
        [name, a],
        [name, b],
      ]),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<QueryPair[]>([[name, '']], [[name, null]], [[name, '  ']]),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(name.toUpperCase(), `${name}[]`, `${name}[0]`, ` ${name}`, `${name}.x`),
          value,
        )
        .map(([other, v]): QueryPair[] => [[other, v]]),
    },
  );
}

/** Query-string debris: separators, bare '=', bad percent escapes, unknown parameters. */
const rawQueryNoise: fc.Arbitrary<string[]> = fc.oneof(
  { weight: 8, arbitrary: fc.constant<string[]>([]) },
  {
    weight: 1,
    arbitrary: fc.array(
      fc.constantFrom(
        '',
        '&',
        '=',
        '=x',
        '%',
        '%zz',
        '%C0%AF',
        '%ED%A0%80',
        'a=b=c',
        '+',
        ';',
        '#frag',
        '?',
      ),
      { minLength: 1, maxLength: 3 },
    ),
  },
);

const unknownPairs: fc.Arbitrary<QueryPair[]> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<QueryPair[]>([]) },
  {
    weight: 1,
    arbitrary: fc.array(
      fc.tuple(
        fc.constantFrom(
          'foo',
          '__proto__',
          'constructor',
          'toString',
          'prototype',
          'x',
          'callback',
        ),
        fc.oneof(hostileText, fc.constant(null)),
      ),
      { minLength: 1, maxLength: 3 },
    ),
  },
);

/*
 * GraphQL.
 */

type Selection = { kind: 'scalar' } | ObjectShape | UnionShape;
export interface ObjectShape {
  kind: 'object';
  name: string;
  fields: Record<string, () => Selection>;
  /** Types that implement this interface (for inline fragments on them). */
  implementations?: ObjectShape[];
}
interface UnionShape {
  kind: 'union';
  name: string;
  members: () => ObjectShape[];
}

const SCALAR: Selection = { kind: 'scalar' };
const scalars = (...names: string[]): Record<string, () => Selection> =>
  Object.fromEntries(names.map((name) => [name, () => SCALAR]));

const USER: ObjectShape = {
  kind: 'object',
  name: 'User',
  fields: scalars('id', 'firstName', 'lastName', 'pictureURL'),
};
const MEDIA: ObjectShape = { kind: 'object', name: 'Media', fields: scalars('type', 'url') };
const questionShape = (name: string, ...extra: string[]): ObjectShape => ({
  kind: 'object',
  name,
  fields: { ...scalars('title', 'type', 'position', 'goodAnswer', ...extra), media: () => MEDIA },
});
const QUESTION: ObjectShape = {
  kind: 'object',
  name: 'Question',
  fields: { ...scalars('title', 'type', 'position'), media: () => MEDIA },
  implementations: [
    questionShape('MultipleChoicesOneGoodAnswerQuestion', 'propositions'),
    questionShape('MultipleChoicesSeveralGoodAnswersQuestion', 'propositions'),
    questionShape('TrueFalseQuestion'),
    questionShape('FreeAnswerTextQuestion', 'tolerance', 'caseSensitive'),
    questionShape('FreeAnswerNumberQuestion', 'tolerance'),
  ],
};
const QUIZ: ObjectShape = {
  kind: 'object',
  name: 'Quiz',
  fields: {
    ...scalars(
      'id',
      'title',
      'visibility',
      'survey',
      'tags',
      'creationDate',
      'lastChangeDate',
      'nbQuestions',
      'defaultDuration',
      'favorite',
      'imported',
    ),
    author: () => USER,
    questions: () => QUESTION,
  },
};
const SESSION: ObjectShape = {
  kind: 'object',
  name: 'Session',
  fields: scalars('id', 'title', 'startDate'),
};
const USER_GROUP: ObjectShape = {
  kind: 'object',
  name: 'UserGroup',
  fields: scalars('id', 'name', 'nbMembers'),
};
const COMPUTED_RESULT: ObjectShape = {
  kind: 'object',
  name: 'ComputedResult',
  fields: {
    ...scalars(
      'id',
      'userId',
      'quizId',
      'sessionId',
      'aggregationFunction',
      'nbGoodAnswers',
      'goodAnswersPercent',
      'percentile',
      'nbAnswers',
      'duration',
    ),
    user: () => USER,
    quiz: () => QUIZ,
    session: () => SESSION,
  },
};
const DATA_SET_ITEM: UnionShape = {
  kind: 'union',
  name: 'DataSetItem',
  members: () => [USER, QUIZ, USER_GROUP, COMPUTED_RESULT],
};
const DATA_SET: ObjectShape = {
  kind: 'object',
  name: 'DataSet',
  fields: {
    ...scalars(
      'dataSetId',
      'itemType',
      'numberOfPages',
      'numberOfItemsPerPage',
      'totalNumberOfItems',
      'currentPageIndex',
    ),
    items: () => DATA_SET_ITEM,
  },
};
const SESSION_RESULTS: ObjectShape = {
  kind: 'object',
  name: 'SessionResults',
  fields: { userSet: () => DATA_SET, quizSet: () => DATA_SET, results: () => DATA_SET },
};
const ITEM_ATTRIBUTE: ObjectShape = {
  kind: 'object',
  name: 'ItemAttribute',
  fields: scalars('itemType', 'itemId', 'itemName', 'itemValue'),
};

const UNKNOWN_FIELDS = [
  'nope',
  'password',
  'email',
  'passwordHash',
  'secret',
  'id(x: 1)',
  '__schema',
  '__type',
];
const aliasName = fc.constantFrom('a', 'b', 'x1', 'id', 'title', '_', 'dataSetId', 'items');

/**
 * A selection set of a shape: real fields (some aliased, some twice), unknown ones, fragments.
 * A clean one is valid GraphQL: known fields only, each object field with its own selection,
 * and goodAnswer (of another type on each question type) under an alias of its own type.
 */
function selectionOf(shape: Selection, depth: number, clean: boolean): fc.Arbitrary<string> {
  if (shape.kind === 'scalar') return fc.constant('');
  if (shape.kind === 'union') {
    return fc
      .subarray(shape.members(), { minLength: 0 })
      .chain((members) =>
        fc
          .tuple(...members.map((member) => selectionOf(member, depth - 1, clean)))
          .map(
            (parts) =>
              `{ __typename ${parts.map((part, index) => `... on ${members[index].name} ${part}`).join(' ')} }`,
          ),
      );
  }
  const names = Object.keys(shape.fields);
  const field = fc
    .tuple(fc.constantFrom(...names), fc.option(aliasName, { freq: 5, nil: undefined }))
    .chain(([name, alias]) => {
      const sub = shape.fields[name]();
      let prefix = alias ? `${alias}: ${name}` : name;
      if (clean) prefix = name === 'goodAnswer' ? `${shape.name}Answer: ${name}` : name;
      if (sub.kind === 'scalar') return fc.constant(prefix);
      // Past the depth, an object field is selected without a selection set now and then (invalid).
      if (depth <= 0) {
        return clean
          ? fc.constant(`${prefix} { __typename }`)
          : fc.constantFrom(`${prefix} { __typename }`, prefix);
      }
      return selectionOf(sub, depth - 1, clean).map((selection) => `${prefix} ${selection}`);
    });
  const others: fc.Arbitrary<string>[] = [fc.constant('__typename')];
  if (!clean) others.push(fc.constantFrom(...UNKNOWN_FIELDS));
  if (shape.implementations && depth > 0) {
    others.push(
      fc
        .constantFrom(...shape.implementations)
        .chain((impl) =>
          selectionOf(impl, depth - 1, clean).map(
            (selection) => `... on ${impl.name} ${selection}`,
          ),
        ),
    );
  }
  if (depth > 0) {
    others.push(
      selectionOf({ ...shape, implementations: undefined }, 0, clean).map(
        (selection) => `... on ${shape.name} ${selection}`,
      ),
    );
  }
  const entry = fc.oneof(
    { weight: 6, arbitrary: field },
    ...others.map((arbitrary) => ({ weight: 1, arbitrary })),
  );
  const entries = fc.array(entry, { minLength: 1, maxLength: 5 });
  return (
    clean
      ? entries
      : entries.chain((list) =>
          fc.oneof(
            { weight: 9, arbitrary: fc.constant(list) },
            // Empty selection sets are not GraphQL.
            { weight: 1, arbitrary: fc.constant([] as string[]) },
          ),
        )
  ).map((list) => `{ ${list.join(' ')} }`);
}

/** A GraphQL argument: its type in the schema, and values for it. */
export interface GraphQLArgument {
  type: string;
  /** Values of the argument's type a client would send. */
  clean: fc.Arbitrary<unknown>;
  /** Odd values too, some of another type (variables may carry anything). */
  any: fc.Arbitrary<unknown>;
  /** The enum's names, written bare as inline literals. */
  enumValues?: readonly string[];
}

export interface RootFieldSpec {
  name: string;
  operation: 'query' | 'mutation';
  args: Record<string, GraphQLArgument>;
  returns: ObjectShape;
}

/** An ID: as a string or a number (both are IDs in GraphQL), or the odd texts of REST. */
function idArgument(pool: readonly string[], unknownId: string, nonNull = false): GraphQLArgument {
  const text = idValues(pool, unknownId);
  return {
    type: nonNull ? 'ID!' : 'ID',
    clean: fc.oneof(
      { weight: 3, arbitrary: text.clean },
      { weight: 1, arbitrary: fc.constantFrom(...pool).map(Number) },
    ),
    any: fc.oneof(
      { weight: 4, arbitrary: text.any },
      {
        weight: 1,
        arbitrary: fc.oneof(fc.integer(), fc.double(), fc.constantFrom(2 ** 31, -1, 0, 1e21)),
      },
    ),
  };
}

const INT: GraphQLArgument = {
  type: 'Int',
  clean: fc.constantFrom(1, 2, 3, 10, 50, 1000),
  any: fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: -3, max: 1100 }) },
    { weight: 1, arbitrary: fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 1.5, 1e21, '5', '') },
    { weight: 1, arbitrary: fc.integer() },
  ),
};

function stringArgument(text: ParamValues, nonNull = false): GraphQLArgument {
  return { type: nonNull ? 'String!' : 'String', clean: text.clean, any: text.any };
}

const BOOLEAN: GraphQLArgument = {
  type: 'Boolean',
  clean: fc.boolean(),
  any: fc.oneof(fc.boolean(), fc.constantFrom('true', 1, 0, null)),
};

function enumArgument(type: string, names: readonly string[], list = false): GraphQLArgument {
  const valid = fc.constantFrom(...names);
  const one = fc.oneof(
    { weight: 5, arbitrary: valid },
    { weight: 1, arbitrary: fc.constantFrom('MIN', 'nope', 'user,quiz', '', 'null') },
  );
  return {
    type: list ? `[${type}!]` : type,
    clean: list ? fc.uniqueArray(valid, { minLength: 1, maxLength: names.length }) : valid,
    any: list
      ? fc.oneof(
          { weight: 4, arbitrary: fc.uniqueArray(one, { maxLength: 4 }) },
          { weight: 1, arbitrary: fc.array(one, { maxLength: 4 }) },
          // A single value stands for a list of one in GraphQL.
          { weight: 1, arbitrary: one },
          { weight: 1, arbitrary: fc.array(one, { maxLength: 3 }).map((items) => items.join(',')) },
        )
      : one,
    enumValues: names,
  };
}

/** Every root field of schema/schema.graphql with its arguments. */
export function rootFieldSpecs(pools: FuzzPools, owner?: string): RootFieldSpec[] {
  const { unknownId } = pools;
  const id = (pool: readonly string[], nonNull = false) => idArgument(pool, unknownId, nonNull);
  const results = {
    aggregationFunctions: enumArgument('AggregationFunction', AGGREGATION_FUNCTIONS, true),
    groupBy: enumArgument('GroupBy', GROUP_BY),
    includeQuizzes: enumArgument('IncludeQuizzes', INCLUDE_QUIZZES),
    numberOfItemsPerPage: INT,
    resultTypes: enumArgument('ResultType', RESULT_TYPES, true),
  };
  const sessionIds = idArgument(pools.sessionIds, unknownId);
  return [
    {
      name: 'getQuiz',
      operation: 'query',
      args: { quizId: id(pools.quizIds, true) },
      returns: QUIZ,
    },
    {
      name: 'addQuiz',
      operation: 'mutation',
      args: { quiz: { type: 'QuizInput!', clean: quizPayload, any: quizPayload } },
      returns: QUIZ,
    },
    {
      name: 'getQuizSet',
      operation: 'query',
      args: {
        author: id(pools.userIds),
        creationDate: stringArgument(dateValues),
        keywords: stringArgument(searchValues),
        modificationDate: stringArgument(dateValues),
        numberOfItemsPerPage: INT,
        player: id(pools.userIds),
        quizId: id(pools.quizIds),
        sessionId: id(pools.sessionIds),
        tag: stringArgument(searchValues),
      },
      returns: DATA_SET,
    },
    {
      name: 'getQuizAttribute',
      operation: 'query',
      args: {
        attributeName: stringArgument(enumValues(QUIZ_ATTRIBUTE_NAMES), true),
        quizId: id(pools.quizIds, true),
      },
      returns: ITEM_ATTRIBUTE,
    },
    {
      name: 'getUser',
      operation: 'query',
      args: { userId: id(pools.userIds, true) },
      returns: USER,
    },
    {
      name: 'getUserAttribute',
      operation: 'query',
      args: {
        attributeName: stringArgument(enumValues(USER_ATTRIBUTE_NAMES), true),
        userId: id(pools.userIds, true),
      },
      returns: ITEM_ATTRIBUTE,
    },
    {
      name: 'getUserSet',
      operation: 'query',
      args: {
        numberOfItemsPerPage: INT,
        quizId: id(pools.quizIds),
        raisedHand: BOOLEAN,
        sessionId: id(pools.sessionIds),
        userGroupSetId: id(setIds(pools, owner, 'userGroup')),
        userId: id(pools.userIds),
      },
      returns: DATA_SET,
    },
    {
      name: 'getUserGroupSet',
      operation: 'query',
      args: { numberOfItemsPerPage: INT, search: stringArgument(searchValues) },
      returns: DATA_SET,
    },
    {
      name: 'getResults',
      operation: 'query',
      args: {
        ...results,
        quizSetId: id(setIds(pools, owner, 'quiz'), true),
        sessionId: id(pools.sessionIds),
        sessionIds: {
          type: '[ID!]',
          clean: fc.uniqueArray(sessionIds.clean, { minLength: 1, maxLength: 3 }),
          any: fc.oneof(fc.array(sessionIds.any, { maxLength: 4 }), sessionIds.any),
        },
        userSetId: id(setIds(pools, owner, 'user'), true),
      },
      returns: DATA_SET,
    },
    {
      name: 'getSessionResults',
      operation: 'query',
      args: { ...results, sessionId: id(pools.sessionIds, true) },
      returns: SESSION_RESULTS,
    },
    {
      name: 'computeDataSet',
      operation: 'query',
      args: {
        dataSetId1: id(setIds(pools, owner), true),
        dataSetId2: id(setIds(pools, owner), true),
        numberOfItemsPerPage: INT,
        operator: { ...enumArgument('SetOperator', SET_OPERATORS), type: 'SetOperator!' },
      },
      returns: DATA_SET,
    },
    {
      name: 'getDataSetPage',
      operation: 'query',
      args: { dataSetId: id(setIds(pools, owner), true), pageIndex: INT },
      returns: DATA_SET,
    },
  ];
}

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** A JS value as a GraphQL literal; strings named by the enum are written bare. */
function graphQLLiteral(value: unknown, enumValues?: readonly string[]): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') {
    return enumValues?.includes(value) || (enumValues && NAME.test(value) && value !== 'null')
      ? value
      : JSON.stringify(value);
  }
  if (typeof value === 'number' || typeof value === 'boolean') {
    return Number.isFinite(value as number) || typeof value === 'boolean' ? String(value) : 'null';
  }
  if (Array.isArray(value))
    return `[${value.map((item) => graphQLLiteral(item, enumValues)).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([key, item]) => `${NAME.test(key) ? key : JSON.stringify(key)}: ${graphQLLiteral(item)}`)
    .join(', ')}}`;
}

/** How one argument is passed: left out, as a variable (declared with some type), or inline. */
type ArgumentUse =
  | { mode: 'absent' }
  | { mode: 'variable'; declared: string; value: unknown; sent: boolean }
  | { mode: 'inline'; value: unknown };

const WRONG_TYPES = [
  'String',
  'Int',
  'ID',
  'ID!',
  'Boolean',
  '[ID]',
  'Float',
  'JSON',
  'QuizInput',
  'Nope',
];

/** How an argument is passed; a clean use declares the right type and sends a plausible value. */
function argumentUse(arg: GraphQLArgument, clean: boolean): fc.Arbitrary<ArgumentUse> {
  const value = clean
    ? arg.clean
    : fc.oneof({ weight: 5, arbitrary: arg.any }, { weight: 1, arbitrary: anyJson });
  const declared = clean
    ? fc.constant(arg.type)
    : fc.oneof(
        { weight: 8, arbitrary: fc.constant(arg.type) },
        { weight: 1, arbitrary: fc.constantFrom(...WRONG_TYPES) },
      );
  // A declared variable is now and then left out of `variables`.
  const sent = clean
    ? fc.constant(true)
    : fc.oneof(
        { weight: 9, arbitrary: fc.constant(true) },
        { weight: 1, arbitrary: fc.constant(false) },
      );
  return fc.oneof(
    {
      weight: arg.type.endsWith('!') ? (clean ? 0 : 1) : 3,
      arbitrary: fc.constant<ArgumentUse>({ mode: 'absent' }),
    },
    {
      weight: 6,
      arbitrary: fc.tuple(declared, value, sent).map(([type, v, isSent]): ArgumentUse => ({
        mode: 'variable',
        declared: type,
        value: v,
        sent: isSent,
      })),
    },
    { weight: 3, arbitrary: value.map((v): ArgumentUse => ({ mode: 'inline', value: v })) },
  );
}

export interface GraphQLDocument {
  query: string;
  variables: Record<string, unknown>;
  /** The response keys under which the root field is asked (its aliases, or its name). */
  keys: string[];
}

const DOCUMENT_BREAKERS = ['{', '}', '(', ')', '$', '@', '!', '"', '#', ':', '...', '\\', '\u0000'];

/** A document asking one root field in many shapes; a clean one is valid GraphQL. */
function documentOf(spec: RootFieldSpec, clean: boolean): fc.Arbitrary<GraphQLDocument> {
  const names = Object.keys(spec.args);
  const sometimes = <T>(usual: T, odd: fc.Arbitrary<T>): fc.Arbitrary<T> =>
    clean
      ? fc.constant(usual)
      : fc.oneof({ weight: 9, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: odd });
  return fc
    .record({
      uses: fc.tuple(...names.map((name) => argumentUse(spec.args[name], clean))),
      selection: selectionOf(spec.returns, 2, clean),
      // How many times the field is asked, each under an alias or its own name.
      aliases: fc.array(
        fc.option(fc.constantFrom('a', 'b', 'c', 'first', 'getQuiz', 'data'), {
          freq: 2,
          nil: undefined,
        }),
        { minLength: 1, maxLength: 2 },
      ),
      operation: sometimes<string>(
        spec.operation,
        fc.constantFrom('query', 'mutation', 'subscription', ''),
      ),
      operationName: fc.option(fc.constantFrom('Fuzz', 'Q'), { nil: undefined }),
      wrapper: fc.constantFrom('none', 'none', 'none', 'inline', 'fragment', 'selectionFragment'),
      undeclared: sometimes('', fc.constantFrom('$nope: Int', '$x: [[String]]', '$y: Int = "a"')),
      typename: fc.boolean(),
      breaker: sometimes<[number, string] | undefined>(
        undefined,
        fc.tuple(fc.nat(), fc.constantFrom(...DOCUMENT_BREAKERS, 'cut')),
      ),
    })
    .map(
      ({
        uses,
        selection,
        aliases,
        operation,
        operationName,
        wrapper,
        undeclared,
        typename,
        breaker,
      }) => {
        const declarations: string[] = [];
        const variables: Record<string, unknown> = {};
        const args: string[] = [];
        uses.forEach((use, index) => {
          const name = names[index];
          if (use.mode === 'absent') return;
          if (use.mode === 'inline') {
            args.push(`${name}: ${graphQLLiteral(use.value, spec.args[name].enumValues)}`);
            return;
          }
          declarations.push(`$${name}: ${use.declared}`);
          args.push(`${name}: $${name}`);
          if (use.sent) variables[name] = use.value;
        });
        if (undeclared) declarations.push(undeclared);
        const argText = args.length > 0 ? `(${args.join(', ')})` : '';
        const rootType = spec.operation === 'mutation' ? 'Mutation' : 'Query';
        let fragments = '';
        let fieldSelection = selection;
        if (wrapper === 'selectionFragment') {
          fragments += ` fragment S on ${spec.returns.name} ${selection}`;
          fieldSelection = '{ ...S }';
        }
        const keys = aliases.map((alias) => alias ?? spec.name);
        let body = aliases
          .map((alias) => `${alias ? `${alias}: ` : ''}${spec.name}${argText} ${fieldSelection}`)
          .join(' ');
        if (wrapper === 'inline') body = `... on ${rootType} { ${body} }`;
        if (wrapper === 'fragment') {
          fragments += ` fragment R on ${rootType} { ${body} }`;
          body = '...R';
        }
        if (typename) body = `__typename ${body}`;
        const header = [
          operation,
          operationName,
          declarations.length > 0 ? `(${declarations.join(', ')})` : '',
        ]
          .filter(Boolean)
          .join(' ');
        let query = `${header} { ${body} }${fragments}`;
        if (breaker) {
          const [at, piece] = breaker;
          const position = at % (query.length + 1);
          query =
            piece === 'cut'
              ? query.slice(0, position)
              : `${query.slice(0, position)}${piece}${query.slice(position)}`;
        }
        return { query: query.trim(), variables, keys: [...new Set(keys)] };
      },
    );
}

/*
 * Whole requests.
 */

/** An HTTP request as sent; `path` holds the query string. */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface WeightedCredentials {
  weight: number;
  credentials: FuzzCredentials;
  /** Credentials a client sends in the normal course (a valid key, maybe a valid token). */
  usual?: boolean;
  /** Whose sets these credentials may use: a key of FuzzPools.sets. */
  owner?: string;
}

function credentialsArb(
  all: readonly WeightedCredentials[],
  clean: boolean,
): fc.Arbitrary<WeightedCredentials> {
  const choices = clean ? all.filter((choice) => choice.usual) : all;
  return fc.oneof(
    ...choices.map((choice) => ({ weight: choice.weight, arbitrary: fc.constant(choice) })),
  );
}

/** Builds an operation's spec once per owner whose sets its clean requests favour. */
function specsByOwner<T extends { name: string }>(
  build: (owner?: string) => T[],
  name: string,
): (owner?: string) => T {
  const specs = new Map<string | undefined, T>();
  return (owner) => {
    let spec = specs.get(owner);
    if (!spec) {
      spec = build(owner).find((candidate) => candidate.name === name);
      if (!spec) throw new Error(`no operation ${name}`);
      specs.set(owner, spec);
    }
    return spec;
  };
}

const ORIGINS = [
  'https://evil.example',
  'http://localhost:5173',
  'null',
  'http://127.0.0.1',
  'http://school.example',
];

/** A REST operation (src/api/rest/operations) and the values of each of its parameters. */
export interface RestOperationSpec {
  name: string;
  method: 'GET' | 'POST';
  params: Record<string, ParamValues>;
  /** Parameters a clean request always gives (contract.md §6). */
  required?: readonly string[];
}

export function restOperationSpecs(pools: FuzzPools, owner?: string): RestOperationSpec[] {
  const id = (pool: readonly string[]) => idValues(pool, pools.unknownId);
  const quizId = id(pools.quizIds);
  const userId = id(pools.userIds);
  const sessionId = id(pools.sessionIds);
  const get = (
    name: string,
    params: Record<string, ParamValues>,
    required: readonly string[] = [],
  ): RestOperationSpec => ({ name, method: 'GET', params, required });
  return [
    get('getQuiz', { quizId }, ['quizId']),
    // The quiz itself travels in the body or the query string: see restRequest.
    { name: 'addQuiz', method: 'POST', params: {} },
    get('getQuizSet', {
      keywords: searchValues,
      quizId,
      tag: searchValues,
      author: userId,
      player: userId,
      sessionId,
      creationDate: dateValues,
      modificationDate: dateValues,
      numberOfItemsPerPage: integerValues,
    }),
    get('getQuizAttribute', { quizId, attributeName: enumValues(QUIZ_ATTRIBUTE_NAMES) }, [
      'quizId',
      'attributeName',
    ]),
    get('getUser', { userId }, ['userId']),
    get('getUserAttribute', { userId, attributeName: enumValues(USER_ATTRIBUTE_NAMES) }, [
      'userId',
      'attributeName',
    ]),
    get('getUserSet', {
      userId,
      userGroupSetId: id(setIds(pools, owner, 'userGroup')),
      sessionId,
      raisedHand: booleanValues,
      quizId,
      numberOfItemsPerPage: integerValues,
    }),
    get('getUserGroupSet', { search: searchValues, numberOfItemsPerPage: integerValues }),
    get(
      'getResults',
      {
        userSetId: id(setIds(pools, owner, 'user')),
        quizSetId: id(setIds(pools, owner, 'quiz')),
        resultTypes: listValues(enumValues(RESULT_TYPES)),
        aggregationFunctions: listValues(enumValues(AGGREGATION_FUNCTIONS)),
        groupBy: enumValues(GROUP_BY),
        sessionIds: listValues(sessionId),
        sessionId,
        includeQuizzes: enumValues(INCLUDE_QUIZZES),
        numberOfItemsPerPage: integerValues,
      },
      ['userSetId', 'quizSetId'],
    ),
    get(
      'computeDataSet',
      {
        dataSetId1: id(setIds(pools, owner)),
        dataSetId2: id(setIds(pools, owner)),
        operator: enumValues(SET_OPERATORS),
        numberOfItemsPerPage: integerValues,
      },
      ['dataSetId1', 'dataSetId2', 'operator'],
    ),
    get('getDataSetPage', { dataSetId: id(setIds(pools, owner)), pageIndex: integerValues }, [
      'dataSetId',
    ]),
  ];
}

/** Where addQuiz's quiz travels: the contract's JSON body, the query string, both, or oddly. */
type QuizPlacement = 'body' | 'query' | 'both' | 'bare' | 'stringified' | 'none';

/**
 * A request to a REST operation: method, parameters, credentials, body, headers. Half are clean
 * (the operation's method, usual credentials, each parameter absent or given once with a value a
 * client would send, the quiz as a JSON body): those reach the services, where the fuzzed values
 * meet the data; the others are odd or hostile in every part.
 */
export function restRequest(
  name: string,
  pools: FuzzPools,
  credentials: readonly WeightedCredentials[],
): fc.Arbitrary<FuzzRequest> {
  const specFor = specsByOwner((owner) => restOperationSpecs(pools, owner), name);
  return fc
    .boolean()
    .chain((clean) =>
      credentialsArb(credentials, clean).chain((choice) =>
        restRequestOf(specFor(clean ? choice.owner : undefined), choice.credentials, clean),
      ),
    );
}

function restRequestOf(
  spec: RestOperationSpec,
  credentials: FuzzCredentials,
  clean: boolean,
): fc.Arbitrary<FuzzRequest> {
  const names = Object.keys(spec.params);
  const isAddQuiz = spec.name === 'addQuiz';
  const paramValues = fc.dictionary(
    fc.constantFrom(...names, 'quiz', 'apiKey', 'x'),
    fc.oneof(anyJson, ...names.map((name) => spec.params[name].any)),
    { maxKeys: 4, noNullPrototype: true },
  );
  const sometimes = <T>(usual: T, odd: fc.Arbitrary<T>, weight = 1): fc.Arbitrary<T> =>
    clean
      ? fc.constant(usual)
      : fc.oneof({ weight: 8, arbitrary: fc.constant(usual) }, { weight, arbitrary: odd });
  const none = <T>(odd: fc.Arbitrary<T>, freq: number) =>
    clean ? fc.constant(undefined) : fc.option(odd, { freq, nil: undefined });
  return fc
    .record({
      method: sometimes<string>(spec.method, fc.constantFrom('GET', 'POST', 'PUT', 'DELETE')),
      credentialsFirst: fc.boolean(),
      params: fc.tuple(
        ...names.map((name) =>
          parameterPairs(name, spec.params[name], clean, spec.required?.includes(name)),
        ),
      ),
      unknown: clean ? fc.constant<QueryPair[]>([]) : unknownPairs,
      noise: clean ? fc.constant<string[]>([]) : rawQueryNoise,
      quiz: quizPayload,
      placement: sometimes<QuizPlacement>(
        'body',
        fc.constantFrom<QuizPlacement>('query', 'both', 'bare', 'stringified', 'none'),
        4,
      ),
      extraBodyFields: none(paramValues, 4),
      // Bodies of the other operations (and the other methods): anything.
      body: none(bodyArb(fc.oneof(anyJson, paramValues)), 2),
      quizBody: clean
        ? fc.constant<FuzzBody>({ contentType: 'application/json', text: '' })
        : bodyArb(fc.constant(null), 12),
      origin: none(fc.constantFrom(...ORIGINS), 8),
    })
    .map((r) => {
      const pairs: QueryPair[] = r.params.flat();
      pairs.push(...r.unknown);
      let body: FuzzBody | undefined = r.body;
      if (isAddQuiz) {
        const quizText = JSON.stringify(r.quiz) ?? '';
        if (r.placement === 'query' || r.placement === 'both') pairs.push(['quiz', quizText]);
        const fields: Record<string, unknown> = { ...r.extraBodyFields };
        if (r.placement === 'body' || r.placement === 'both') fields.quiz = r.quiz;
        if (r.placement === 'stringified') fields.quiz = quizText;
        const value = r.placement === 'bare' ? r.quiz : fields;
        if (r.placement !== 'query' || r.extraBodyFields) {
          body = { ...r.quizBody, text: JSON.stringify(value) ?? '' };
        }
      }
      const credentialPairs: QueryPair[] = credentials.pairs;
      const all = r.credentialsFirst
        ? [...credentialPairs, ...pairs]
        : [...pairs, ...credentialPairs];
      const search = queryString(all, r.noise);
      const headers: Record<string, string> = {};
      if (r.origin) headers.origin = r.origin;
      const request: FuzzRequest = {
        method: r.method,
        path: `/${spec.name}${search ? `?${search}` : ''}`,
        headers,
      };
      // fetch sends no body with GET.
      if (body && r.method !== 'GET') {
        if (body.contentType) headers['content-type'] = body.contentType;
        if (body.contentEncoding) headers['content-encoding'] = body.contentEncoding;
        request.body = body.text;
      }
      return request;
    });
}

type GraphQLTransport =
  | 'post'
  | 'get'
  | 'get-no-preflight'
  | 'post-text'
  | 'post-form'
  | 'post-latin1'
  | 'post-compress'
  | 'batch'
  | 'variables-string'
  | 'variables-array'
  | 'no-query'
  | 'query-not-string'
  | 'put'
  | 'delete'
  | 'operation-name';

const ASCII = /^[\x20-\x7e]*$/;

/** A GraphQL request for one root field over HTTP, as clients (and others) send it. */
export function graphQLRequest(
  name: string,
  pools: FuzzPools,
  credentials: readonly WeightedCredentials[],
): fc.Arbitrary<FuzzRequest & { keys: string[] }> {
  const specFor = specsByOwner((owner) => rootFieldSpecs(pools, owner), name);
  // Half the requests are valid GraphQL with usual credentials, so that the hostile values reach
  // the resolvers often; the others are odd in every part.
  return fc
    .boolean()
    .chain((clean) =>
      credentialsArb(credentials, clean).chain((choice) =>
        graphQLRequestOf(specFor(clean ? choice.owner : undefined), choice.credentials, clean),
      ),
    );
}

const CLEAN_TRANSPORTS: Readonly<Record<RootFieldSpec['operation'], GraphQLTransport[]>> = {
  query: ['post', 'post', 'post', 'get'],
  // Apollo runs mutations over POST only.
  mutation: ['post'],
};

function graphQLRequestOf(
  spec: RootFieldSpec,
  creds: FuzzCredentials,
  clean: boolean,
): fc.Arbitrary<FuzzRequest & { keys: string[] }> {
  return fc
    .record({
      document: documentOf(spec, clean),
      transport: clean
        ? fc.constantFrom(...CLEAN_TRANSPORTS[spec.operation])
        : fc.oneof(
            { weight: 12, arbitrary: fc.constant<GraphQLTransport>('post') },
            { weight: 4, arbitrary: fc.constant<GraphQLTransport>('get') },
            {
              weight: 1,
              arbitrary: fc.constantFrom<GraphQLTransport>(
                'get-no-preflight',
                'post-text',
                'post-form',
                'batch',
                'variables-string',
                'variables-array',
                'no-query',
                'query-not-string',
                'put',
                'delete',
                'operation-name',
              ),
            },
          ),
      inHeaders: fc.boolean(),
      origin: clean
        ? fc.constant(undefined)
        : fc.option(fc.constantFrom(...ORIGINS), { freq: 8, nil: undefined }),
    })
    .map(({ document, transport, inHeaders, origin }) => {
      const headers: Record<string, string> = {};
      if (origin) headers.origin = origin;
      let pairs: QueryPair[] = creds.pairs;
      // X-Api-Key and Authorization: Bearer (contract.md §3) carry printable ASCII only.
      if (inHeaders && creds.pairs.every(([, value]) => ASCII.test(value))) {
        pairs = [];
        for (const [name, value] of creds.pairs) {
          if (name === 'apiKey') headers['x-api-key'] = value;
          else if (name === 'accessToken') headers.authorization = `Bearer ${value}`;
          else pairs.push([name, value]);
        }
      }
      const { query, variables, keys } = document;
      const payload: Record<string, unknown> = { query, variables };
      let method = 'POST';
      let body: string | undefined;
      switch (transport) {
        case 'get':
        case 'get-no-preflight':
          method = 'GET';
          pairs = [...pairs, ['query', query], ['variables', JSON.stringify(variables)]];
          // Apollo's CSRF prevention lets a GET through only with a header a form cannot set.
          if (transport === 'get') headers['apollo-require-preflight'] = 'true';
          break;
        case 'post-text':
        case 'post-form':
          headers['content-type'] =
            transport === 'post-text' ? 'text/plain' : 'application/x-www-form-urlencoded';
          body = JSON.stringify(payload);
          break;
        case 'post-latin1':
          headers['content-type'] = 'application/json; charset=latin1';
          body = JSON.stringify(payload);
          break;
        case 'post-compress':
          // Announced, not applied: the bytes are plain JSON.
          headers['content-encoding'] = 'compress';
          body = JSON.stringify(payload);
          break;
        case 'batch':
          body = JSON.stringify([payload, payload]);
          break;
        case 'variables-string':
          body = JSON.stringify({ query, variables: JSON.stringify(variables) });
          break;
        case 'variables-array':
          body = JSON.stringify({ query, variables: Object.values(variables) });
          break;
        case 'no-query':
          body = JSON.stringify({ variables });
          break;
        case 'query-not-string':
          body = JSON.stringify({ query: [query], variables });
          break;
        case 'put':
        case 'delete':
          method = transport.toUpperCase();
          body = JSON.stringify(payload);
          break;
        case 'operation-name':
          body = JSON.stringify({ ...payload, operationName: 'Nope' });
          break;
        default:
          body = JSON.stringify(payload);
      }
      if (body !== undefined && !headers['content-type'])
        headers['content-type'] = 'application/json';
      const search = queryString(pairs);
      return {
        method,
        path: `/graphql${search ? `?${search}` : ''}`,
        headers,
        ...(body === undefined ? {} : { body }),
        keys,
      };
    });
}

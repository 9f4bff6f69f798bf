import fc from 'fast-check';
import { leakFree } from './leaks';
import { USER_ATTRIBUTE_NAMES as SERVICE_USER_ATTRIBUTES } from '../../../src/services/attributes/item-attribute';

/**
 * Parameter values, as text, for both transports: hostile texts, and per kind of parameter (ids,
 * booleans, integers, enums, lists, dates, search) the values a client would send and odd ones.
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

export const hostileText: fc.Arbitrary<string> = fc
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
export function idValues(pool: readonly string[], unknownId: string): ParamValues {
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

export const booleanValues = values(
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
export const integerValues = values(
  fc.constantFrom('1', '2', '3', '10', '50', '1000'),
  fc.oneof(
    fc.constantFrom('1001', '0', '-1', '1.5', '1e2', '01', ' 3', '+2', '9999999999', '2147483648'),
    fc.constantFrom('-2147483649', '0x10', '3,4'),
    fc.integer().map(String),
  ),
);

export function enumValues(names: readonly string[]): ParamValues {
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
export function listValues(items: ParamValues): ParamValues {
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
export const dateValues = values(
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

/**
 * Join codes (contract.md §9): well-formed ones of the code alphabet (no session has them: the
 * join is refused, or limited once the requester failed too often), and near misses.
 */
export const joinCodeValues = values(
  fc
    .array(fc.constantFrom(...'23456789ABCDEFGHJKMNPQRSTUVWXYZ'), { minLength: 8, maxLength: 8 })
    .map((chars) => chars.join('')),
  fc.constantFrom('abcd-efgh', 'ABCD EFGH', 'OOOOOOOO', '0000', 'ABCDEFGHJ', '', ' ', 'IL10IL10'),
);

/** Search text: words of the fixture, LIKE wildcards, and anything. */
export const searchValues = values(
  fc.constantFrom('math', 'Fractions', 'frac', 'geo', 'Ada', 'Lovelace', 'Class', 'Rob', 'Paris'),
  fc.constantFrom('é', '%', '_', '%a%', 'a_b', 'MATH', ' math '),
  2,
);

export { QUIZ_ATTRIBUTE_NAMES } from '../../../src/services/attributes/item-attribute';
/** The user attributes, and names a client might try that must be refused. */
export const USER_ATTRIBUTE_NAMES = [...SERVICE_USER_ATTRIBUTES, 'email', 'passwordHash', 'id'];
export { RESULT_TYPES } from '../../../src/domain/results/result-types.registry';
export { AGGREGATION_FUNCTIONS } from '../../../src/domain/results/aggregation-functions.registry';
export const GROUP_BY = ['user', 'quiz'];
export const INCLUDE_QUIZZES = ['answered', 'all'];
export const SET_OPERATORS = ['union', 'intersection', 'difference'];
export const EXPORT_FORMATS = ['csv', 'ndjson'];

import {
  InvalidInputError,
  dateTime,
  distinctList,
  optionalDateTime,
} from '../../src/domain/validation/checks';
import { refusal } from '../helpers/rules';

describe('dateTime: the wire datetime `YYYY-MM-DD hh:mm:ss` in UTC (contract.md §1)', () => {
  it.each([
    ['2026-09-07 09:00:00', '2026-09-07T09:00:00.000Z'],
    ['2028-02-29 23:59:59', '2028-02-29T23:59:59.000Z'],
    ['1000-01-01 00:00:00', '1000-01-01T00:00:00.000Z'],
  ])('reads %p', (text, iso) => {
    expect(dateTime(text, 'p').toISOString()).toBe(iso);
  });

  it.each<[unknown, string]>([
    ['2026-02-30 10:00:00', '2026-02-30 10:00:00 is not a real date and time'],
    ['2027-02-29 10:00:00', '2027-02-29 10:00:00 is not a real date and time'],
    ['2026-09-07 24:00:00', '2026-09-07 24:00:00 is not a real date and time'],
    ['0999-12-31 10:00:00', '0999-12-31 10:00:00 is not a real date and time'],
    ['2026-09-07T09:00:00', 'expected a date "YYYY-MM-DD hh:mm:ss", got "2026-09-07T09:00:00"'],
    ['2026-09-07', 'expected a date "YYYY-MM-DD hh:mm:ss", got "2026-09-07"'],
    [1_790_000_000, 'expected a date "YYYY-MM-DD hh:mm:ss", got 1790000000'],
    [undefined, 'expected a date "YYYY-MM-DD hh:mm:ss", got nothing'],
  ])('refuses %p', (value, reason) => {
    expect(refusal(() => dateTime(value, 'sessions[0].startDate'))).toEqual({
      path: 'sessions[0].startDate',
      reason,
      missing: false,
    });
  });

  it('optionalDateTime reads null and undefined as no date', () => {
    expect(optionalDateTime(null, 'p')).toBeNull();
    expect(optionalDateTime(undefined, 'p')).toBeNull();
    expect(optionalDateTime('2026-09-07 09:00:00', 'p')).toEqual(
      dateTime('2026-09-07 09:00:00', 'p'),
    );
  });
});

describe('distinctList: an optional list of keys, none twice', () => {
  const upper = (item: unknown, itemPath: string): string => {
    if (typeof item !== 'string') throw new InvalidInputError(itemPath, 'not a text');
    return item.toUpperCase();
  };

  it('keys every item, in order; absent is empty', () => {
    expect(distinctList(['a', 'b'], 'p', 'quiz', upper)).toEqual(['A', 'B']);
    expect(distinctList(undefined, 'p', 'quiz', upper)).toEqual([]);
    expect(distinctList(null, 'p', 'quiz', upper)).toEqual([]);
  });

  it('names the second item with the same key, and what the key function refuses', () => {
    expect(refusal(() => distinctList(['a', 'b', 'A'], 'session.quizIds', 'quiz', upper))).toEqual({
      path: 'session.quizIds[2]',
      reason: 'quiz "A" is listed twice',
      missing: false,
    });
    expect(refusal(() => distinctList(['a', 3], 'groups[0].members', 'user', upper))).toEqual({
      path: 'groups[0].members[1]',
      reason: 'not a text',
      missing: false,
    });
    expect(refusal(() => distinctList('a', 'p', 'user', upper))).toEqual({
      path: 'p',
      reason: 'expected an array, got "a"',
      missing: false,
    });
  });
});

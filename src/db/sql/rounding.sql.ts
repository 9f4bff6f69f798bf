import type { Dialect } from './dialect';

/** Values are snapped to multiples of 1/SCALE before rounding (see roundedSql). */
const SCALE = 10_000_000_000;

/**
 * `x` rounded to 2 decimals, half away from zero, identically on every dialect.
 *
 * Doubles cannot hold most 2-decimal ties (2.675 is stored as 2.67499999…), so `x` is first
 * snapped to the nearest multiple of 1e-10 (the same IEEE operations on every dialect: ×1e10,
 * +0.5, floor), then rounded with integer arithmetic: (n + 5·10⁷) div 10⁸ hundredths, divided
 * by 100 in double (the nearest double to the 2-decimal value, on every dialect).
 *
 * Why it is exact: every value is computed in DOUBLE from exact integers — one division for an
 * attempt's value, and an aggregate of k of them is within about k·1.2e-14 of its exact value
 * (values up to 100; integer-valued types sum exactly). While that stays under the snap's reach
 * (5e-11, so k up to a few thousand), an exact tie snaps onto itself and is decided by integer
 * arithmetic, and a value p/q that is not a tie, being at least 1/(200q) from every tie, keeps
 * its side whenever q < 9·10⁷: every attempt value (q = nbQuestions or 2N), min, max, count,
 * median (q ≤ 2·q₁·q₂), averages of counts and durations (q = k) and averages within one quiz.
 * Only averages across quizzes and standard deviations have no such bound: they are exact
 * unless the value lies within 1e-10 of a tie without being one. Values must stay under 9·10⁵
 * (×1e10 below 2⁵³), which durations of realistic attempts do.
 */
export function roundedSql(dialect: Dialect, x: string): string {
  const snapped = `FLOOR(ABS(${x}) * 1e10 + 5e-1)`;
  const hundredths = dialect.integerDivide(
    `(${dialect.integer(snapped)} + ${SCALE / 200})`,
    `${SCALE / 100}`,
  );
  return `(SIGN(${x}) * ${hundredths} / 1e2)`;
}

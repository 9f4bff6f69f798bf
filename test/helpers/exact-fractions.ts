/**
 * Exact rational arithmetic (BigInt) and the contract's rounding (contract.md §7: 2 decimals,
 * half away from zero, once), for the oracles that hold the service's numbers to references
 * written in plain TypeScript.
 */

/** A rational n/d, d > 0, in lowest terms. */
export interface Fraction {
  n: bigint;
  d: bigint;
}

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b));

export function fraction(n: bigint, d = 1n): Fraction {
  const sign = d < 0n ? -1n : 1n;
  const g = gcd(n, d) || 1n;
  return { n: (sign * n) / g, d: (sign * d) / g };
}

export const add = (a: Fraction, b: Fraction) => fraction(a.n * b.d + b.n * a.d, a.d * b.d);
export const sub = (a: Fraction, b: Fraction) => fraction(a.n * b.d - b.n * a.d, a.d * b.d);
export const mul = (a: Fraction, b: Fraction) => fraction(a.n * b.n, a.d * b.d);
export const div = (a: Fraction, b: Fraction) => fraction(a.n * b.d, a.d * b.n);
export const divInt = (a: Fraction, k: number) => fraction(a.n, a.d * BigInt(k));
export const int = (k: number) => fraction(BigInt(k));
export const compare = (a: Fraction, b: Fraction) => {
  const diff = a.n * b.d - b.n * a.d;
  return diff < 0n ? -1 : diff > 0n ? 1 : 0;
};
export const abs = (a: Fraction): Fraction => ({ n: a.n < 0n ? -a.n : a.n, d: a.d });

/** The exact value of a non-negative double, as a fraction. */
function exactDouble(value: number): Fraction {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const mantissa = (bits & ((1n << 52n) - 1n)) | (exponent === 0 ? 0n : 1n << 52n);
  const shift = Math.max(exponent, 1) - 1075;
  return shift >= 0
    ? fraction(mantissa << BigInt(shift))
    : fraction(mantissa, 1n << BigInt(-shift));
}

/**
 * Exact ties (x.xx5) rounded so far, and those whose nearest double lies below the half (2.675
 * does): the values a rounding done on doubles gets wrong. Suites check they met some.
 */
export const ties = { all: 0, below: 0 };

/** -0 reads as 0 on the wire. */
const plain = (value: number) => (value === 0 ? 0 : value);

/** 2 decimals, half away from zero: sign × floor(100|x| + 1/2) hundredths. */
export function round2(x: Fraction): number {
  const a = abs(x);
  const halves = 200n * a.n;
  if (halves % a.d === 0n && (halves / a.d) % 2n === 1n) {
    ties.all += 1;
    if (compare(exactDouble(Number(a.n) / Number(a.d)), a) < 0) ties.below += 1;
  }
  const hundredths = Number((200n * a.n + a.d) / (2n * a.d));
  return plain(((x.n < 0n ? -1 : 1) * hundredths) / 100);
}

/**
 * ±√|square| to 2 decimals, half away from zero, exactly: the largest h with
 * (2h − 1)² ≤ 40000·|square|.
 */
export function roundSqrt2(square: Fraction, negative = false): number {
  const x = abs(square);
  const fits = (h: bigint) => h === 0n || (2n * h - 1n) ** 2n * x.d <= 40000n * x.n;
  let h = BigInt(Math.floor(100 * Math.sqrt(Number(x.n) / Number(x.d)) + 0.5));
  while (fits(h + 1n)) h += 1n;
  while (h > 0n && !fits(h)) h -= 1n;
  return plain(((negative ? -1 : 1) * Number(h)) / 100);
}

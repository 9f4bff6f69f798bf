import fc from 'fast-check';
import type { WeightedCredentials } from './pools';

/**
 * Generators of hostile requests for the fuzz suite (test/integration/fuzz.slow.test.ts): every
 * REST operation and every GraphQL root field, with parameters present, absent, blank, repeated
 * or of the wrong type, odd credentials, methods, bodies and content types. Each generated request
 * is a plain object that reads as the HTTP request it describes, so a counterexample printed by
 * fast-check can be replayed by hand.
 */

/*
 * What REST and GraphQL requests share.
 */

/** An HTTP request as sent; `path` holds the query string. */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export function credentialsArb(
  all: readonly WeightedCredentials[],
  clean: boolean,
): fc.Arbitrary<WeightedCredentials> {
  const choices = clean ? all.filter((choice) => choice.usual) : all;
  return fc.oneof(
    ...choices.map((choice) => ({ weight: choice.weight, arbitrary: fc.constant(choice) })),
  );
}

/** Builds an operation's spec once per owner whose sets its clean requests favour. */
export function specsByOwner<T extends { name: string }>(
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

export const ORIGINS = [
  'https://evil.example',
  'http://localhost:5173',
  'null',
  'http://127.0.0.1',
  'http://school.example',
];

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

export function queryString(pairs: readonly QueryPair[], raw: readonly string[] = []): string {
  const parts = pairs.map(([name, value]) =>
    value === null
      ? encodeQueryComponent(name)
      : `${encodeQueryComponent(name)}=${encodeQueryComponent(value)}`,
  );
  return [...parts, ...raw].join('&');
}

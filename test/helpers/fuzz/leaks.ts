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
export const leakFree = (value: unknown): boolean =>
  leakIn(JSON.stringify(value) ?? '') === undefined;

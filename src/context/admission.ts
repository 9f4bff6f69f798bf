/**
 * Whether a request's rate-limit charge let it through. An operation that writes nothing but data
 * sets runs beside its charge instead of after it: its reads and its computation overlap the
 * charge's round trip and commit, and whatever it writes waits for `wait()` before committing, so
 * a refused request leaves nothing behind. The transport answers with the refusal, if any, first.
 */
export interface Admission {
  /** True once the charge has answered, either way. */
  readonly settled: boolean;
  /** Resolves when the request was let through; rejects with the refusal (429, 401, 503). */
  wait(): Promise<void>;
}

/** The admission of a request charged before its work, or of one that is never charged. */
export const ADMITTED: Admission = { settled: true, wait: () => Promise.resolve() };

/** The admission a charge in flight gives. */
export function admissionOf(charge: Promise<void>): Admission {
  let settled = false;
  const done = charge.then(
    () => {
      settled = true;
    },
    (error: unknown) => {
      settled = true;
      throw error;
    },
  );
  // Whoever waits sees the refusal; an operation that never waits must not make it unhandled.
  done.catch(() => undefined);
  return {
    get settled() {
      return settled;
    },
    wait: () => done,
  };
}

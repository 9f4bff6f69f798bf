import { InvalidInputError } from '../../src/domain/validation/checks';

/** What a domain rule refused: its path, reason and missing flag, to compare whole. */
export interface Refusal {
  path: string;
  reason: string;
  missing: boolean;
}

/** Runs a rule that must refuse its value and returns the refusal. */
export function refusal(rule: () => unknown): Refusal {
  try {
    rule();
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    return { path: error.path, reason: error.reason, missing: error.missing };
  }
  throw new Error('the rule accepted the value');
}

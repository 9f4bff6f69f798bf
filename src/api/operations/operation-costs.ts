/**
 * What an operation costs its client (contract.md §11): points of the API key's rate-limit
 * budget, and the data sets or records it writes (a GraphQL document may hold at most
 * MAX_WRITES_PER_DOCUMENT of those). Each definition of the catalog names its cost.
 */
export interface OperationCost {
  points: number;
  writes: number;
  /**
   * It writes records other than data sets (quizzes, sessions, answers): it runs only once the
   * request was charged. The others run beside their charge (context/admission.ts): data sets are
   * committed only once the charge let the request through.
   */
  records?: true;
}

export const READ: OperationCost = { points: 1, writes: 0 };
/** Writes one record (addQuiz). */
export const WRITE: OperationCost = { points: 1, writes: 1, records: true };
/** Makes a data set (a set operation, computed results): 5 points. */
export const SET: OperationCost = { points: 5, writes: 1 };

/** Root fields of one GraphQL document that may write (data sets, or records by mutations). */
export const MAX_WRITES_PER_DOCUMENT = 10;

/** The sentence of the descriptions that tells the points. */
export function pointsSentence({ points }: OperationCost): string {
  return `Costs ${points} point${points === 1 ? '' : 's'} of the API key's rate-limit budget.`;
}

/** The sentence of the SDL that tells how many writing root fields it counts as, if any. */
export function writesSentence({ writes }: OperationCost): string {
  return writes > 0
    ? ` Counts as ${writes} of the ${MAX_WRITES_PER_DOCUMENT} writing root fields a document may hold.`
    : '';
}

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
  /**
   * Points charged besides `points` by size: this many per 1,000 items started after the first
   * 1,000, charged before the first byte once the size is known (exportDataSet).
   */
  perThousandItems?: number;
}

export const READ: OperationCost = { points: 1, writes: 0 };
/** Writes one record (addQuiz). */
export const WRITE: OperationCost = { points: 1, writes: 1, records: true };
/** Makes a data set (a set operation, computed results): 5 points. */
export const SET: OperationCost = { points: 5, writes: 1 };

/**
 * Streams a whole set (exportDataSet): what reading it page by page at the largest page size
 * (1,000) would cost, 1 point per 1,000 items started, at least 1.
 */
export const EXPORT: OperationCost = { points: 1, writes: 0, perThousandItems: 1 };

/** The points an answer of `items` items costs beyond the operation's `points`. */
export function pointsForItems(cost: OperationCost, items: number): number {
  if (!cost.perThousandItems) return 0;
  return Math.max(0, Math.ceil(items / 1000) - 1) * cost.perThousandItems;
}

/** Root fields of one GraphQL document that may write (data sets, or records by mutations). */
export const MAX_WRITES_PER_DOCUMENT = 10;

/** The sentence of the descriptions that tells the points. */
export function pointsSentence({ points, perThousandItems }: OperationCost): string {
  const bySize = perThousandItems
    ? `, plus ${perThousandItems} per 1,000 items started after the first 1,000`
    : '';
  return `Costs ${points} point${points === 1 ? '' : 's'} of the API key's rate-limit budget${bySize}.`;
}

/** The sentence of the SDL that tells how many writing root fields it counts as, if any. */
export function writesSentence({ writes }: OperationCost): string {
  return writes > 0
    ? ` Counts as ${writes} of the ${MAX_WRITES_PER_DOCUMENT} writing root fields a document may hold.`
    : '';
}

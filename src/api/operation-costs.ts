/**
 * What each operation costs its client (contract.md §11), read by both transports and the
 * OpenAPI and SDL descriptions: points of the API key's rate-limit budget, and the data sets or
 * records it writes (a GraphQL document may hold at most MAX_WRITES_PER_DOCUMENT of those).
 */
export interface OperationCost {
  points: number;
  writes: number;
}

const READ: OperationCost = { points: 1, writes: 0 };
/** Makes a data set (a set operation, computed results): 5 points. */
const SET: OperationCost = { points: 5, writes: 1 };

export const OPERATION_COSTS: Readonly<Record<string, OperationCost>> = {
  getQuiz: READ,
  addQuiz: { points: 1, writes: 1 },
  getQuizSet: SET,
  getQuizAttribute: READ,
  getUser: READ,
  getUserAttribute: READ,
  getUserSet: SET,
  getUserGroupSet: SET,
  getResults: SET,
  computeDataSet: SET,
  getDataSetPage: READ,
  // GraphQL only: a user set, a quiz set and their results.
  getSessionResults: { points: 3 * SET.points, writes: 3 },
};

/** Root fields of one GraphQL document that may write (data sets, or records by mutations). */
export const MAX_WRITES_PER_DOCUMENT = 10;

/** The cost of an operation by name; names outside the catalog (`__typename`) cost nothing. */
export function operationCost(name: string): OperationCost {
  return Object.hasOwn(OPERATION_COSTS, name) ? OPERATION_COSTS[name] : { points: 0, writes: 0 };
}

/** A root field's description, followed by what it costs (shown in the SDL and IDEs). */
export function describedWithCost(name: string, description: string): string {
  const { points, writes } = operationCost(name);
  const written =
    writes > 0
      ? ` Counts as ${writes} of the ${MAX_WRITES_PER_DOCUMENT} writing root fields a document may hold.`
      : '';
  return `${description} Costs ${points} point${points === 1 ? '' : 's'} of the API key's rate-limit budget.${written}`;
}

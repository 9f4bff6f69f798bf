import { Errors } from '../../errors';
import { isGiven, parseIdParam, type RawParam } from '../sets/data-set.params';
import { AGGREGATION_FUNCTIONS } from '../../domain/results/aggregation-functions.registry';
import {
  isResultType,
  RESULT_TYPES,
  type ResultType,
} from '../../domain/results/result-types.registry';
import {
  GROUP_BY,
  INCLUDE_QUIZZES,
  type GroupBy,
  type ResultsOptions,
  type ResultsRequest,
} from '../../domain/results/results-request';

/**
 * The parameters of getResults (contract.md §7): parsed from what either transport hands over,
 * and kept as JSON in data_sets.parameters so that every page of a result set reads alike.
 */

export {
  AGGREGATION_FUNCTIONS,
  type AggregationFunction,
} from '../../domain/results/aggregation-functions.registry';
export { RESULT_TYPES, type ResultType } from '../../domain/results/result-types.registry';
export {
  GROUP_BY,
  INCLUDE_QUIZZES,
  type Aggregation,
  type GroupBy,
  type IncludeQuizzes,
  type ResultsOptions,
  type ResultsRequest,
} from '../../domain/results/results-request';

/** Sessions one request may name: each is a bound parameter of the statement. */
export const MAX_SESSION_IDS = 1000;

/** A list parameter: comma-separated text (REST) or an array (GraphQL). */
export type RawListParam = RawParam | readonly (string | number)[];

/** getResults as the transports give it: raw text or arrays, checked by the service. */
export interface RawResultsParams {
  userSetId?: RawParam;
  quizSetId?: RawParam;
  resultTypes?: RawListParam;
  aggregationFunctions?: RawListParam;
  groupBy?: RawParam;
  sessionIds?: RawListParam;
  sessionId?: RawParam;
  includeQuizzes?: RawParam;
  numberOfItemsPerPage?: RawParam;
}

function listItems(value: RawListParam): string[] | undefined {
  if (Array.isArray(value)) {
    const items = value.map((item) => String(item).trim());
    return items.length ? items : undefined;
  }
  const single = value as RawParam;
  if (!isGiven(single)) return undefined;
  return String(single)
    .split(',')
    .map((item) => item.trim());
}

function shownList(value: RawListParam): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}

/** Names from a closed list, without repeats, in the order given; an unknown or empty one is refused. */
function parseNames<T extends string>(
  operation: string,
  name: string,
  value: RawListParam,
  allowed: readonly T[],
): T[] | undefined {
  const items = listItems(value);
  if (!items) return undefined;
  const bad = items.find((item) => !(allowed as readonly string[]).includes(item));
  if (bad !== undefined) {
    throw Errors.badParameter(
      operation,
      name,
      shownList(value),
      `${bad === '' ? 'an empty name' : `"${bad}"`} is not one of ${allowed.join(', ')}`,
    );
  }
  return [...new Set(items as T[])];
}

function parseChoice<T extends string>(
  operation: string,
  name: string,
  value: RawParam,
  allowed: readonly T[],
): T | undefined {
  if (!isGiven(value)) return undefined;
  const text = String(value).trim();
  if (!(allowed as readonly string[]).includes(text)) {
    throw Errors.badParameter(operation, name, value, `must be one of ${allowed.join(', ')}`);
  }
  return text as T;
}

/** A set id that must be given. */
export function requiredId(operation: string, name: string, value: RawParam): number {
  if (!isGiven(value)) throw Errors.missingParameter(operation, name);
  return parseIdParam(operation, name, value);
}

/** sessionIds or sessionId (not both): sorted and without repeats; null for every session. */
export function parseSessions(
  operation: string,
  raw: Pick<RawResultsParams, 'sessionIds' | 'sessionId'>,
): number[] | null {
  const list = listItems(raw.sessionIds ?? undefined);
  const single = isGiven(raw.sessionId) ? raw.sessionId : undefined;
  if (list && single !== undefined) {
    throw Errors.badParameter(
      operation,
      'sessionIds',
      shownList(raw.sessionIds ?? ''),
      'give sessionId or sessionIds, not both',
    );
  }
  if (single !== undefined) return [parseIdParam(operation, 'sessionId', single)];
  if (!list) return null;
  if (list.length > MAX_SESSION_IDS) {
    throw Errors.badParameter(
      operation,
      'sessionIds',
      shownList(raw.sessionIds ?? ''),
      `at most ${MAX_SESSION_IDS} sessions`,
    );
  }
  const ids = list.map((item) => {
    if (item === '') {
      throw Errors.badParameter(
        operation,
        'sessionIds',
        shownList(raw.sessionIds ?? ''),
        'must be positive integer identifiers separated by commas',
      );
    }
    return parseIdParam(operation, 'sessionIds', item);
  });
  return [...new Set(ids)].sort((a, b) => a - b);
}

/**
 * Checks every parameter but the sets. Errors name the parameter: MissingParameterException for
 * groupBy when aggregationFunctions is given; BadParameterException for anything malformed or
 * contradictory.
 */
export function parseResultsOptions(operation: string, raw: RawResultsParams): ResultsOptions {
  const resultTypes = parseNames(
    operation,
    'resultTypes',
    raw.resultTypes ?? undefined,
    RESULT_TYPES,
  ) ?? ['nbGoodAnswers'];
  const functions = parseNames(
    operation,
    'aggregationFunctions',
    raw.aggregationFunctions ?? undefined,
    AGGREGATION_FUNCTIONS,
  );
  const groupBy = parseChoice(operation, 'groupBy', raw.groupBy, GROUP_BY);
  if (functions && !groupBy) throw Errors.missingParameter(operation, 'groupBy');
  if (!functions && groupBy) {
    throw Errors.badParameter(
      operation,
      'groupBy',
      raw.groupBy,
      'is only allowed with aggregationFunctions',
    );
  }
  const includeQuizzes =
    parseChoice(operation, 'includeQuizzes', raw.includeQuizzes, INCLUDE_QUIZZES) ?? 'answered';
  return {
    resultTypes,
    aggregation: functions && groupBy ? { functions, groupBy } : null,
    includeQuizzes,
    sessionIds: parseSessions(operation, raw),
  };
}

/**
 * Checks every parameter but the sets' existence (which needs the database): the two set ids
 * first (MissingParameterException when absent), then the options.
 */
export function parseResultsRequest(operation: string, raw: RawResultsParams): ResultsRequest {
  const userSetId = requiredId(operation, 'userSetId', raw.userSetId);
  const quizSetId = requiredId(operation, 'quizSetId', raw.quizSetId);
  return { userSetId, quizSetId, ...parseResultsOptions(operation, raw) };
}

/** What a result set records in data_sets.parameters. */
export function resultsParametersJson(request: ResultsRequest): string {
  return JSON.stringify({
    resultTypes: request.resultTypes,
    aggregationFunctions: request.aggregation?.functions ?? null,
    groupBy: request.aggregation?.groupBy ?? null,
    includeQuizzes: request.includeQuizzes,
    sessionIds: request.sessionIds,
    userSetId: request.userSetId,
    quizSetId: request.quizSetId,
  });
}

/** How the items of a stored result set are shown. */
export interface StoredResultsShape {
  resultTypes: ResultType[];
  /** null: detailed results. */
  groupBy: GroupBy | null;
}

/**
 * The shape recorded by resultsParametersJson. Unreadable parameters (a set made by hand, or
 * by an older version) fall back to nbGoodAnswers, with the grouping read from the rows.
 */
export function storedResultsShape(parameters: string | null): StoredResultsShape | undefined {
  let parsed: unknown;
  try {
    parsed = parameters ? JSON.parse(parameters) : undefined;
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { resultTypes, groupBy } = parsed as { resultTypes?: unknown; groupBy?: unknown };
  if (!Array.isArray(resultTypes)) return undefined;
  const types = resultTypes.filter(isResultType);
  if (types.length === 0) return undefined;
  return {
    resultTypes: [...new Set(types)],
    groupBy: groupBy === 'user' || groupBy === 'quiz' ? groupBy : null,
  };
}

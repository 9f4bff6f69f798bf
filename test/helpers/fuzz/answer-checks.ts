import type { FuzzRequest } from './requests';

/*
 * What every failure answer must look like: the exception object of the contract, on REST as
 * the body, on GraphQL as each entry of `errors`.
 */

/** The exception types of contract.md §2 and §11, written from the contract. */
const EXCEPTION_TYPES = [
  'MissingParameterException',
  'BadParameterException',
  'UnauthorizedOperationException',
  'UnsupportedRequestException',
  'PayloadTooLargeException',
  'TooManyRequestsException',
  'UnexpectedServerResponseException',
  'InternalServerErrorException',
  'QueryTooComplexException',
];

/** Which types each REST status may carry (contract.md §2). */
const TYPES_OF_STATUS: Readonly<Record<number, readonly string[]>> = {
  400: ['MissingParameterException', 'BadParameterException'],
  401: ['UnauthorizedOperationException'],
  403: ['UnauthorizedOperationException'],
  404: ['BadParameterException', 'UnsupportedRequestException'],
  405: ['UnsupportedRequestException'],
  413: ['PayloadTooLargeException'],
  429: ['TooManyRequestsException'],
};
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** A failure that shows the request and the answer, so it can be replayed by hand. */
export class FuzzFailure extends Error {
  constructor(problem: string, request: FuzzRequest, answer?: Answer) {
    const lines = [problem, `${request.method} ${request.path}`];
    if (Object.keys(request.headers).length > 0) {
      lines.push(`headers: ${JSON.stringify(request.headers)}`);
    }
    if (request.body !== undefined) lines.push(`body: ${request.body.slice(0, 3000)}`);
    if (answer) lines.push(`answer: ${answer.status} ${answer.text.slice(0, 3000)}`);
    super(lines.join('\n'));
  }
}

/** The exception object of contract.md §2, as REST sends it. */
export function checkRestException(
  operation: string,
  request: FuzzRequest,
  answer: Answer,
  body: unknown,
): void {
  const fail = (problem: string): never => {
    throw new FuzzFailure(problem, request, answer);
  };
  if (!isObject(body)) return fail('a failure that is not an exception object');
  for (const field of ['type', 'message', 'operation', 'reason']) {
    if (typeof body[field] !== 'string') fail(`an exception without a string ${field}`);
  }
  const { type, message, reason } = body as Record<string, string>;
  if (!EXCEPTION_TYPES.includes(type)) fail(`unknown exception type ${type}`);
  if (body.operation !== operation) fail(`operation ${String(body.operation)}, not ${operation}`);
  const allowed = TYPES_OF_STATUS[answer.status];
  if (allowed && !allowed.includes(type)) fail(`${type} with HTTP ${answer.status}`);
  if (type === 'MissingParameterException' || type === 'BadParameterException') {
    if (typeof body.parameterName !== 'string') fail(`${type} without parameterName`);
  }
  if (type === 'BadParameterException' && typeof body.providedValue !== 'string') {
    fail('a BadParameterException without a string providedValue');
  }
  const built: Record<string, string> = {
    MissingParameterException: `Missing parameter: ${String(body.parameterName)}`,
    BadParameterException: `Bad parameter: ${String(body.parameterName)} (${reason})`,
    UnauthorizedOperationException: `Unauthorized operation: ${operation} (${reason})`,
  };
  if (type in built && message !== built[type]) {
    fail(`message "${message}", where the contract builds "${built[type]}"`);
  }
  if (answer.status === 405 && !answer.headers.get('allow')) fail('a 405 without Allow');
  if (answer.status === 429 && !answer.headers.get('retry-after')) {
    fail('a 429 without Retry-After');
  }
}

/** contract.md §2 and §11: every entry of `errors` carries the REST exception's fields. */
export function checkGraphQLErrors(
  field: string,
  request: FuzzRequest & { keys: string[] },
  answer: Answer,
  errors: unknown,
): void {
  const fail = (problem: string): never => {
    throw new FuzzFailure(problem, request, answer);
  };
  if (!Array.isArray(errors) || errors.length === 0) return fail('errors is not a non-empty list');
  for (const error of errors as unknown[]) {
    if (!isObject(error) || typeof error.message !== 'string') fail('an error without message');
    const { extensions, path: errorPath } = error as { extensions?: unknown; path?: unknown };
    if (!isObject(extensions)) return fail('an error without extensions');
    for (const name of ['code', 'type', 'operation', 'reason']) {
      if (typeof extensions[name] !== 'string') fail(`an error without extensions.${name}`);
    }
    if (!EXCEPTION_TYPES.includes(extensions.type as string)) {
      fail(`unknown exception type ${String(extensions.type)}`);
    }
    const operation = extensions.operation as string;
    if (Array.isArray(errorPath) && request.keys.includes(String(errorPath[0]))) {
      if (operation !== field) {
        fail(`a failure of ${field} reported as operation ${operation}`);
      }
    } else if (operation !== 'graphql' && operation !== field) {
      fail(`a failure of the request reported as operation ${operation}`);
    }
  }
}

/**
 * contract.md §9: each answer addAnswers received was inserted, updated or left unchanged. A
 * GraphQL selection may leave counts out (or alias them): then there is nothing to compare.
 */
export function addAnswersCountsProblem(result: Record<string, unknown>): string | undefined {
  const names = ['received', 'inserted', 'updated', 'unchanged'];
  const counts = names.map((name) => result[name]);
  if (counts.some((count) => count === undefined)) return undefined;
  if (!counts.every((count) => Number.isInteger(count) && (count as number) >= 0)) {
    return `addAnswers counts that are not natural numbers: ${JSON.stringify(result)}`;
  }
  const [received, inserted, updated, unchanged] = counts as number[];
  return received === inserted + updated + unchanged
    ? undefined
    : `addAnswers received ${received} answers but counts ${inserted} inserted, ${updated} updated, ${unchanged} unchanged`;
}

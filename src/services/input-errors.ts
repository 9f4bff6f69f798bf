import type { RequestContext } from '../context/request-context';
import { InvalidInputError } from '../domain/validation/checks';
import { Errors, type ServiceApiError } from '../errors';

/** The value at a validation path such as `quiz.questions[2].goodAnswer`, to echo it back. */
function valueAt(roots: Record<string, unknown>, path: string): unknown {
  let current: unknown = roots;
  for (const part of path.match(/[^.[\]]+/g) ?? []) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/**
 * A refused payload value as the contract reports it: MissingParameterException or
 * BadParameterException whose parameterName is the value's path (`answers[12].answer`) and whose
 * providedValue is the value found there. `roots` are the payload parameters by name.
 */
export function asParameterError(
  ctx: RequestContext,
  error: InvalidInputError,
  roots: Record<string, unknown>,
): ServiceApiError {
  if (error.missing) return Errors.missingParameter(ctx.operation, error.path);
  const value = valueAt(roots, error.path);
  return Errors.badParameter(
    ctx.operation,
    error.path,
    value === undefined ? '' : value,
    error.reason,
  );
}

/** Runs the checks of a payload, turning their refusal into the contract's error. */
export function checkPayload<T>(
  ctx: RequestContext,
  roots: Record<string, unknown>,
  check: () => T,
): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof InvalidInputError) throw asParameterError(ctx, error, roots);
    throw error;
  }
}

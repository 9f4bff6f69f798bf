/**
 * The exception objects of contract.md §2, built from the contract's message formats (written
 * here from the contract, not taken from the service), for exact comparisons in tests.
 */
export function missingParameterBody(operation: string, parameterName: string) {
  return {
    type: 'MissingParameterException',
    message: `Missing parameter: ${parameterName}`,
    operation,
    reason: `parameter ${parameterName} is required`,
    parameterName,
  };
}

export function badParameterBody(
  operation: string,
  parameterName: string,
  providedValue: string,
  reason: string,
) {
  return {
    type: 'BadParameterException',
    message: `Bad parameter: ${parameterName} (${reason})`,
    operation,
    reason,
    parameterName,
    providedValue,
  };
}

export function unauthorizedBody(operation: string, reason: string) {
  return {
    type: 'UnauthorizedOperationException',
    message: `Unauthorized operation: ${operation} (${reason})`,
    operation,
    reason,
  };
}

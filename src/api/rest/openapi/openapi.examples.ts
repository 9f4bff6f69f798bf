import { Errors, type ServiceApiError } from '../../../errors';
import type { OperationDefinition } from '../../operations/operation-definition';

/**
 * The example answer of each documented error status of an operation, built by the error model
 * itself, so each shows the exception type, fields and message the service sends for that status
 * (an explorer otherwise shows the first enum value of `type` for every status).
 */

interface Example {
  summary: string;
  value: Record<string, unknown>;
}

const example = (summary: string, error: ServiceApiError): Example => ({
  summary,
  value: { ...error.toBody() },
});

/** The operation's first identifier parameter, whose refusals the 400 and 404 examples show. */
function idParameterOf(operation: OperationDefinition): string | undefined {
  return operation.parameters.find((parameter) => parameter.graphQLType === 'ID')?.name;
}

/** A refusal of one of the operation's parameters, as the service words it. */
function badParameterOf(operation: OperationDefinition, required: string): ServiceApiError {
  const name = operation.name;
  const id = idParameterOf(operation);
  if (id) return Errors.badParameter(name, id, 'abc', 'must be a positive integer identifier');
  if (operation.parameters.some((parameter) => parameter.name === 'numberOfItemsPerPage')) {
    return Errors.badParameter(
      name,
      'numberOfItemsPerPage',
      '1001',
      'must be an integer from 1 to 1000',
    );
  }
  if (operation.parameters.some((parameter) => parameter.rest === 'json')) {
    return Errors.badParameter(name, 'body', '', 'the request body is not valid JSON');
  }
  return required === 'joinCode'
    ? Errors.badParameter(
        name,
        required,
        'X7K2',
        'no session has this join code, or it has expired',
      )
    : Errors.badParameter(name, required, '', 'has a wrong type, format or value');
}

/** The reason of a 404 on an id, as the services word it (a set may also have expired). */
function notFoundReason(id: string): string {
  if (/SetId|dataSetId/.test(id)) return 'data set 999999 does not exist or has expired';
  return `${id.replace(/Id$/, '')} 999999 does not exist`;
}

/** The examples of one status, by name (a status two exception types share has both). */
export function errorExamples(
  operation: OperationDefinition,
  status: number,
): Record<string, Example> {
  const name = operation.name;
  const required = operation.parameters.find((parameter) => parameter.required)?.name ?? 'apiKey';
  const id = idParameterOf(operation);
  const [method] = operation.rest?.methods ?? ['GET'];
  switch (status) {
    case 400:
      return {
        missing: example('a required parameter is absent', Errors.missingParameter(name, required)),
        bad: example(
          'a parameter has a wrong type, format or value',
          badParameterOf(operation, required),
        ),
      };
    case 401:
      return {
        unauthorized: example(
          'the API key or the access token is missing, invalid or expired',
          operation.token === 'required'
            ? Errors.unauthenticated(name, operation.tokenReason ?? 'an access token is required')
            : Errors.unauthenticated(name, 'the API key is unknown or revoked'),
        ),
      };
    case 403:
      return {
        forbidden: example(
          'the requester lacks the permission',
          Errors.forbidden(name, 'this operation is not allowed'),
        ),
      };
    case 404:
      return {
        notFound: example(
          'an identifier names nothing',
          Errors.notFound(name, id ?? required, '999999', notFoundReason(id ?? required)),
        ),
      };
    case 405:
      return {
        methodNotAllowed: example(
          'the wrong HTTP method (the Allow header names the right one)',
          Errors.methodNotAllowed(name, method === 'GET' ? 'DELETE' : 'GET', [method]),
        ),
      };
    case 413:
      return {
        tooLarge: example(
          'the URL, the body or the number of query parameters is over its limit',
          Errors.payloadTooLarge(name, 8192, 'query string'),
        ),
      };
    case 415:
      return {
        unsupportedMedia: example(
          'a body in an encoding, media type or charset the service does not read',
          Errors.unsupportedMediaType(name, 'the body must be application/json in UTF-8'),
        ),
      };
    case 429:
      return {
        tooMany: example(
          "the API key's points are spent",
          Errors.tooManyRequests(
            name,
            42,
            'the API key has used its 1200 points of the last 60 seconds',
          ),
        ),
      };
    case 500:
      return {
        internal: example('anything unexpected', Errors.internal(name, 'b7f6c3d2e1a0')),
      };
    case 503:
      return {
        unavailable: example('the database cannot be reached', Errors.serviceUnavailable(name)),
      };
    default:
      throw new Error(`no example for status ${status}`);
  }
}

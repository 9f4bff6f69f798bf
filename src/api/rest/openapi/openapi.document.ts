import { ERROR_TABLE } from '../../../errors';
import { COMPONENT_SCHEMAS } from './openapi.schemas';
import { OPERATION_DOCS, type OperationDoc } from './openapi.operations';

const STATUS_TEXT: Record<number, string> = {
  400: 'MissingParameterException or BadParameterException',
  401: 'UnauthorizedOperationException: API key or access token missing, invalid or expired',
  403: 'UnauthorizedOperationException: the requester lacks the permission',
  404: 'BadParameterException (an identifier names nothing) or UnsupportedRequestException',
  405: 'UnsupportedRequestException: wrong method (Allow header)',
  413: 'PayloadTooLargeException',
  429: 'TooManyRequestsException (Retry-After header)',
  500: 'InternalServerErrorException (carries the request id)',
  503: 'UnexpectedServerResponseException: the database is unreachable; retry later',
};

function operation(name: string, doc: OperationDoc): Record<string, unknown> {
  const exception = {
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Exception' } } },
  };
  const token =
    doc.token === 'required'
      ? 'An access token is required.'
      : doc.token === 'for detailed results'
        ? 'Detailed results need an access token.'
        : 'An access token is optional.';
  return {
    operationId: name,
    summary: doc.summary,
    description: `${doc.summary} ${token}`,
    parameters: [
      {
        name: 'apiKey',
        in: 'query',
        required: true,
        description: 'the API key of the client application',
        schema: { type: 'string' },
      },
      {
        name: 'accessToken',
        in: 'query',
        required: doc.token === 'required',
        description: 'an access token from the login page',
        schema: { type: 'string' },
      },
      ...doc.parameters.map((parameter) => ({
        name: parameter.name,
        in: 'query',
        required: parameter.required ?? false,
        description: parameter.description,
        schema: parameter.schema,
      })),
    ],
    ...(doc.method === 'post'
      ? {
          requestBody: {
            required: false,
            description:
              'The parameters as a JSON object (a parameter given here and in the query string is refused).',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
        }
      : {}),
    responses: {
      200: {
        description: 'Success',
        content: {
          'application/json': { schema: { $ref: `#/components/schemas/${doc.response}` } },
        },
      },
      ...Object.fromEntries(
        [...doc.errors, 405]
          .sort()
          .map((status) => [status, { description: STATUS_TEXT[status], ...exception }]),
      ),
    },
  };
}

/** The OpenAPI 3.1 description of the legacy REST surface, committed as schema/openapi.json. */
export function openApiDocument(operationNames: readonly string[]): Record<string, unknown> {
  const missing = operationNames.filter((name) => !OPERATION_DOCS[name]);
  if (missing.length > 0) throw new Error(`undocumented REST operations: ${missing.join(', ')}`);
  const statuses = [...new Set(Object.values(ERROR_TABLE).map((row) => row.status))];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Quiz results service — legacy REST operations',
      version: '1.0.0',
      description:
        'Every operation is `{base}/<operationName>` with its parameters in the query string. Errors are one JSON exception object; ' +
        `the statuses used are ${statuses.sort().join(', ')}.`,
    },
    paths: Object.fromEntries(
      operationNames.map((name) => {
        const doc = OPERATION_DOCS[name] as OperationDoc;
        return [`/${name}`, { [doc.method]: operation(name, doc) }];
      }),
    ),
    components: { schemas: COMPONENT_SCHEMAS },
  };
}

import { MAX_JSON_DEPTH } from '../../../domain/validation/checks';
import { ERROR_TABLE } from '../../../errors';
import { operationCost } from '../../operation-costs';
import { ACCEPTED_ENCODINGS, MAX_QUERY_PARAMETERS } from '../../http/request-limits.middleware';
import { COMPONENT_SCHEMAS } from './openapi.schemas';
import { OPERATION_DOCS, type OperationDoc } from './openapi.operations';

const STATUS_TEXT: Record<number, string> = {
  400: 'MissingParameterException or BadParameterException',
  401: 'UnauthorizedOperationException: API key or access token missing, invalid or expired',
  403: 'UnauthorizedOperationException: the requester lacks the permission',
  404: 'BadParameterException (an identifier names nothing) or UnsupportedRequestException',
  405: 'UnsupportedRequestException: wrong method (Allow header)',
  413: 'PayloadTooLargeException: the body, the URL or the number of query parameters is over its limit',
  415: `UnsupportedRequestException: a Content-Encoding other than ${ACCEPTED_ENCODINGS.join(', ')}`,
  429: 'TooManyRequestsException: the API key has spent its points (Retry-After header)',
  500: 'InternalServerErrorException (carries the request id)',
  503: 'UnexpectedServerResponseException: the database is unreachable or the service too busy; retry after Retry-After seconds',
};

const header = (description: string) => ({ description, schema: { type: 'integer' } });
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': header("points of the API key's budget per window"),
  'RateLimit-Remaining': header('points left in the current window'),
  'RateLimit-Reset': header('seconds until the window ends'),
};
const RETRY_AFTER = { 'Retry-After': header('seconds to wait before retrying') };

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
  const { points } = operationCost(name);
  return {
    operationId: name,
    summary: doc.summary,
    description: `${doc.summary} ${token} Costs ${points} point${points === 1 ? '' : 's'} of the API key's rate-limit budget.`,
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
            content: {
              'application/json': {
                schema: { type: 'object', ...(doc.body ? { properties: doc.body } : {}) },
              },
            },
          },
        }
      : {}),
    responses: {
      200: {
        description: 'Success',
        headers: RATE_LIMIT_HEADERS,
        content: {
          'application/json': { schema: { $ref: `#/components/schemas/${doc.response}` } },
        },
      },
      ...Object.fromEntries(
        [...doc.errors, 405].sort().map((status) => [
          status,
          {
            description: STATUS_TEXT[status],
            ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
            ...exception,
          },
        ]),
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
        `the statuses used are ${statuses.sort().join(', ')}. ` +
        `Limits: at most ${MAX_QUERY_PARAMETERS} query parameters and URL_LIMIT bytes of URL; a body of at most BODY_LIMIT bytes once decoded (${ACCEPTED_ENCODINGS.join(', ')}), checked from Content-Length before it is read; JSON nested at most ${MAX_JSON_DEPTH} levels. ` +
        'Each API key may spend RATE_LIMIT_POINTS points per RATE_LIMIT_WINDOW_SECONDS (1,200 per 60 s by default); every answer tells the budget left in RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset.',
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

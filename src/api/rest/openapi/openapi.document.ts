import { MAX_JSON_DEPTH } from '../../../domain/validation/checks';
import { ERROR_TABLE } from '../../../errors';
import { REST_CATALOG, tokenSentence } from '../../operations/operation-catalog';
import { pointsSentence } from '../../operations/operation-costs';
import {
  isDownload,
  type OperationDefinition,
  type ParameterDefinition,
  type RestBinding,
  type RestDownloadBinding,
} from '../../operations/operation-definition';
import { ACCEPTED_ENCODINGS, MAX_QUERY_PARAMETERS } from '../../http/request-limits.middleware';
import { errorExamples } from './openapi.examples';
import { COMPONENT_SCHEMAS } from '../../operations/shapes/openapi.schemas';

const STATUS_TEXT: Record<number, string> = {
  400: 'MissingParameterException or BadParameterException',
  401: 'UnauthorizedOperationException: API key or access token missing, invalid or expired',
  403: 'UnauthorizedOperationException: the requester lacks the permission',
  404: 'BadParameterException: an identifier names nothing (or a data set expired)',
  405: 'UnsupportedRequestException: wrong method (Allow header)',
  413: 'PayloadTooLargeException: the body, the URL or the number of query parameters is over its limit',
  415: `UnsupportedRequestException: a body in a media type or charset the service does not read, or a Content-Encoding other than ${ACCEPTED_ENCODINGS.join(', ')}`,
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

// 415: a body in an encoding or charset the service does not read, whatever the method.
const ERROR_STATUSES = [400, 401, 403, 404, 405, 413, 415, 429, 500, 503];

/** 404 only where an identifier may name nothing: the others are answered at their path. */
function errorStatuses(operation: OperationDefinition): number[] {
  const namesItems = operation.parameters.some((parameter) => parameter.graphQLType === 'ID');
  return ERROR_STATUSES.filter((status) => status !== 404 || namesItems);
}

/**
 * The credentials, as security schemes: both are query parameters of the legacy wire, so a legacy
 * client's URL (`?apiKey=…&accessToken=…`) is exactly what they describe.
 */
const SECURITY_SCHEMES = {
  apiKey: {
    type: 'apiKey',
    in: 'query',
    name: 'apiKey',
    description:
      'The API key of the client application, bound to one host (on GraphQL also the X-Api-Key header). Required on every operation.',
  },
  accessToken: {
    type: 'apiKey',
    in: 'query',
    name: 'accessToken',
    description:
      'An access token from the login page (`{base}/authentication/login.php`), for the user it was issued to and the key it was issued for.',
  },
};

/** Every operation needs the key; the token too where it is required, else it may come along. */
function securityOf(operation: OperationDefinition): Record<string, string[]>[] {
  const withToken = { apiKey: [], accessToken: [] };
  return operation.token === 'required' ? [withToken] : [withToken, { apiKey: [] }];
}

/** Where the emitted file says the service is: `npm start` with the default settings. */
export const DEFAULT_SERVER = {
  url: 'http://localhost:3000',
  description:
    'a local instance (npm start); the /openapi.json an instance serves names its own URL',
};

export interface OpenApiServer {
  url: string;
  description?: string;
}

/** Where a REST operation takes JSON text, it says so (GraphQL takes an input object instead). */
function restSummary(operation: OperationDefinition): string {
  const notes = operation.parameters
    .filter((parameter) => parameter.rest === 'json')
    .map(
      ({ name }) =>
        ` \`${name}\` is JSON, in the query string or as the field \`${name}\` of a JSON body.`,
    );
  return `${operation.description}${notes.join('')}`;
}

/** The 200 answer: the component schema of its JSON, or the media types of its download. */
function success(rest: RestBinding<unknown> | RestDownloadBinding<unknown>) {
  if (!isDownload(rest)) {
    return {
      description: 'Success',
      headers: RATE_LIMIT_HEADERS,
      content: {
        'application/json': { schema: { $ref: `#/components/schemas/${rest.response}` } },
      },
    };
  }
  return {
    description: 'Success: the file, streamed; a failure once it has started cuts the connection',
    headers: {
      ...RATE_LIMIT_HEADERS,
      'Content-Disposition': {
        description: `attachment; filename="${rest.fileName ?? '<itemType>-<dataSetId>.<csv|ndjson>'}"`,
        schema: { type: 'string' },
      },
    },
    content: Object.fromEntries(
      Object.entries(rest.media).map(([type, description]) => {
        const schema = rest.schemas?.[type];
        return [
          type,
          {
            schema: schema
              ? { $ref: `#/components/schemas/${schema}`, description }
              : { type: 'string', description },
          },
        ];
      }),
    ),
  };
}

/** A query parameter; a list travels comma-separated (style form, explode false). */
function queryParameter(parameter: ParameterDefinition, required: boolean) {
  return {
    name: parameter.name,
    in: 'query',
    required,
    description: parameter.description,
    ...(parameter.schema.type === 'array' ? { style: 'form', explode: false } : {}),
    schema: parameter.schema,
  };
}

/**
 * A POST operation's parameters come in its JSON body (or, as in the legacy service, the query
 * string): the body says which are required, the query string offers them all as optional.
 */
function requestBody(operation: OperationDefinition) {
  const required = operation.parameters.filter((parameter) => parameter.required);
  return {
    required: required.length > 0,
    description:
      'The parameters as a JSON object (a parameter given here and in the query string is refused).',
    content: {
      'application/json': {
        schema: {
          type: 'object',
          ...(required.length > 0 ? { required: required.map(({ name }) => name) } : {}),
          properties: Object.fromEntries(
            operation.parameters.map((parameter) => [
              parameter.name,
              { ...(parameter.bodySchema ?? parameter.schema), description: parameter.description },
            ]),
          ),
        },
      },
    },
  };
}

function pathItem(
  operation: OperationDefinition,
  rest: RestBinding<unknown> | RestDownloadBinding<unknown>,
) {
  const takesBody = rest.methods[0] === 'POST';
  const summary = restSummary(operation);
  return {
    operationId: operation.name,
    summary,
    description: `${summary} ${tokenSentence(operation)} ${pointsSentence(operation.cost)}`,
    security: securityOf(operation),
    parameters: operation.parameters.map((parameter) =>
      queryParameter(parameter, parameter.required && !takesBody),
    ),
    ...(takesBody ? { requestBody: requestBody(operation) } : {}),
    responses: {
      200: success(rest),
      ...Object.fromEntries(
        errorStatuses(operation).map((status) => [
          status,
          {
            description: STATUS_TEXT[status],
            ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
            content: {
              'application/json': {
                schema: { $ref: '#/components/schemas/Exception' },
                examples: errorExamples(operation, status),
              },
            },
          },
        ]),
      ),
    },
  };
}

/** The OpenAPI 3.1 description of the legacy REST surface, committed as schema/openapi.json. */
export function openApiDocument(
  operations: readonly OperationDefinition[] = REST_CATALOG,
  server: OpenApiServer = DEFAULT_SERVER,
): Record<string, unknown> {
  const statuses = [...new Set(Object.values(ERROR_TABLE).map((row) => row.status))];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Quiz results service — legacy REST operations',
      version: '1.0.0',
      description:
        'Every operation is `{base}/<operationName>` with its parameters in the query string, the credentials `apiKey` and `accessToken` among them (the security schemes). Errors are one JSON exception object; ' +
        `the statuses used are ${statuses.sort().join(', ')}. ` +
        `Limits: at most ${MAX_QUERY_PARAMETERS} query parameters and URL_LIMIT bytes of URL; a body of at most BODY_LIMIT bytes once decoded (${ACCEPTED_ENCODINGS.join(', ')}), checked from Content-Length before it is read; JSON nested at most ${MAX_JSON_DEPTH} levels. ` +
        'Each API key may spend RATE_LIMIT_POINTS points per RATE_LIMIT_WINDOW_SECONDS (1,200 per 60 s by default); every answer tells the budget left in RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset.',
    },
    servers: [server],
    paths: Object.fromEntries(
      operations.flatMap((operation) =>
        operation.rest
          ? [
              [
                `/${operation.name}`,
                { [operation.rest.methods[0].toLowerCase()]: pathItem(operation, operation.rest) },
              ],
            ]
          : [],
      ),
    ),
    components: { schemas: COMPONENT_SCHEMAS, securitySchemes: SECURITY_SCHEMES },
  };
}

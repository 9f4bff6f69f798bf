import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { Errors, ServiceApiError } from '../../../errors';
import { hideSecrets } from '../../../observability/secret-shapes';

/**
 * A domain error raised outside any resolver (credentials, limits): the request gets the
 * error's HTTP status and headers, and the one `errors` entry formatGraphQLError reads.
 */
export function graphQLErrorOf(domain: ServiceApiError): GraphQLError {
  const headers = new HeaderMap();
  if (domain.extras.retryAfterSeconds !== undefined) {
    headers.set('retry-after', String(domain.extras.retryAfterSeconds));
  }
  return new GraphQLError(domain.message, {
    originalError: domain,
    extensions: { http: { status: domain.status, headers } },
  });
}

/** The domain error behind a GraphQL error, however deep Apollo wrapped it. */
function domainErrorIn(error: unknown): ServiceApiError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (current instanceof ServiceApiError) return current;
    current = (current as { originalError?: unknown }).originalError;
  }
  return undefined;
}

/** Which request parameter one of Apollo's own refusals is about. */
function parameterOf(code: unknown, message: string): string {
  if (code === 'OPERATION_RESOLUTION_FAILURE') return 'operationName';
  if (code === 'PERSISTED_QUERY_NOT_FOUND' || code === 'PERSISTED_QUERY_NOT_SUPPORTED') {
    return 'extensions';
  }
  const variable = /Variable "\$([_A-Za-z][_0-9A-Za-z]*)"/.exec(message)?.[1];
  if (variable) return `variables.${variable}`;
  for (const name of ['variables', 'operationName', 'extensions']) {
    if (message.includes(`\`${name}\``) || message.includes(`"${name}"`)) return name;
  }
  return 'query';
}

const NAME = '[_A-Za-z][_0-9A-Za-z]*';
const REQUIRED_VARIABLE = new RegExp(
  `^Variable "\\$(${NAME})" of (?:required|non-null) type "[^"]+" (?:was not provided|must not be null)\\.$`,
);
const INVALID_VARIABLE = new RegExp(`^Variable "\\$(${NAME})" got invalid value `);
const FIELD_NOT_PROVIDED = new RegExp(
  `(?:^|; )Field "(${NAME}(?:\\.${NAME})?)" of required type "[^"]+" was not provided\\.$`,
);
const NULL_GIVEN = /; Expected non-nullable type "[^"]+" not to be null\.$/;
/** The DateTimeISO scalar's refusal (date-time.scalar.ts), after graphql-js's prefix. */
const DATE_TIME_REFUSED = /; Expected type "DateTimeISO"\. (.+)$/;

/**
 * graphql-js's refusals of input values (contract.md §15), as REST words them: a required input
 * field or argument absent is MissingParameterException naming its path into the
 * argument (`quiz.title`, `answers[0].userId`, as REST names it when the variable is named like
 * its argument; in a literal, the input type's field: `QuizInput.title`); one given null is
 * BadParameterException on that path. Other refusals of a value stay BadParameterException on
 * `variables.<name>` (parameterOf).
 */
function inputRefusal(message: string): ServiceApiError | undefined {
  const required = REQUIRED_VARIABLE.exec(message);
  if (required) return Errors.missingParameter('graphql', required[1]);
  const invalid = INVALID_VARIABLE.exec(message);
  if (!invalid) {
    const literal = FIELD_NOT_PROVIDED.exec(message);
    return literal ? Errors.missingParameter('graphql', literal[1]) : undefined;
  }
  const variable = invalid[1];
  // The last ` at "<path>"; ` is graphql-js's: the printed value before it may hold anything.
  const paths = [
    ...message.matchAll(new RegExp(` at "(${variable}(?:\\.${NAME}|\\[\\d+\\])*)"; `, 'g')),
  ];
  const path = paths.at(-1)?.[1];
  const field = FIELD_NOT_PROVIDED.exec(message);
  if (field) return Errors.missingParameter('graphql', `${path ?? variable}.${field[1]}`);
  // null where a value is required: a wrong value, as REST reads a null it is given.
  if (NULL_GIVEN.test(message)) {
    return Errors.badParameter('graphql', path ?? variable, 'null', 'must not be null');
  }
  // A datetime neither ISO 8601 nor REST's form: a wrong value on its path, as REST names it.
  const dateTime = DATE_TIME_REFUSED.exec(message);
  if (dateTime && path) {
    const printed = message.slice(invalid[0].length, message.lastIndexOf(` at "${path}"; `));
    return Errors.badParameter('graphql', path, providedText(printed), dateTime[1]);
  }
  return undefined;
}

/** The value graphql-js printed (a string JSON-quoted), as REST shows what it was given. */
function providedText(printed: string): string {
  try {
    const value: unknown = JSON.parse(printed);
    return typeof value === 'string' ? value : printed;
  } catch {
    return printed;
  }
}

/** graphql-js stops parsing at the token limit (Apollo's parseOptions.maxTokens); 16.x spells it "that". */
const TOKEN_LIMIT = /Document contains more th(?:an|at) (\d+) tokens/;

/**
 * Apollo's own refusals of a request (syntax, validation, variable values, operation name, a
 * body it cannot use) as the contract's exception, operation `graphql`: BadParameterException
 * keeping Apollo's code, which GraphQL clients know; the token limit as QueryTooComplexException.
 * Anything else that reached here unexplained is an internal error, and says nothing more.
 */
function fromApollo(formatted: GraphQLFormattedError): ServiceApiError & { apolloCode?: string } {
  const code = formatted.extensions?.code;
  const reason =
    // graphql-js gives up validating a document whose fields cost too much to compare.
    formatted.message === 'Validation aborted.'
      ? 'the document is too complex to validate'
      : formatted.message.replace(/^Syntax Error: /, '').replace(/\.$/, '');
  const tokens = TOKEN_LIMIT.exec(formatted.message);
  if (tokens) {
    const limit = Number(tokens[1]);
    return Errors.queryTooComplex(`the document has more than ${limit} tokens`, limit, limit + 1);
  }
  if (typeof code === 'string' && code !== 'INTERNAL_SERVER_ERROR') {
    const domain =
      inputRefusal(formatted.message) ??
      Errors.badParameter('graphql', parameterOf(code, reason), '', reason);
    return Object.assign(domain, { apolloCode: code });
  }
  return new ServiceApiError('internal', 'graphql', 'an unexpected error occurred');
}

/**
 * Every GraphQL error reads as in REST, through the one error table (contract.md §2, §11):
 * `type`, `operation` and `reason` always, whatever raised it.
 */
export function formatGraphQLError(
  formatted: GraphQLFormattedError,
  error: unknown,
): GraphQLFormattedError {
  const domain = domainErrorIn(error);
  // A path names the client's aliases, which may be anything it typed.
  const path = formatted.path?.map((key) => (typeof key === 'string' ? hideSecrets(key) : key));
  if (domain) {
    return {
      message: domain.message,
      locations: formatted.locations,
      path,
      extensions: { ...domain.toGraphQLExtensions() },
    };
  }
  const refused = fromApollo(formatted);
  const extensions: Record<string, unknown> = { ...refused.toGraphQLExtensions() };
  if (refused.apolloCode) extensions.code = refused.apolloCode;
  return {
    // graphql-js's own sentence, which GraphQL clients and IDEs show as they know it, without a
    // secret it quoted (a key given as a variable's or an argument's value; contract.md §2).
    message: refused.apolloCode ? hideSecrets(formatted.message) : refused.message,
    locations: formatted.locations,
    path,
    extensions,
  };
}

/**
 * An answer where no root field has data because the database is unavailable carries the 503 of
 * contract.md §11 and its Retry-After, as REST does; partial answers keep 200.
 */
export const unavailableStatusPlugin: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        if (response.body.kind !== 'single') return;
        const { data, errors } = response.body.singleResult;
        const unavailable = errors?.find(
          (error) => error.extensions?.type === 'UnexpectedServerResponseException',
        );
        if (!unavailable || (data && Object.values(data).some((value) => value !== null))) return;
        response.http.status = 503;
        const retryAfter = unavailable.extensions?.retryAfterSeconds;
        if (retryAfter !== undefined) response.http.headers.set('retry-after', String(retryAfter));
      },
    };
  },
};

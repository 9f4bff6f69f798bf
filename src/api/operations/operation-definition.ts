import type { RequestContext } from '../../context/request-context';
import { tokenDecision } from '../../domain/policy/access.policy';
import { Errors } from '../../errors';
import type { OperationCost } from './operation-costs';
import type { RestDownload } from './shapes/download';
import type { JsonSchema } from './shapes/openapi.schemas';

/**
 * One operation of the API, declared once: both transports, the OpenAPI and SDL descriptions,
 * the rate limiter and the tests read it. REST and GraphQL differ only in how they hand over
 * the raw parameters and how they write the view `run` returns.
 */

export type HttpMethod = 'GET' | 'POST';

/** Who may call it: `forDetailedResults` is decided by the service from the parameters. */
export type TokenRule = 'optional' | 'required' | 'forDetailedResults';

export interface ParameterDefinition<N extends string = string, V = unknown> {
  readonly name: N;
  /** The operation fails without it (MissingParameterException), whoever notices. */
  readonly required: boolean;
  readonly description: string;
  /**
   * The GraphQL argument's type as the SDL prints it, without the `!` that `required` adds.
   * Resolvers declare arguments in decorators; the catalog test holds them to this.
   */
  readonly graphQLType: string;
  /** The names an enum or enum list takes, where it is one. */
  readonly values?: readonly string[];
  /** How it reads in a query string (OpenAPI). */
  readonly schema: JsonSchema;
  /** How it reads as a field of a JSON body, where it is not text there. */
  readonly bodySchema?: JsonSchema;
  /** REST: a query value is text, or JSON text (a body field is then already a value). */
  readonly rest: 'text' | 'json';
  /**
   * What `run` receives from what a transport handed over (query text, a JSON value, a typed
   * GraphQL argument). Most pass it on, for the service checks every value alike.
   */
  readonly parse: (operation: string, name: string, raw: unknown) => V;
}

type AnyParameters = readonly ParameterDefinition[];

/** The parsed arguments `run` takes, by parameter name. */
export type ArgumentsOf<P extends AnyParameters> = {
  [D in P[number] as D['name']]: ReturnType<D['parse']>;
};

/** The parameter names of an operation. */
export type ParameterNameOf<P extends AnyParameters> = P[number]['name'];

export interface RestBinding<V> {
  /** The first is the one OpenAPI documents; a request with another is refused with Allow. */
  readonly methods: readonly HttpMethod[];
  /** The component schema of the 200 answer in schema/openapi.json. */
  readonly response: string;
  /**
   * The legacy JSON of the view, where it is more than the component schema says: without it,
   * the view is written by its schema (shapes/schema.serializer.ts).
   */
  serialize?(view: V): unknown;
}

export interface RestDownloadBinding<V> {
  /** The first is the one OpenAPI documents; a request with another is refused with Allow. */
  readonly methods: readonly HttpMethod[];
  /** The media types of the 200 answer, with what each holds (OpenAPI). */
  readonly media: Readonly<Record<string, string>>;
  /** The component schema of a media type whose file is one JSON document (OpenAPI). */
  readonly schemas?: Readonly<Record<string, string>>;
  /** How the file is named, for the Content-Disposition header's description (OpenAPI). */
  readonly fileName?: string;
  download(view: V): RestDownload;
}

/** A REST binding that streams a file rather than answering JSON. */
export function isDownload<V>(
  rest: RestBinding<V> | RestDownloadBinding<V>,
): rest is RestDownloadBinding<V> {
  return 'download' in rest;
}

export interface OperationDefinition<P extends AnyParameters = AnyParameters, V = unknown> {
  readonly name: string;
  readonly description: string;
  /**
   * Its root field on GraphQL, if any. A subscription is served over WebSocket only, and `run`
   * returns what the transport opens to stream its messages.
   */
  readonly graphQL?: 'query' | 'mutation' | 'subscription';
  /** Its REST route, if any: a JSON answer, or a download. */
  readonly rest?: RestBinding<V> | RestDownloadBinding<V>;
  readonly token: TokenRule;
  /** The reason of the 401 when `token` is required and none is given. */
  readonly tokenReason?: string;
  readonly cost: OperationCost;
  /** In the order they are checked: the first bad one is the one reported. */
  readonly parameters: P;
  /** Calls the service and returns the view both transports write. */
  run(ctx: RequestContext, args: ArgumentsOf<P>): Promise<V>;
}

/** Infers the parameter names and value types, so `run` is checked against them. */
export function defineOperation<const P extends AnyParameters, V>(
  definition: OperationDefinition<P, V>,
): OperationDefinition<P, V> {
  return definition;
}

/** Reads one raw parameter as a transport carries it. */
export type ParameterReader = (parameter: ParameterDefinition) => unknown;

/**
 * The one way an operation runs, whatever the transport: each parameter read and parsed in
 * order, then the token rule, then the service. Errors name `ctx.operation`.
 */
export async function runOperation<P extends AnyParameters, V>(
  definition: OperationDefinition<P, V>,
  ctx: RequestContext,
  read: ParameterReader,
): Promise<V> {
  const args: Record<string, unknown> = {};
  for (const parameter of definition.parameters) {
    args[parameter.name] = parameter.parse(ctx.operation, parameter.name, read(parameter));
  }
  if (definition.token === 'required' && tokenDecision(ctx.requester) === 'needsToken') {
    throw Errors.unauthenticated(
      ctx.operation,
      definition.tokenReason ?? 'an access token is required',
    );
  }
  return definition.run(ctx, args as ArgumentsOf<P>);
}

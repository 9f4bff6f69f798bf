import type {
  ApolloServerPlugin,
  GraphQLRequestContextWillSendResponse,
  GraphQLRequestListener,
} from '@apollo/server';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import {
  getNamedType,
  GraphQLError,
  isLeafType,
  isObjectType,
  Kind,
  type GraphQLCompositeType,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValidationContext,
  type ValidationRule,
  visit,
} from 'graphql';
import { getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import type { Admission } from '../../context/admission';
import type { RequestContext } from '../../context/request-context';
import { Errors, ServiceApiError } from '../../errors';
import { MAX_ITEMS_PER_PAGE, MIN_ITEMS_PER_PAGE } from '../../services/sets/data-set.params';
import { rateLimitHeaders } from '../http/rate-limit.headers';
import { admit, gateRefusal } from '../http/request.gate';
import { operationCost } from '../operations/operation-catalog';
import { MAX_WRITES_PER_DOCUMENT } from '../operations/operation-costs';
import type { GraphQLContext } from './execution/graphql.context';
import { formatGraphQLError, graphQLErrorOf } from './execution/graphql.errors';
import { rootFields } from './execution/root-fields';

/** The bounds of one GraphQL document (contract.md §11), checked before it runs. */
export const DOCUMENT_LIMITS = {
  depth: 10,
  aliases: 30,
  writes: MAX_WRITES_PER_DOCUMENT,
  /**
   * Parsing stops past this many tokens (GraphQL Armor's default): a huge document costs little
   * to refuse, and validation, quadratic in fields that share a name, stays within milliseconds.
   */
  tokens: 1000,
} as const;

/**
 * The cost model of a document (contract.md §11, §15): what it makes the service build. A leaf
 * (scalar or enum) is read from an object already loaded and costs nothing; every object costs
 * 1 plus what it selects; a list counts its elements: a page's items as many as the page holds
 * (`numberOfItemsPerPage` of the root field, else the default 50; a connection's edges as
 * many as its `first`), a quiz's questions 20, a
 * subscription's message as a page of the default size. A selection on a union or an interface
 * costs its most expensive possible type (graphql-query-complexity keeps the maximum over the
 * possible types), not the sum of its fragments.
 */
const DEFAULT_PAGE_ITEMS = 50;
const QUESTIONS_PER_QUIZ = 20;

/** Lists the model counts by size: their type, field and element count. */
const COUNTED_LISTS: readonly { type: (name: string) => boolean; field: string; items: number }[] =
  [
    { type: (name) => name === 'Quiz', field: 'questions', items: QUESTIONS_PER_QUIZ },
    { type: (name) => name === 'QuizStatistic', field: 'questions', items: QUESTIONS_PER_QUIZ },
  ];

/**
 * The page size a root field asks for (`numberOfItemsPerPage`, or a connection's `first`). One
 * out of range is refused by its operation (BadParameterException, as on REST) before any item
 * is built: it counts as a page of one item, so the document's other fields still run.
 */
function pageItems(args: Record<string, unknown>): number {
  const connection = args.first !== undefined && args.first !== null;
  const asked = connection ? args.first : args.numberOfItemsPerPage;
  const minimum = connection ? 0 : MIN_ITEMS_PER_PAGE;
  if (asked === undefined || asked === null) return DEFAULT_PAGE_ITEMS;
  return typeof asked === 'number' &&
    Number.isInteger(asked) &&
    asked >= minimum &&
    asked <= MAX_ITEMS_PER_PAGE
    ? asked
    : 1;
}

/** A type whose `items` are a page of a data set: the DataSet interface and its page types. */
function isPageType(type: GraphQLCompositeType): boolean {
  return (
    type.name === 'DataSet' ||
    (isObjectType(type) && type.getInterfaces().some(({ name }) => name === 'DataSet'))
  );
}

function costEstimator(schema: GraphQLSchema): ComplexityEstimator {
  const roots = new Set([schema.getQueryType()?.name, schema.getMutationType()?.name]);
  const subscriptions = schema.getSubscriptionType()?.name;
  return ({ type, field, args, childComplexity }) => {
    if (isLeafType(getNamedType(field.type))) return 0;
    const each = 1 + childComplexity;
    // A subscription's message holds every item, unpaged: counted as a page of the default size.
    if (type.name === subscriptions) return DEFAULT_PAGE_ITEMS * each;
    if (field.name === 'items' && isPageType(type)) return DEFAULT_PAGE_ITEMS * each;
    if (field.name === 'edges' && type.name === 'DataSetItemConnection') {
      return DEFAULT_PAGE_ITEMS * each;
    }
    const counted = COUNTED_LISTS.find((list) => list.field === field.name && list.type(type.name));
    if (counted) return counted.items * each;
    // The pages below a root field hold numberOfItemsPerPage items, not the default.
    if (roots.has(type.name)) {
      return 1 + Math.ceil((childComplexity * pageItems(args)) / DEFAULT_PAGE_ITEMS);
    }
    return each;
  };
}

function overLimit(what: string, limit: number, actual: number): ServiceApiError {
  return Errors.queryTooComplex(
    `the document has ${what} ${actual}, over the limit of ${limit}`,
    limit,
    actual,
  );
}

/**
 * The computed cost of the operation a request runs; undefined when its variables do not fit
 * their types, which execution then refuses before any resolver runs.
 */
export function computedCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  request: { operationName?: string | null; variables?: Record<string, unknown> | null },
): number | undefined {
  try {
    return getComplexity({
      schema,
      query: document,
      operationName: request.operationName ?? undefined,
      variables: request.variables ?? {},
      estimators: [costEstimator(schema), simpleEstimator({ defaultComplexity: 1 })],
    });
  } catch {
    return undefined;
  }
}

/** The costs computed for one document, by operation and page sizes. */
interface DocumentCosts {
  /** The variables that give a `numberOfItemsPerPage`: the only ones the cost depends on. */
  pageVariables: string[];
  byKey: Map<string, number>;
}

/** Costs kept per document and page sizes; past this many, a document's are computed anew. */
const COSTS_PER_DOCUMENT = 256;

/**
 * Apollo hands every request of the same text the same parsed document (its document store),
 * so a cost is computed once per document, operation and page sizes, not once per request
 * (walking the document was a twentieth of a getQuiz request's time).
 */
const costsByDocument = new WeakMap<DocumentNode, DocumentCosts>();

function documentCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  request: { operationName?: string | null; variables?: Record<string, unknown> | null },
): number | undefined {
  let costs = costsByDocument.get(document);
  if (!costs) {
    const pageVariables = new Set<string>();
    visit(document, {
      Argument(node) {
        if (node.name.value === 'numberOfItemsPerPage' && node.value.kind === Kind.VARIABLE) {
          pageVariables.add(node.value.name.value);
        }
      },
    });
    costs = { pageVariables: [...pageVariables], byKey: new Map() };
    costsByDocument.set(document, costs);
  }
  const variables = request.variables ?? {};
  const key = JSON.stringify([
    request.operationName ?? null,
    ...costs.pageVariables.map((name) => variables[name] ?? null),
  ]);
  const known = costs.byKey.get(key);
  if (known !== undefined) return known;
  const cost = computedCost(schema, document, request);
  // Only costs are kept: variables that did not fit say nothing of the next request's.
  if (cost === undefined) return undefined;
  if (costs.byKey.size >= COSTS_PER_DOCUMENT) costs.byKey.clear();
  costs.byKey.set(key, cost);
  return cost;
}

/** A document over a limit, as a validation error carrying the contract's exception. */
function tooComplex(what: string, limit: number, actual: number): GraphQLError {
  const domain = overLimit(what, limit, actual);
  return new GraphQLError(domain.message, { originalError: domain });
}

/** GraphQL Armor's rules, their refusals reported with the numbers its messages carry. */
function armorRule(
  rule: typeof maxDepthRule | typeof maxAliasesRule,
  what: string,
  limit: number,
  options: object = {},
): ValidationRule {
  return (context: ValidationContext) =>
    rule({
      n: limit,
      ...options,
      propagateOnRejection: false,
      onReject: [
        (_context: unknown, error: GraphQLError) => {
          const actual = Number(/found (\d+)/.exec(error.message)?.[1] ?? limit + 1);
          context.reportError(tooComplex(what, limit, actual));
        },
      ],
    })(context);
}

/** At most DOCUMENT_LIMITS.writes root fields that write data sets or records. */
const writesRule: ValidationRule = (context) => ({
  OperationDefinition(node) {
    const fields = rootFields(node.selectionSet, (name) => context.getFragment(name));
    const writes = fields.reduce(
      (sum, field) =>
        sum +
        Math.max(operationCost(field.name.value).writes, node.operation === 'mutation' ? 1 : 0),
      0,
    );
    if (writes > DOCUMENT_LIMITS.writes) {
      context.reportError(tooComplex('writing root fields:', DOCUMENT_LIMITS.writes, writes));
    }
  },
});

/** How a document came: HTTP runs queries and mutations, the WebSocket subscriptions. */
export type GraphQLTransport = 'http' | 'websocket';

/** An operation of the other transport is refused as a bad request, not run. */
function transportRule(transport: GraphQLTransport): ValidationRule {
  return (context) => ({
    OperationDefinition(node) {
      const subscription = node.operation === 'subscription';
      if (subscription === (transport === 'websocket')) return;
      const domain = Errors.badParameter(
        'graphql',
        'query',
        '',
        subscription
          ? 'subscriptions are not served over HTTP; send a query or a mutation'
          : 'queries and mutations are served over HTTP; send a subscription over the WebSocket',
      );
      context.reportError(
        new GraphQLError(domain.message, { nodes: [node], originalError: domain }),
      );
    },
  });
}

/** Validation rules that bound a document's shape before anything runs. */
export function documentLimitRules(transport: GraphQLTransport = 'http'): ValidationRule[] {
  return [
    transportRule(transport),
    armorRule(maxDepthRule, 'a depth of', DOCUMENT_LIMITS.depth, {
      flattenFragments: true,
      ignoreIntrospection: true,
    }),
    armorRule(maxAliasesRule, 'aliases:', DOCUMENT_LIMITS.aliases),
    writesRule,
  ];
}

/** A document whose operation and variables are known. */
export interface ResolvedDocument {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode | null | undefined;
  request: { operationName?: string | null; variables?: Record<string, unknown> | null };
}

/**
 * What a document costs, once its operation and variables are known: its computed cost is held
 * to GRAPHQL_MAX_COST (a refusal is a domain error), then the sum of its root fields' points is
 * what the API key is charged (contract.md §11); `records` when one of them writes records, so
 * the document runs only once charged.
 */
export function priceDocument(
  { schema, document, operation, request }: ResolvedDocument,
  maxCost: number,
): { points: number; records: boolean } {
  const cost = documentCost(schema, document, request);
  if (cost !== undefined && cost > maxCost) throw overLimit('a cost of', maxCost, cost);
  const fragments = new Map(
    document.definitions.flatMap((definition) =>
      definition.kind === Kind.FRAGMENT_DEFINITION
        ? [[definition.name.value, definition] as const]
        : [],
    ),
  );
  const selected = operation?.selectionSet ?? { kind: Kind.SELECTION_SET, selections: [] };
  const costs = rootFields(selected, (name) => fragments.get(name)).map((field) =>
    operationCost(field.name.value),
  );
  return {
    points: costs.reduce((sum, cost) => sum + cost.points, 0),
    records: costs.some((cost) => cost.records === true),
  };
}

/** A failure of the limits or the charge as the domain error the answer carries. */
function refusalOf(error: unknown, ctx: RequestContext): ServiceApiError {
  return gateRefusal(
    error,
    { operation: 'graphql', requestId: ctx.requestId, logger: ctx.logger },
    'GraphQL limits failed',
  );
}

/** A refusal of the charge that replaces the answer of a document run beside it. */
function replaceAnswer(
  response: GraphQLRequestContextWillSendResponse<GraphQLContext>['response'],
  refusal: ServiceApiError,
): void {
  response.http.status = refusal.status;
  if (refusal.extras.retryAfterSeconds !== undefined) {
    response.http.headers.set('retry-after', String(refusal.extras.retryAfterSeconds));
  }
  response.body = {
    kind: 'single',
    singleResult: { errors: [formatGraphQLError({ message: refusal.message }, refusal)] },
  };
}

/**
 * Prices and charges each request Apollo runs, through the request gate; the budget left goes in
 * the RateLimit headers. A document that writes records runs once charged; the others run beside
 * their charge (their data sets commit only once it let them through, context/admission.ts), and
 * a refusal replaces their answer, status and body, as if they had never run.
 */
export function documentCostPlugin(maxCost: number): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart(): Promise<GraphQLRequestListener<GraphQLContext>> {
      let admission: Admission | undefined;
      return {
        async didResolveOperation({
          schema,
          document,
          operation,
          request,
          contextValue,
          response,
        }) {
          const { ctx } = contextValue;
          try {
            admission = await admit(
              ctx,
              () => priceDocument({ schema, document, operation, request }, maxCost),
              {
                beside: true,
                report: (state) => {
                  for (const [name, value] of rateLimitHeaders(state)) {
                    response.http.headers.set(name.toLowerCase(), value);
                  }
                },
              },
            );
          } catch (error) {
            throw graphQLErrorOf(refusalOf(error, ctx));
          }
        },
        async willSendResponse({ contextValue, response }) {
          if (!admission) return;
          try {
            await admission.wait();
          } catch (error) {
            replaceAnswer(response, refusalOf(error, contextValue.ctx));
          }
        },
      };
    },
  };
}

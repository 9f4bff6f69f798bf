import { createHash } from 'node:crypto';
import {
  Arg,
  Ctx,
  ID,
  Resolver,
  Root,
  Subscription,
  type SubscribeResolverData,
} from 'type-graphql';
import { createLoaders, type Loaders } from '../../../context/loaders';
import type { RequestContext } from '../../../context/request-context';
import type { LiveResultsEvent } from '../../../services/live/live-results.service';
import { rootFieldDescription } from '../../operations/operation-catalog';
import { sessionResultsOperation } from '../../operations/live.operation';
import {
  resolveOperation,
  type GraphQLArguments,
  type GraphQLContext,
} from '../execution/graphql.context';
import { domainErrorOf } from '../execution/graphql.middleware';
import {
  AggregationFunctionEnum,
  ComputedResultObject,
  GroupByEnum,
  IncludeQuizzesEnum,
  ResultTypeEnum,
  toComputedResultObject,
} from '../types/computed-result.type';

/**
 * The scope of a subscription's item ids: its session and what it asks for, so two
 * subscriptions that ask the same share ids and others never do (contract.md §15).
 */
function liveScope(sessionId: string, asked: readonly unknown[]): string {
  const digest = createHash('sha256').update(JSON.stringify(asked)).digest('hex').slice(0, 12);
  return `live.${sessionId}.${digest}`;
}

/** Each subscription's context as it was opened, before its messages replaced the loaders. */
const OPENED = new WeakMap<GraphQLContext, RequestContext>();

/**
 * The context of one message: loaders of its own (a subscription outlives a request's caches, so
 * each message reads users and quizzes afresh), made only when a field reads them. Most live
 * queries select no user, quiz or session, and a dozen loaders per subscriber and message, held
 * until the next message, were a fifth of what the live phase promoted to the old generation.
 */
function messageContext(context: GraphQLContext): RequestContext {
  const opened = OPENED.get(context) ?? context.ctx;
  OPENED.set(context, opened);
  let loaders: Loaders | undefined;
  return Object.defineProperty({ ...opened }, 'loaders', {
    enumerable: true,
    get: () => (loaders ??= createLoaders(opened.db, opened.requester)),
  });
}

type SessionResultsArguments = GraphQLArguments<(typeof sessionResultsOperation)['parameters']>;

/**
 * Checks the subscription (parameters, token, session, owner) before the first message, so a
 * refusal is the one answer; then the service's events until the token expires.
 */
async function subscribeSessionResults({
  args,
  context,
}: SubscribeResolverData<unknown, SessionResultsArguments, GraphQLContext>): Promise<
  AsyncIterable<LiveResultsEvent>
> {
  try {
    const live = await resolveOperation(sessionResultsOperation, context, args);
    return live.open({ endsAt: context.credentialsExpireAt ?? null });
  } catch (error) {
    throw domainErrorOf(error, context, sessionResultsOperation.name);
  }
}

/** sessionResults (contract.md §10), served by the WebSocket endpoint (graphql.subscriptions). */
@Resolver()
export class LiveResultsResolver {
  @Subscription(() => [ComputedResultObject], {
    description: rootFieldDescription(sessionResultsOperation),
    subscribe: subscribeSessionResults,
  })
  sessionResults(
    @Root() event: LiveResultsEvent,
    @Ctx() context: GraphQLContext,
    // The arguments reach subscribeSessionResults (declared here, for the field's are the
    // method's); here they scope the items' ids.
    @Arg('sessionId', () => ID) sessionId: string,
    @Arg('resultTypes', () => [ResultTypeEnum], { nullable: true }) resultTypes?: string[],
    @Arg('aggregationFunctions', () => [AggregationFunctionEnum], { nullable: true })
    aggregationFunctions?: string[],
    @Arg('groupBy', () => GroupByEnum, { nullable: true }) groupBy?: string,
    @Arg('includeQuizzes', () => IncludeQuizzesEnum, { nullable: true }) includeQuizzes?: string,
  ): ComputedResultObject[] {
    // A message with the error, then the end (the token expired).
    if (event.kind === 'ended') throw event.error;
    context.ctx = messageContext(context);
    const scope = liveScope(sessionId, [
      resultTypes ?? null,
      aggregationFunctions ?? null,
      groupBy ?? null,
      includeQuizzes ?? null,
    ]);
    return event.items.map((item) => toComputedResultObject(item, scope));
  }
}

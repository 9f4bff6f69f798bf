import { Field, Float, ID, ObjectType, registerEnumType } from 'type-graphql';
import {
  AGGREGATION_FUNCTIONS,
  GROUP_BY,
  INCLUDE_QUIZZES,
  RESULT_TYPES,
  type ResultType,
} from '../../../services/results/result-parameters';
import type { ComputedResultView } from '../../../services/results/computed-result.views';
import { QuizObject } from './quiz.type';
import { SessionObject } from './session.type';
import { UserType } from './user.type';

/** What the two ids of an item that lives only inside a data set mean (contract.md §15). */
export const ITEM_ID_DESCRIPTION =
  'Unique among the items of its type across the service: its data set and its number there (`41:3`), so caches keep the items of different sets apart.';
export const ITEM_NUMBER_DESCRIPTION =
  'Its number in its data set (1-based position, the `id` REST shows), or in the list that holds it.';

/** The GraphQL id of item `itemId` of set (or list) `scope`. */
export function globalItemId(scope: string | number, itemId: number | string): string {
  return `${scope}:${itemId}`;
}

const enumOf = <T extends string>(values: readonly T[]) =>
  Object.fromEntries(values.map((value) => [value, value])) as Record<T, T>;

export const ResultTypeEnum = enumOf(RESULT_TYPES);
registerEnumType(ResultTypeEnum, { name: 'ResultType' });
export const AggregationFunctionEnum = enumOf(AGGREGATION_FUNCTIONS);
registerEnumType(AggregationFunctionEnum, { name: 'AggregationFunction' });
export const GroupByEnum = enumOf(GROUP_BY);
registerEnumType(GroupByEnum, { name: 'GroupBy' });
export const IncludeQuizzesEnum = enumOf(INCLUDE_QUIZZES);
registerEnumType(IncludeQuizzesEnum, { name: 'IncludeQuizzes' });

/**
 * What identifies a computed result; the numbers follow, one field per result type. Its own
 * simpleResolvers: type-graphql builds inherited fields with the base class's options, and
 * without them each field of each item ran the global middleware (a promise per field).
 */
@ObjectType({ simpleResolvers: true })
abstract class ComputedResultFields {
  @Field(() => ID, { description: ITEM_ID_DESCRIPTION })
  id!: string;

  @Field(() => ID, { description: ITEM_NUMBER_DESCRIPTION })
  itemId!: string;

  @Field(() => ID, { nullable: true })
  userId!: string | null;

  @Field(() => ID, { nullable: true })
  quizId!: string | null;

  @Field(() => ID, {
    nullable: true,
    description: 'null for the zero attempts of includeQuizzes=all',
  })
  sessionId!: string | null;

  @Field(() => AggregationFunctionEnum, { nullable: true })
  aggregationFunction!: string | null;
}

// One number per result type of the registry, after the fields above and before the related
// objects, so a new result type needs no field here.
for (const type of RESULT_TYPES) {
  Field(() => Float, { nullable: true })(ComputedResultFields.prototype, type);
}

/** A computed result; the numbers asked for are set, the others null (contract.md §4, §7). */
@ObjectType('ComputedResult', { simpleResolvers: true })
export class ComputedResultObject extends ComputedResultFields {
  @Field(() => UserType, { nullable: true })
  user!: UserType | null;

  @Field(() => QuizObject, {
    nullable: true,
    description: 'null where the requester may not read the quiz',
  })
  quiz!: QuizObject | null;

  @Field(() => SessionObject, { nullable: true })
  session!: SessionObject | null;
}

const id = (value: number | null) => (value === null ? null : String(value));

/**
 * The view as the GraphQL object of set (or live list) `scope`; user, quiz and session are
 * resolved on demand.
 */
export function toComputedResultObject(
  view: ComputedResultView,
  scope: string | number,
): ComputedResultObject {
  const result: ComputedResultObject = Object.assign(new ComputedResultObject(), {
    id: globalItemId(scope, view.id),
    itemId: String(view.id),
    userId: id(view.userId),
    quizId: id(view.quizId),
    sessionId: id(view.sessionId),
    aggregationFunction: view.aggregationFunction,
  });
  const numbers = result as unknown as Record<ResultType, number | null>;
  for (const type of RESULT_TYPES) numbers[type] = null;
  for (const { type, value } of view.values) numbers[type] = value;
  return result;
}

import { JSONResolver } from 'graphql-scalars';
import { DateTimeScalar } from './date-time.scalar';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import type { AddAnswersResult } from '../../../services/sessions/answer-write.service';
import type { SessionView } from '../../../services/sessions/session.views';
import { toUserType, UserType } from './user.type';
import type { RootFieldOutputs } from './root-field.outputs';

@ObjectType('Session', {
  simpleResolvers: true,
  description:
    'A classroom session. In a computed result its id is shown to anyone, the other fields to its owner and attendees only.',
})
export class SessionObject {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { nullable: true })
  title!: string | null;

  @Field(() => DateTimeScalar, { nullable: true })
  startDate!: Date | null;

  @Field(() => UserType, { nullable: true })
  owner!: UserType | null;

  @Field(() => [ID], { nullable: true })
  quizIds!: string[] | null;

  @Field(() => Int, { nullable: true })
  nbAttendees!: number | null;

  @Field(() => String, {
    nullable: true,
    description:
      'The code pupils join the session with (joinSession): shown to its owner only, null for anyone else.',
  })
  joinCode!: string | null;

  @Field(() => DateTimeScalar, {
    nullable: true,
    description: 'When joinCode stops opening the session; null for anyone but the owner.',
  })
  joinCodeExpiresAt!: Date | null;
}

export function toSessionObject(id: number, view: SessionView | null): SessionObject {
  return {
    id: String(id),
    title: view?.title ?? null,
    startDate: view?.startDate ?? null,
    owner: view ? toUserType(view.owner) : null,
    quizIds: view ? view.quizIds.map(String) : null,
    nbAttendees: view?.nbAttendees ?? null,
    joinCode: view?.join?.code ?? null,
    joinCodeExpiresAt: view?.join?.expiresAt ?? null,
  };
}

@ObjectType('AddAnswersResult', {
  simpleResolvers: true,
  description: 'What addAnswers stored: received = inserted + updated + unchanged.',
})
export class AddAnswersResultObject {
  @Field(() => ID)
  sessionId!: string;

  @Field(() => Int)
  received!: number;

  @Field(() => Int)
  inserted!: number;

  @Field(() => Int)
  updated!: number;

  @Field(() => Int)
  unchanged!: number;
}

export function toAddAnswersResultObject(result: AddAnswersResult): AddAnswersResultObject {
  return { ...result, sessionId: String(result.sessionId) };
}

@InputType('SessionInput', {
  description: 'addSession payload; the constraints are those of REST addSession.',
})
export class SessionInput {
  @Field(() => String, { description: '1 to 250 characters.' })
  title!: string;

  @Field(() => [ID], { description: '1 to 100 quizzes the requester may see.' })
  quizIds!: string[];

  @Field(() => DateTimeScalar, { nullable: true, description: 'Now by default.' })
  startDate?: Date;

  @Field(() => [ID], {
    nullable: true,
    description:
      'At most 1000: the owner or users the owner knows (members of their groups, attendees of their sessions); others join with the join code.',
  })
  attendeeIds?: string[];

  @Field(() => String, {
    nullable: true,
    description:
      'At most 64 characters: the same owner sending it again gets the existing session back.',
  })
  clientRef?: string;
}

@InputType('AnswerInput', {
  description: 'One answer of addAnswers; the constraints are those of REST addAnswers.',
})
export class AnswerInput {
  @Field(() => ID)
  userId!: string;

  @Field(() => ID, { description: 'One of the session’s quizzes.' })
  quizId!: string;

  @Field(() => Int, { description: "0-based position in the quiz's questions." })
  questionIndex!: number;

  @Field(() => JSONResolver, {
    description: 'An index, indexes, a boolean, a text or a number, by question type.',
  })
  answer!: unknown;

  @Field(() => DateTimeScalar, {
    nullable: true,
    description: 'Now by default, at most 5 minutes ahead.',
  })
  answeredAt?: Date;
}

/** The root fields that answer with these types. */
export const SESSION_ROOT_FIELDS: RootFieldOutputs = {
  addSession: { type: () => SessionObject, from: (view) => toSessionObject(view.id, view) },
  getSession: { type: () => SessionObject, from: (view) => toSessionObject(view.id, view) },
  joinSession: { type: () => SessionObject, from: (view) => toSessionObject(view.id, view) },
  addAnswers: { type: () => AddAnswersResultObject, from: toAddAnswersResultObject },
};

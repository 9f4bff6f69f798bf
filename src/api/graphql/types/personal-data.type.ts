import { JSONResolver } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { DataSetItemType } from '../../../domain/data-sets/item-types';
import type { QuizVisibility } from '../../../domain/quizzes/quiz.rules';
import type { PersonalDataDocument } from '../../../services/privacy/personal-data.views';
import { ItemTypeEnum } from './data-set.type';
import { DateTimeScalar } from './date-time.scalar';
import { Visibility } from './quiz.type';

/**
 * exportPersonalData's answer (contract.md §14.3): the sections and field names of the REST
 * document, ids as ID and datetimes as DateTimeISO.
 */

@ObjectType('PersonalProfile', {
  simpleResolvers: true,
  description: 'The account, without its password hash.',
})
export class PersonalProfileObject {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) email!: string | null;
  @Field(() => String, { nullable: true }) firstName!: string | null;
  @Field(() => String, { nullable: true }) lastName!: string | null;
  @Field(() => String, { nullable: true }) pictureURL!: string | null;
  @Field(() => Boolean) publicProfile!: boolean;
  @Field(() => Boolean) canCreatePrivateQuizzes!: boolean;
  @Field(() => DateTimeScalar) createdAt!: Date;
}

@ObjectType('PersonalOwnedGroup', {
  simpleResolvers: true,
  description: 'A group the person owns.',
})
export class PersonalOwnedGroupObject {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => Int) nbMembers!: number;
  @Field(() => DateTimeScalar) createdAt!: Date;
}

@ObjectType('PersonalMemberGroup', {
  simpleResolvers: true,
  description: 'A group the person is a member of.',
})
export class PersonalMemberGroupObject {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => ID) ownerId!: string;
}

@ObjectType('PersonalGroups', { simpleResolvers: true })
export class PersonalGroupsObject {
  @Field(() => [PersonalOwnedGroupObject]) owned!: PersonalOwnedGroupObject[];
  @Field(() => [PersonalMemberGroupObject]) memberOf!: PersonalMemberGroupObject[];
}

@ObjectType('PersonalAttendance', { simpleResolvers: true, description: 'A session attended.' })
export class PersonalAttendanceObject {
  @Field(() => ID) sessionId!: string;
  @Field(() => String) title!: string;
  @Field(() => DateTimeScalar) startDate!: Date;
  @Field(() => Boolean) raisedHand!: boolean;
}

@ObjectType('PersonalAnswer', { simpleResolvers: true, description: 'An answer the person gave.' })
export class PersonalAnswerObject {
  @Field(() => ID) id!: string;
  @Field(() => ID) sessionId!: string;
  @Field(() => ID) quizId!: string;
  @Field(() => Int, { description: "0-based position in the quiz's questions." })
  questionIndex!: number;
  @Field(() => JSONResolver, {
    nullable: true,
    description: 'As given: an index, indexes, a boolean, a text, or a number as a decimal text.',
  })
  value!: unknown;
  @Field(() => Boolean, { nullable: true, description: "Null for a survey's question." })
  good!: boolean | null;
  @Field(() => DateTimeScalar) answeredAt!: Date;
}

@ObjectType('PersonalQuizFlag', { simpleResolvers: true })
export class PersonalQuizFlagObject {
  @Field(() => ID) quizId!: string;
  @Field(() => Boolean) favorite!: boolean;
  @Field(() => Boolean) imported!: boolean;
}

@ObjectType('PersonalQuiz', { simpleResolvers: true, description: 'A quiz the person wrote.' })
export class PersonalQuizObject {
  @Field(() => ID) id!: string;
  @Field(() => String) title!: string;
  @Field(() => Visibility) visibility!: QuizVisibility;
  @Field(() => Boolean) survey!: boolean;
  @Field(() => Int) nbQuestions!: number;
  @Field(() => DateTimeScalar) creationDate!: Date;
  @Field(() => DateTimeScalar) lastChangeDate!: Date;
}

@ObjectType('PersonalSession', { simpleResolvers: true, description: 'A session the person owns.' })
export class PersonalSessionObject {
  @Field(() => ID) id!: string;
  @Field(() => String) title!: string;
  @Field(() => DateTimeScalar) startDate!: Date;
  @Field(() => String, { nullable: true }) clientRef!: string | null;
  @Field(() => Int) nbAttendees!: number;
}

@ObjectType('PersonalApiKey', {
  simpleResolvers: true,
  description: 'An API key of the person, without any secret.',
})
export class PersonalApiKeyObject {
  @Field(() => ID) id!: string;
  @Field(() => String) keyPrefix!: string;
  @Field(() => String) host!: string;
  @Field(() => String) label!: string;
  @Field(() => DateTimeScalar) createdAt!: Date;
  @Field(() => DateTimeScalar, { nullable: true }) revokedAt!: Date | null;
  @Field(() => DateTimeScalar, { nullable: true }) lastUsedAt!: Date | null;
}

@ObjectType('PersonalWebhook', {
  simpleResolvers: true,
  description: 'A webhook endpoint of the person, without its secret.',
})
export class PersonalWebhookObject {
  @Field(() => ID) id!: string;
  @Field(() => String) url!: string;
  @Field(() => [String]) events!: string[];
  @Field(() => DateTimeScalar) createdAt!: Date;
  @Field(() => DateTimeScalar, { nullable: true }) disabledAt!: Date | null;
  @Field(() => String, { nullable: true }) disabledReason!: string | null;
}

@ObjectType('PersonalDataSet', {
  simpleResolvers: true,
  description: 'An unexpired data set the person made.',
})
export class PersonalDataSetObject {
  @Field(() => ID) id!: string;
  @Field(() => ItemTypeEnum) itemType!: DataSetItemType;
  @Field(() => Int) totalNumberOfItems!: number;
  @Field(() => JSONResolver, {
    nullable: true,
    description: 'The request that made the set, as stored; null for most sets.',
  })
  parameters!: unknown;
  @Field(() => DateTimeScalar) createdAt!: Date;
  @Field(() => DateTimeScalar) expiresAt!: Date;
}

@ObjectType('PersonalAccessLogEntry', {
  simpleResolvers: true,
  description: 'A read of detailed or per-pupil data about the person.',
})
export class PersonalAccessLogEntryObject {
  @Field(() => DateTimeScalar) accessedAt!: Date;
  @Field(() => String) operation!: string;
  @Field(() => ID, { nullable: true }) requesterUserId!: string | null;
  @Field(() => ID, { nullable: true }) requesterApiKeyId!: string | null;
  @Field(() => String) requestId!: string;
}

@ObjectType('PersonalData', {
  simpleResolvers: true,
  description:
    "Everything the service holds about the token's user: the sections and field names of REST exportPersonalData's document.",
})
export class PersonalDataObject {
  @Field(() => DateTimeScalar) exportedAt!: Date;
  @Field(() => PersonalProfileObject) profile!: PersonalProfileObject;
  @Field(() => PersonalGroupsObject) groups!: PersonalGroupsObject;
  @Field(() => [PersonalAttendanceObject]) attendances!: PersonalAttendanceObject[];
  @Field(() => [PersonalAnswerObject]) answers!: PersonalAnswerObject[];
  @Field(() => [PersonalQuizFlagObject]) quizFlags!: PersonalQuizFlagObject[];
  @Field(() => [PersonalQuizObject]) quizzes!: PersonalQuizObject[];
  @Field(() => [PersonalSessionObject]) sessions!: PersonalSessionObject[];
  @Field(() => [PersonalApiKeyObject]) apiKeys!: PersonalApiKeyObject[];
  @Field(() => [PersonalWebhookObject]) webhooks!: PersonalWebhookObject[];
  @Field(() => [PersonalDataSetObject]) dataSets!: PersonalDataSetObject[];
  @Field(() => [PersonalAccessLogEntryObject]) accessLog!: PersonalAccessLogEntryObject[];
}

const id = (value: number): string => String(value);
const idOrNull = (value: number | null): string | null => (value === null ? null : String(value));

export function toPersonalDataObject(doc: PersonalDataDocument): PersonalDataObject {
  return {
    exportedAt: doc.exportedAt,
    profile: { ...doc.profile, id: id(doc.profile.id) },
    groups: {
      owned: doc.groups.owned.map((g) => ({ ...g, id: id(g.id) })),
      memberOf: doc.groups.memberOf.map((g) => ({ ...g, id: id(g.id), ownerId: id(g.ownerId) })),
    },
    attendances: doc.attendances.map((a) => ({ ...a, sessionId: id(a.sessionId) })),
    answers: doc.answers.map((a) => ({
      ...a,
      id: id(a.id),
      sessionId: id(a.sessionId),
      quizId: id(a.quizId),
    })),
    quizFlags: doc.quizFlags.map((f) => ({ ...f, quizId: id(f.quizId) })),
    quizzes: doc.quizzes.map((q) => ({
      ...q,
      id: id(q.id),
      visibility: q.visibility as QuizVisibility,
    })),
    sessions: doc.sessions.map((s) => ({ ...s, id: id(s.id) })),
    apiKeys: doc.apiKeys.map((k) => ({ ...k, id: id(k.id) })),
    webhooks: doc.webhooks.map((w) => ({ ...w, id: id(w.id) })),
    dataSets: doc.dataSets.map((d) => ({
      ...d,
      id: id(d.id),
      itemType: d.itemType as DataSetItemType,
    })),
    accessLog: doc.accessLog.map((e) => ({
      ...e,
      requesterUserId: idOrNull(e.requesterUserId),
      requesterApiKeyId: idOrNull(e.requesterApiKeyId),
    })),
  };
}

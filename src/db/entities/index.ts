import { AccessToken } from './access-token.entity';
import { Answer } from './answer.entity';
import { ApiKey } from './api-key.entity';
import { ComputedResultItem, DataSet, DataSetItem } from './data-set.entity';
import { Question } from './question.entity';
import { Quiz, QuizTag } from './quiz.entity';
import { Session, SessionAttendee, SessionChange, SessionQuiz } from './session.entity';
import { UserGroup, UserGroupMember } from './user-group.entity';
import { UserQuizFlag } from './user-quiz-flag.entity';
import { User } from './user.entity';
import { LoginFailure } from './login-failure.entity';
import { RateLimitCounter } from './rate-limit-counter.entity';
import { WebSession } from './web-session.entity';
import { AccessLogEntry, Erasure } from './privacy-records.entity';
import { QuestionStatisticItem, QuizStatisticItem } from './statistic-items.entity';
import {
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEvent,
  WebhookOutboxEntry,
} from './webhook.entity';

export {
  AccessToken,
  Answer,
  ComputedResultItem,
  QuestionStatisticItem,
  QuizStatisticItem,
  ApiKey,
  DataSet,
  DataSetItem,
  Question,
  Quiz,
  QuizTag,
  Session,
  SessionAttendee,
  SessionQuiz,
  SessionChange,
  UserGroup,
  UserGroupMember,
  UserQuizFlag,
  User,
  LoginFailure,
  RateLimitCounter,
  WebSession,
  AccessLogEntry,
  Erasure,
  WebhookEndpoint,
  WebhookOutboxEntry,
  WebhookEvent,
  WebhookDelivery,
  WebhookAttempt,
};

export const ENTITIES = [
  User,
  ApiKey,
  AccessToken,
  UserGroup,
  UserGroupMember,
  Quiz,
  QuizTag,
  Question,
  UserQuizFlag,
  Session,
  SessionAttendee,
  SessionQuiz,
  SessionChange,
  Answer,
  DataSet,
  DataSetItem,
  ComputedResultItem,
  QuestionStatisticItem,
  QuizStatisticItem,
  WebSession,
  LoginFailure,
  RateLimitCounter,
  AccessLogEntry,
  Erasure,
  WebhookEndpoint,
  WebhookOutboxEntry,
  WebhookEvent,
  WebhookDelivery,
  WebhookAttempt,
];

import type { RequestContext } from '../../context/request-context';
import type { Question, Quiz } from '../../db/entities';
import type { MediaType } from '../../domain/questions/question-types';
import type { QuestionType } from '../../domain/questions/question-types';
import type { QuizVisibility } from '../../domain/quizzes/quiz.rules';
import { seesGoodAnswers, seesPrivateQuizFields } from '../../domain/policy/access.policy';
import { userView, type UserView } from '../users/user.views';

export interface QuestionView {
  position: number;
  type: QuestionType;
  title: string;
  media?: { type: MediaType; url: string };
  propositions?: string[];
  /** Only for the quiz's author; numbers as canonical decimal strings. */
  goodAnswer?: number | number[] | boolean | string;
  tolerance?: number;
  caseSensitive?: boolean;
}

/** The Quiz fields of the wire everyone sees (contract.md §4), in their legacy order. */
export const QUIZ_PUBLIC_FIELDS = [
  'id',
  'title',
  'visibility',
  'survey',
  'tags',
  'creationDate',
  'lastChangeDate',
  'author',
  'nbQuestions',
  'questions',
] as const;

/** Quiz fields only an authenticated requester sees (imported and favorite are about them). */
export const QUIZ_REQUESTER_FIELDS = ['defaultDuration', 'imported', 'favorite'] as const;

export const QUIZ_FIELDS = [...QUIZ_PUBLIC_FIELDS, ...QUIZ_REQUESTER_FIELDS] as const;

export interface QuizView {
  id: number;
  title: string;
  visibility: QuizVisibility;
  survey: boolean;
  tags: string[];
  creationDate: Date;
  lastChangeDate: Date;
  author: UserView;
  nbQuestions: number;
  questions: QuestionView[];
  /** Only for an authenticated requester (imported and favorite are about them). */
  requesterFields?: QuizRequesterFieldValues;
}

export interface QuizRequesterFieldValues {
  defaultDuration: string | null;
  imported: boolean;
  favorite: boolean;
}

/** Each Quiz field of the wire and its domain value, as getQuiz shows it. */
export type QuizFieldValues = Omit<QuizView, 'requesterFields'> & QuizRequesterFieldValues;

function questionView(question: Question, withGoodAnswer: boolean, survey: boolean): QuestionView {
  const view: QuestionView = {
    position: question.position,
    type: question.type,
    title: question.title,
  };
  if (question.mediaType && question.mediaUrl)
    view.media = { type: question.mediaType, url: question.mediaUrl };
  if (question.propositions !== null)
    view.propositions = JSON.parse(question.propositions) as string[];
  if (!survey && (question.type === 'FreeAnswerText' || question.type === 'FreeAnswerNumber')) {
    view.tolerance = question.tolerance ?? 0;
  }
  if (question.type === 'FreeAnswerText') view.caseSensitive = question.caseSensitive ?? false;
  if (withGoodAnswer && question.goodAnswer !== null) {
    view.goodAnswer = JSON.parse(question.goodAnswer) as QuestionView['goodAnswer'];
  }
  return view;
}

/** The questions of a quiz as the requester may see them (goodAnswer for its author only). */
export async function quizQuestions(ctx: RequestContext, quiz: Quiz): Promise<QuestionView[]> {
  const questions = await ctx.loaders.questionsByQuiz.load(quiz.id);
  const withGoodAnswer = seesGoodAnswers(ctx.requester, quiz);
  return questions.map((question) => questionView(question, withGoodAnswer, quiz.survey));
}

/** defaultDuration, imported and favorite: only for an authenticated requester, else undefined. */
export async function quizRequesterFields(
  ctx: RequestContext,
  quiz: Quiz,
): Promise<QuizView['requesterFields']> {
  if (!seesPrivateQuizFields(ctx.requester)) return undefined;
  const flags = await ctx.loaders.flagsByQuiz.load(quiz.id);
  return {
    defaultDuration: quiz.defaultDuration,
    imported: flags?.imported ?? false,
    favorite: flags?.favorite ?? false,
  };
}

/** A quiz as the requester may see it; every read goes through the request's loaders. */
export async function quizView(ctx: RequestContext, quiz: Quiz): Promise<QuizView> {
  const [author, tags, questions, requesterFields] = await Promise.all([
    userView(ctx, quiz.authorId),
    ctx.loaders.tagsByQuiz.load(quiz.id),
    quizQuestions(ctx, quiz),
    quizRequesterFields(ctx, quiz),
  ]);
  const view: QuizView = {
    id: quiz.id,
    title: quiz.title,
    visibility: quiz.visibility,
    survey: quiz.survey,
    tags,
    creationDate: quiz.creationDate,
    lastChangeDate: quiz.lastChangeDate,
    author,
    nbQuestions: questions.length,
    questions,
  };
  if (requesterFields) view.requesterFields = requesterFields;
  return view;
}

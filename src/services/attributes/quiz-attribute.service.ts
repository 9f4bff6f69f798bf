import type { RequestContext } from '../../context/request-context';
import { Errors } from '../../errors';
import { countAttribute } from '../../db/sql/attribute-counts.sql';
import {
  QUIZ_ATTRIBUTE_NAMES,
  isQuizAttributeName,
  isQuizField,
  isQuizRequesterField,
  type QuizAttribute,
  type QuizAttributeName,
  type QuizField,
  type QuizFieldAttributeOf,
  type QuizFieldValues,
  type QuizPublicField,
  type QuizRequesterField,
} from './item-attribute';
import { getQuiz } from '../quizzes/quiz.service';
import type { QuizView } from '../quizzes/quiz.views';

function checkedAttributeName(ctx: RequestContext, attributeName: string): QuizAttributeName {
  if (attributeName.trim() === '') throw Errors.missingParameter(ctx.operation, 'attributeName');
  if (!isQuizAttributeName(attributeName)) {
    throw Errors.badParameter(
      ctx.operation,
      'attributeName',
      attributeName,
      `must be one of ${QUIZ_ATTRIBUTE_NAMES.join(', ')}`,
    );
  }
  return attributeName;
}

type RequesterFields = NonNullable<QuizView['requesterFields']>;

function fieldAttribute<K extends QuizField>(
  view: QuizView,
  name: K,
  itemValue: QuizFieldValues[K],
): QuizFieldAttributeOf<K> {
  return { itemType: 'quiz', itemId: view.id, itemName: name, itemValue, quiz: view };
}

/** Each public field, read from the view getQuiz returns (one entry per field keeps name and type together). */
const PUBLIC_FIELDS: { [K in QuizPublicField]: (view: QuizView) => QuizFieldAttributeOf<K> } = {
  id: (view) => fieldAttribute(view, 'id', view.id),
  title: (view) => fieldAttribute(view, 'title', view.title),
  visibility: (view) => fieldAttribute(view, 'visibility', view.visibility),
  survey: (view) => fieldAttribute(view, 'survey', view.survey),
  tags: (view) => fieldAttribute(view, 'tags', view.tags),
  creationDate: (view) => fieldAttribute(view, 'creationDate', view.creationDate),
  lastChangeDate: (view) => fieldAttribute(view, 'lastChangeDate', view.lastChangeDate),
  author: (view) => fieldAttribute(view, 'author', view.author),
  nbQuestions: (view) => fieldAttribute(view, 'nbQuestions', view.nbQuestions),
  questions: (view) => fieldAttribute(view, 'questions', view.questions),
};

const REQUESTER_FIELDS: {
  [K in QuizRequesterField]: (view: QuizView, own: RequesterFields) => QuizFieldAttributeOf<K>;
} = {
  defaultDuration: (view, own) => fieldAttribute(view, 'defaultDuration', own.defaultDuration),
  imported: (view, own) => fieldAttribute(view, 'imported', own.imported),
  favorite: (view, own) => fieldAttribute(view, 'favorite', own.favorite),
};

/**
 * getQuizAttribute: readable exactly when getQuiz is (same errors, named after this
 * operation). A Quiz field is taken from the view getQuiz returns; defaultDuration, imported
 * and favorite need a token, as getQuiz shows them only to authenticated requesters.
 */
export async function getQuizAttribute(
  ctx: RequestContext,
  quizId: number,
  attributeName: string,
): Promise<QuizAttribute> {
  const name = checkedAttributeName(ctx, attributeName);
  const view = await getQuiz(ctx, quizId);
  if (!isQuizField(name)) {
    const itemValue = await countAttribute(ctx.db.read, 'quiz', name, quizId);
    return { itemType: 'quiz', itemId: quizId, itemName: name, itemValue };
  }
  if (!isQuizRequesterField(name)) return PUBLIC_FIELDS[name](view);
  // quizView leaves the requester fields out exactly where seesPrivateQuizFields says no.
  if (!view.requesterFields) {
    throw Errors.unauthenticated(
      ctx.operation,
      `an access token is required to read attribute ${name}`,
    );
  }
  return REQUESTER_FIELDS[name](view, view.requesterFields);
}

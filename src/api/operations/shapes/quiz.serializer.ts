import type { QuestionView, QuizView } from '../../../services/quizzes/quiz.views';
import type { UserView } from '../../../services/users/user.views';
import { legacyDate, legacyId } from './legacy-format';

/** A User as legacy clients read it: fields the requester may not see are absent, not null. */
export function serializeUser(user: UserView): Record<string, unknown> {
  const json: Record<string, unknown> = { id: legacyId(user.id) };
  if (user.details) {
    json.firstName = user.details.firstName;
    json.lastName = user.details.lastName;
    json.pictureURL = user.details.pictureUrl;
  }
  return json;
}

function serializeQuestion(question: QuestionView): Record<string, unknown> {
  const json: Record<string, unknown> = { title: question.title, type: question.type };
  if (question.media) json.media = { type: question.media.type, url: question.media.url };
  if (question.propositions) json.propositions = question.propositions;
  if (question.tolerance !== undefined) json.tolerance = question.tolerance;
  if (question.caseSensitive !== undefined) json.caseSensitive = question.caseSensitive;
  if (question.goodAnswer !== undefined) {
    // Numbers are kept as exact decimal strings; the wire carries them as JSON numbers.
    json.goodAnswer =
      question.type === 'FreeAnswerNumber' ? Number(question.goodAnswer) : question.goodAnswer;
  }
  return json;
}

export function serializeQuiz(quiz: QuizView): Record<string, unknown> {
  const json: Record<string, unknown> = {
    id: legacyId(quiz.id),
    title: quiz.title,
    visibility: quiz.visibility,
    survey: quiz.survey,
    tags: quiz.tags,
    creationDate: legacyDate(quiz.creationDate),
    lastChangeDate: legacyDate(quiz.lastChangeDate),
    author: serializeUser(quiz.author),
    nbQuestions: quiz.nbQuestions,
    questions: quiz.questions.map(serializeQuestion),
  };
  if (quiz.requesterFields) {
    if (quiz.requesterFields.defaultDuration !== null) {
      json.defaultDuration = quiz.requesterFields.defaultDuration;
    }
    json.imported = quiz.requesterFields.imported;
    json.favorite = quiz.requesterFields.favorite;
  }
  return json;
}

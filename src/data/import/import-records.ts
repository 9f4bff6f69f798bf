import type { GoodAnswer, ValidQuestion } from '../../domain/questions/question-types';
import type { QuizVisibility } from '../../domain/quizzes/quiz.rules';

/**
 * The records of a data file once validated: what the loader writes. Records refer to earlier
 * ones by their 0-based index in their section, which the loader maps to database ids.
 */

export interface ValidUser {
  ref: string;
  email: string;
  password: string | null;
  passwordHash: string | null;
  firstName: string;
  lastName: string;
  pictureUrl: string | null;
  publicProfile: boolean;
  canCreatePrivateQuizzes: boolean;
}

export interface ValidQuiz {
  ref: string;
  authorIndex: number;
  title: string;
  visibility: QuizVisibility;
  survey: boolean;
  tags: string[];
  defaultDuration: string | null;
  creationDate: Date;
  lastChangeDate: Date;
  questions: ValidQuestion[];
  /** Index of the quiz's first question among all questions of the file, in order. */
  firstQuestionIndex: number;
}

export interface ValidGroup {
  ref: string;
  name: string;
  ownerIndex: number;
  memberIndexes: number[];
}

export interface ValidSession {
  ref: string;
  ownerIndex: number;
  title: string;
  startDate: Date;
  quizIndexes: number[];
  attendees: { userIndex: number; raisedHand: boolean }[];
}

export interface ValidAnswer {
  sessionIndex: number;
  userIndex: number;
  quizIndex: number;
  /** Index of the question among all questions of the file (see ValidQuiz.firstQuestionIndex). */
  questionIndex: number;
  /** Normalised by the scoring module. */
  value: GoodAnswer;
  /** Scored when validated; null for a survey question. */
  good: boolean | null;
  answeredAt: Date;
}

export interface ValidFlag {
  userIndex: number;
  quizIndex: number;
  favorite: boolean;
  imported: boolean;
}

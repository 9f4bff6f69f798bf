import type { ImportDocument } from '../../src/data/import/import-document';

/**
 * Small import documents several suites start from. Each suite still asserts on the data it
 * needs; these only spare writing the same people and quiz again.
 */

/** A teacher who may create private quizzes, and a pupil who may not. */
export const TEACHER_AND_PUPIL: ImportDocument = {
  users: [
    {
      ref: 't',
      email: 't@school.example',
      firstName: 'Tess',
      lastName: 'Teacher',
      canCreatePrivateQuizzes: true,
    },
    { ref: 's', email: 's@school.example', firstName: 'Sam', lastName: 'Student' },
  ],
};

/** A teacher (ref `t`) and one public quiz of theirs without questions (ref `q`). */
export const ONE_PUBLIC_QUIZ: ImportDocument = {
  users: [{ ref: 't', email: 't@school.example', firstName: 'Tess', lastName: 'Teacher' }],
  quizzes: [
    {
      ref: 'q',
      author: 't',
      title: 'Fractions',
      visibility: 'public',
      survey: false,
      tags: ['a', 'b'],
    },
  ],
};

const PUPILS = Array.from({ length: 30 }, (_unused, index) => `p${index + 1}`);

/**
 * A teacher's class for live results: thirty pupils attend session `S` (quizzes `q1`, five true
 * or false questions, and `q2`, two choices), where three of them answered already; `S2` of the
 * same teacher with other answers of p1; `S3` of another teacher (`o`).
 */
export const LIVE_CLASS: ImportDocument = {
  users: [
    { ref: 't', email: 't@school.example', firstName: 'Tess', lastName: 'Teacher' },
    { ref: 'o', email: 'o@school.example', firstName: 'Otto', lastName: 'Other' },
    ...PUPILS.map((ref) => ({
      ref,
      email: `${ref}@school.example`,
      firstName: 'Pupil',
      lastName: ref.toUpperCase(),
    })),
  ],
  quizzes: [
    {
      ref: 'q1',
      author: 't',
      title: 'True or false',
      visibility: 'public',
      survey: false,
      tags: ['logic', 'live'],
      questions: [true, false, true, false, true].map((goodAnswer, index) => ({
        title: `Statement ${index + 1}`,
        type: 'TrueFalse',
        goodAnswer,
      })),
    },
    {
      ref: 'q2',
      author: 't',
      title: 'Choices',
      visibility: 'public',
      survey: false,
      tags: ['logic', 'live'],
      questions: [0, 1].map((goodAnswer, index) => ({
        title: `Choice ${index + 1}`,
        type: 'MultipleChoicesOneGoodAnswer',
        propositions: ['left', 'right'],
        goodAnswer,
      })),
    },
  ],
  sessions: [
    {
      ref: 'S',
      owner: 't',
      title: 'Live session',
      startDate: '2026-10-05 09:00:00',
      quizzes: ['q1', 'q2'],
      attendees: PUPILS.map((user) => ({ user })),
    },
    {
      ref: 'S2',
      owner: 't',
      title: 'Earlier session',
      startDate: '2026-10-01 09:00:00',
      quizzes: ['q1'],
      attendees: [{ user: 'p1' }, { user: 'p2' }],
    },
    {
      ref: 'S3',
      owner: 'o',
      title: 'Another class',
      startDate: '2026-10-02 09:00:00',
      quizzes: ['q1'],
      attendees: [{ user: 'p1' }],
    },
  ],
  answers: [
    ...[true, false, false, false, true].map((answer, question) => ({
      session: 'S',
      user: 'p1',
      quiz: 'q1',
      question,
      answer,
      answeredAt: `2026-10-05 09:0${question}:10`,
    })),
    ...[true, true, true].map((answer, question) => ({
      session: 'S',
      user: 'p2',
      quiz: 'q1',
      question,
      answer,
      answeredAt: `2026-10-05 09:0${question}:20`,
    })),
    {
      session: 'S',
      user: 'p3',
      quiz: 'q2',
      question: 0,
      answer: 0,
      answeredAt: '2026-10-05 09:10:00',
    },
    {
      session: 'S',
      user: 'p3',
      quiz: 'q2',
      question: 1,
      answer: 0,
      answeredAt: '2026-10-05 09:11:30',
    },
    ...[false, false, false].map((answer, question) => ({
      session: 'S2',
      user: 'p1',
      quiz: 'q1',
      question,
      answer,
      answeredAt: `2026-10-01 09:0${question}:00`,
    })),
    {
      session: 'S3',
      user: 'p1',
      quiz: 'q1',
      question: 0,
      answer: true,
      answeredAt: '2026-10-02 09:00:00',
    },
  ],
};

/** The questions of a survey, one of each type (no good answers, no tolerance). */
export const SURVEY_OF_EVERY_TYPE: NonNullable<ImportDocument['quizzes']>[number]['questions'] = [
  { title: 'Mood', type: 'MultipleChoicesOneGoodAnswer', propositions: ['good', 'bad'] },
  { title: 'Topics', type: 'MultipleChoicesSeveralGoodAnswers', propositions: ['x', 'y', 'z'] },
  { title: 'Again?', type: 'TrueFalse' },
  { title: 'Comment', type: 'FreeAnswerText' },
  { title: 'Minutes', type: 'FreeAnswerNumber' },
];

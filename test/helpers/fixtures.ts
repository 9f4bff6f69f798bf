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

import type { ImportDocument } from '../../src/data/import/import-document';

/** The data of the exportDataSet suite (test/integration/data-set-export.contract.test.ts). */

/** Names and titles a CSV writer gets wrong: quotes, commas, CR, LF, accents, double spaces. */
export const TRICKY = [
  { firstName: 'Élodie', lastName: 'Line\nbreak' },
  { firstName: 'Carriage\r\nReturn', lastName: 'O"Brien' },
  { firstName: 'Anne  Marie', lastName: 'Ñúñez, José' },
  { firstName: '"quoted"', lastName: 'Zoë' },
];
export const BIG = Array.from({ length: 2500 }, (_, i) => `b${String(i + 1).padStart(4, '0')}`);

export const DOCUMENT: ImportDocument = {
  users: [
    { ref: 'A', email: 'a@school.example', firstName: 'Ada', lastName: 'Alpha, "the" teacher' },
    { ref: 'B', email: 'b@school.example', firstName: 'Bob', lastName: 'Beta' },
    ...TRICKY.map((names, i) => ({ ref: `t${i}`, email: `t${i}@school.example`, ...names })),
    ...BIG.map((ref) => ({
      ref,
      email: `${ref}@school.example`,
      firstName: 'Pupil',
      lastName: ref,
    })),
  ],
  groups: [
    { ref: 'g1', name: 'Group, "one"', owner: 'A', members: ['t0', 't1'] },
    { ref: 'g2', name: 'Zoé\r\nclass', owner: 'A', members: ['t2'] },
  ],
  quizzes: [
    {
      ref: 'q1',
      author: 'A',
      title: 'Fractions, "hard"\nones',
      visibility: 'public',
      survey: false,
      tags: ['a,b', 'façon'],
      defaultDuration: '1:30',
      questions: [
        { title: 'True, or "false"?', type: 'TrueFalse', goodAnswer: true },
        {
          title: 'Pick one',
          type: 'MultipleChoicesOneGoodAnswer',
          propositions: ['one, two', 'thrée'],
          goodAnswer: 0,
        },
      ],
    },
    {
      ref: 'q2',
      author: 'A',
      title: 'Private quiz',
      visibility: 'private',
      survey: false,
      tags: ['x', 'y'],
      questions: [{ title: 'Yes?', type: 'TrueFalse', goodAnswer: true }],
    },
  ],
  sessions: [
    {
      ref: 'S',
      owner: 'A',
      title: 'Class',
      startDate: '2026-09-01 09:00:00',
      quizzes: ['q1', 'q2'],
      attendees: TRICKY.map((_, i) => ({ user: `t${i}` })),
    },
    {
      ref: 'BIG',
      owner: 'A',
      title: 'Whole school',
      startDate: '2026-09-02 09:00:00',
      attendees: BIG.map((user) => ({ user })),
    },
  ],
  answers: [
    {
      session: 'S',
      user: 't0',
      quiz: 'q1',
      question: 0,
      answer: true,
      answeredAt: '2026-09-01 09:01:00',
    },
    {
      session: 'S',
      user: 't0',
      quiz: 'q1',
      question: 1,
      answer: 1,
      answeredAt: '2026-09-01 09:02:00',
    },
    {
      session: 'S',
      user: 't1',
      quiz: 'q1',
      question: 0,
      answer: false,
      answeredAt: '2026-09-01 09:01:30',
    },
    {
      session: 'S',
      user: 't2',
      quiz: 'q2',
      question: 0,
      answer: true,
      answeredAt: '2026-09-01 09:03:00',
    },
  ],
};

/** The CSV header of each kind of set: the item's fields, nested objects flattened. */
const USER_HEADER = ['id', 'firstName', 'lastName', 'pictureURL'];
export const HEADERS = {
  user: USER_HEADER,
  quiz: [
    'id',
    'title',
    'visibility',
    'survey',
    'tags',
    'creationDate',
    'lastChangeDate',
    ...USER_HEADER.map((field) => `author.${field}`),
    'nbQuestions',
    'questions',
    'defaultDuration',
    'imported',
    'favorite',
  ],
  userGroup: ['id', 'name', 'nbMembers'],
  detailed: ['id', 'userId', 'quizId', 'sessionId', 'nbGoodAnswers', 'goodAnswersPercent'],
  byUser: ['id', 'userId', 'aggregationFunction', 'nbGoodAnswers', 'nbAnswers'],
};

/** The items of an NDJSON export: one JSON object a line, the last line ended too. */
export function ndjsonItems(text: string): Record<string, unknown>[] {
  return text === ''
    ? []
    : text
        .replace(/\n$/, '')
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
}

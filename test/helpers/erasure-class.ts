import type { ImportAnswer, ImportDocument } from '../../src/data/import/import-document';

/**
 * Two teachers' classes for the erasure suite: pupils a, b, c and p (the one erased) attend a
 * session of each teacher and answer every question; p also is in a group and flags a quiz.
 * `withoutP` is the same world in which p never existed: p is the last of each list, so every
 * other id is the same in both.
 */

export const PUPIL_NAMES = {
  p: ['Perpetua', 'Zimmerwald-Oakes', 'perpetua.zimmerwald@ecole-erasure.example'],
  t2: ['Theodora', 'Brightwater-Lisle', 'theodora.brightwater@ecole-erasure.example'],
} as const;

const PUPILS = ['a', 'b', 'c', 'p'] as const;

/** Each pupil's answers to q1 (true/false, choice, text, number) and q2 (two choices). */
const Q1_ANSWERS: Record<(typeof PUPILS)[number], unknown[]> = {
  a: [true, 1, 'photosynthesis', 46],
  b: [false, 1, 'respiration', 46],
  c: [true, 0, 'photosynthesis', 23],
  p: [true, 1, 'Marzipan-Thunderclap-61', 46],
};
const Q2_ANSWERS: Record<(typeof PUPILS)[number], unknown[]> = {
  a: [0, 2],
  b: [1, 2],
  c: [0, 1],
  p: [0, 2],
};

function answersOf(pupils: readonly string[]): ImportAnswer[] {
  return pupils.flatMap((user, index) => [
    ...(Q1_ANSWERS[user as (typeof PUPILS)[number]] ?? []).map((answer, question) => ({
      session: 'S1',
      user,
      quiz: 'q1',
      question,
      answer,
      answeredAt: `2026-10-05 09:0${question}:${String(10 + index * 7).padStart(2, '0')}`,
    })),
    ...(Q2_ANSWERS[user as (typeof PUPILS)[number]] ?? []).map((answer, question) => ({
      session: 'S2',
      user,
      quiz: 'q2',
      question,
      answer,
      answeredAt: `2026-10-06 10:1${question}:${String(5 + index * 11).padStart(2, '0')}`,
    })),
  ]);
}

function world(pupils: readonly string[]): ImportDocument {
  const person = (ref: string, first: string, last: string, email: string) => ({
    ref,
    email,
    password: 'Erasure-fixture-pass-7781',
    firstName: first,
    lastName: last,
  });
  return {
    users: [
      person('t1', 'Ottoline', 'Marchbanks', 'ottoline.marchbanks@ecole-erasure.example'),
      person('t2', ...PUPIL_NAMES.t2),
      person('a', 'Anselm', 'Quarrington', 'anselm.q@ecole-erasure.example'),
      person('b', 'Berenike', 'Holloway', 'berenike.h@ecole-erasure.example'),
      person('c', 'Cassius', 'Fennimore', 'cassius.f@ecole-erasure.example'),
      ...(pupils.includes('p') ? [person('p', ...PUPIL_NAMES.p)] : []),
    ],
    groups: [{ ref: 'g', name: 'Class 5A', owner: 't1', members: [...pupils] }],
    quizzes: [
      {
        ref: 'q1',
        author: 't1',
        title: 'Cells',
        visibility: 'public',
        survey: false,
        creationDate: '2026-09-01 08:00:00',
        lastChangeDate: '2026-09-01 08:00:00',
        tags: ['biology', 'cells'],
        questions: [
          { title: 'Cells divide', type: 'TrueFalse', goodAnswer: true },
          {
            title: 'Organelle',
            type: 'MultipleChoicesOneGoodAnswer',
            propositions: ['nucleus', 'mitochondrion'],
            goodAnswer: 1,
          },
          { title: 'Process', type: 'FreeAnswerText', goodAnswer: 'photosynthesis' },
          { title: 'Chromosomes', type: 'FreeAnswerNumber', goodAnswer: 46 },
        ],
      },
      {
        ref: 'q2',
        author: 't2',
        title: 'Rivers',
        visibility: 'public',
        survey: false,
        creationDate: '2026-09-01 08:00:00',
        lastChangeDate: '2026-09-01 08:00:00',
        tags: ['geography', 'rivers'],
        questions: [
          {
            title: 'Longest',
            type: 'MultipleChoicesOneGoodAnswer',
            propositions: ['Nile', 'Amazon', 'Rhine'],
            goodAnswer: 0,
          },
          {
            title: 'Source of the Rhine',
            type: 'MultipleChoicesOneGoodAnswer',
            propositions: ['France', 'Germany', 'Switzerland'],
            goodAnswer: 2,
          },
        ],
      },
    ],
    sessions: [
      {
        ref: 'S1',
        owner: 't1',
        title: 'Biology, week 1',
        startDate: '2026-10-05 09:00:00',
        quizzes: ['q1'],
        attendees: pupils.map((user) => ({ user, raisedHand: user === 'p' })),
      },
      {
        ref: 'S2',
        owner: 't2',
        title: 'Geography, week 1',
        startDate: '2026-10-06 10:00:00',
        quizzes: ['q2'],
        attendees: pupils.map((user) => ({ user })),
      },
    ],
    answers: answersOf(pupils),
    flags: pupils.includes('p') ? [{ user: 'p', quiz: 'q1', favorite: true }] : [],
  };
}

export const WITH_P = world(PUPILS);
export const WITHOUT_P = world(PUPILS.filter((pupil) => pupil !== 'p'));

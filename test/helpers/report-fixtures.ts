import type { ImportAnswer, ImportDocument } from '../../src/data/import/import-document';

/**
 * A session for the demo page's quiz report (item analysis, contract.md §12): its quiz was made
 * to have one question of each kind a teacher looks at again.
 *
 * Twenty pupils p00…p19, p00 the strongest. "Fractions check" has five questions:
 * - 0 "Largest fraction" (multiple choice 1/3, 3/4, 2/5; good 3/4): p00–p11 answer well,
 *   p12–p15 choose 1/3, p16–p19 choose 2/5. Facility 60, discriminating.
 * - 1 "Half of a half": everybody answers well. Facility 100: too easy.
 * - 2 "Hardest reduction": only p00 answers well, p15–p19 skip it. Facility 5: too hard.
 * - 3 "Coin toss": the even pupils answer well. Facility 50, discrimination near 0: weak.
 * - 4 "Quarters": p00–p09 answer well. Facility 50, the most discriminating.
 * Worked by hand (population variances, Pearson correlation with the rest score): facilities
 * 60, 100, 5, 50, 50; discriminations 0.56, none, 0.30, 0.05, 0.57; scores per attempt give
 * mean 53, median 60, stddev 23.04, alpha 0.51, histogram [0,0,4,0,5,0,6,0,4,1].
 * "Warm-up" (two true/false questions) is answered by p00–p04 only, for the quiz picker.
 * "Term feedback" is a survey (one choice of Yes/No, one true or false) answered by p00–p02:
 * no score, so the session's averages leave it out (p00: 5/5 and 2/2, 100 %), and fewer than
 * SURVEY_MIN_RESPONSES (5) attempts, so its choices are not shown.
 */

export const REPORT_TEACHER_EMAIL = 'rita@report.example';
export const REPORT_TEACHER_PASSWORD = 'report-teacher-password-1';
const PUPILS = Array.from({ length: 20 }, (_, index) => `p${String(index).padStart(2, '0')}`);

/** Each pupil's answer to each question of Fractions check; undefined: not answered. */
const FRACTIONS_ANSWERS: ((pupil: number) => unknown)[] = [
  (pupil) => (pupil < 12 ? 1 : pupil < 16 ? 0 : 2),
  () => true,
  (pupil) => (pupil === 0 ? true : pupil < 15 ? false : undefined),
  (pupil) => pupil % 2 === 0,
  (pupil) => pupil < 10,
];
const WARM_UP_ANSWERS: ((pupil: number) => unknown)[] = [(pupil) => pupil < 3, () => true];
const FEEDBACK_ANSWERS: ((pupil: number) => unknown)[] = [(pupil) => pupil % 2, () => true];

function answers(
  quiz: string,
  rules: ((pupil: number) => unknown)[],
  pupils: number,
): ImportAnswer[] {
  const made: ImportAnswer[] = [];
  for (let pupil = 0; pupil < pupils; pupil += 1) {
    rules.forEach((rule, question) => {
      const answer = rule(pupil);
      if (answer === undefined) return;
      const second = made.length;
      made.push({
        session: 'R',
        user: PUPILS[pupil],
        quiz,
        question,
        answer,
        answeredAt: `2026-10-05 ${String(10 + Math.floor(second / 60)).padStart(2, '0')}:${String(second % 60).padStart(2, '0')}:00`,
      });
    });
  }
  return made;
}

export const REPORT_DOCUMENT: ImportDocument = {
  users: [
    {
      ref: 'T',
      email: REPORT_TEACHER_EMAIL,
      password: REPORT_TEACHER_PASSWORD,
      firstName: 'Rita',
      lastName: 'Report',
      canCreatePrivateQuizzes: true,
    },
    ...PUPILS.map((ref) => ({
      ref,
      email: `${ref}@report.example`,
      firstName: ref.toUpperCase(),
      lastName: 'Pupil',
    })),
  ],
  quizzes: [
    {
      ref: 'fractions',
      author: 'T',
      title: 'Fractions check',
      visibility: 'private',
      survey: false,
      tags: ['math', 'fractions'],
      questions: [
        {
          title: 'Largest fraction',
          type: 'MultipleChoicesOneGoodAnswer',
          propositions: ['1/3', '3/4', '2/5'],
          goodAnswer: 1,
        },
        { title: 'Half of a half', type: 'TrueFalse', goodAnswer: true },
        { title: 'Hardest reduction', type: 'TrueFalse', goodAnswer: true },
        { title: 'Coin toss', type: 'TrueFalse', goodAnswer: true },
        { title: 'Quarters', type: 'TrueFalse', goodAnswer: true },
      ],
    },
    {
      ref: 'warmup',
      author: 'T',
      title: 'Warm-up',
      visibility: 'public',
      survey: false,
      tags: ['math', 'fractions'],
      questions: [
        { title: 'One is odd', type: 'TrueFalse', goodAnswer: true },
        { title: 'Two is even', type: 'TrueFalse', goodAnswer: true },
      ],
    },
    {
      ref: 'feedback',
      author: 'T',
      title: 'Term feedback',
      visibility: 'public',
      survey: true,
      tags: ['feedback', 'survey'],
      questions: [
        {
          title: 'Did you enjoy it?',
          type: 'MultipleChoicesOneGoodAnswer',
          propositions: ['Yes', 'No'],
        },
        { title: 'More fractions next term', type: 'TrueFalse' },
      ],
    },
  ],
  sessions: [
    {
      ref: 'R',
      owner: 'T',
      title: 'Fractions day',
      startDate: '2026-10-05 09:00:00',
      quizzes: ['fractions', 'warmup', 'feedback'],
      attendees: PUPILS.map((user) => ({ user })),
    },
  ],
  answers: [
    ...answers('fractions', FRACTIONS_ANSWERS, 20),
    ...answers('warmup', WARM_UP_ANSWERS, 5),
    ...answers('feedback', FEEDBACK_ANSWERS, 3),
  ],
};

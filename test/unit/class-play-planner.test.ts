import type { Question } from '@quiz-results/client';
import { planClass, type ClassPlanInput } from '../../src/data/simulate/class-play.planner';
import type { ScorableQuestion } from '../../src/domain/questions/question-types';
import { gradeAnswer } from '../../src/domain/questions/scoring';

/** The plan of a simulated class: every answer well formed, on time, corrections after. */

const QUESTIONS: Question[] = [
  {
    title: 'One',
    type: 'MultipleChoicesOneGoodAnswer',
    propositions: ['a', 'b', 'c'],
    goodAnswer: 1,
  },
  {
    title: 'Several',
    type: 'MultipleChoicesSeveralGoodAnswers',
    propositions: ['a', 'b', 'c', 'd'],
    goodAnswer: [0, 3],
  },
  { title: 'TF', type: 'TrueFalse', goodAnswer: false },
  { title: 'Text', type: 'FreeAnswerText', caseSensitive: false, goodAnswer: 'Paris' },
  { title: 'Number', type: 'FreeAnswerNumber', tolerance: 5, goodAnswer: 12.5 },
];

/** The same questions as a pupil's client sees a quiz it did not write: no good answers. */
const HIDDEN: Question[] = QUESTIONS.map(({ goodAnswer: _hidden, ...question }) => question);

function scorable(question: Question): ScorableQuestion {
  return {
    type: question.type,
    goodAnswer: (question.goodAnswer as ScorableQuestion['goodAnswer']) ?? null,
    tolerance: 'tolerance' in question ? question.tolerance : null,
    caseSensitive: 'caseSensitive' in question ? question.caseSensitive : null,
    nbPropositions: 'propositions' in question ? question.propositions.length : null,
  };
}

const input = (overrides: Partial<ClassPlanInput> = {}): ClassPlanInput => ({
  questions: QUESTIONS,
  pupilIds: Array.from({ length: 40 }, (_, index) => String(100 + index)),
  seconds: 60,
  seed: 7,
  ...overrides,
});

describe('planClass', () => {
  it('is the same for the same input and another for another seed', () => {
    expect(planClass(input())).toEqual(planClass(input()));
    expect(planClass(input({ seed: 8 }))).not.toEqual(planClass(input()));
  });

  it.each([
    ['known', QUESTIONS],
    ['hidden', HIDDEN],
  ])(
    'gives each pupil one first answer per question, well formed, within the class (good answers %s)',
    (_label, questions) => {
      const plan = planClass(input({ questions }));
      const firsts = plan.filter((answer) => !answer.correction);
      expect(firsts).toHaveLength(40 * QUESTIONS.length);
      const keys = new Set(firsts.map((answer) => `${answer.userId}:${answer.questionIndex}`));
      expect(keys.size).toBe(firsts.length);
      for (const answer of plan) {
        expect(answer.atMs).toBeGreaterThanOrEqual(0);
        expect(answer.atMs).toBeLessThanOrEqual(60_000);
        const graded = gradeAnswer(
          scorable(QUESTIONS[answer.questionIndex] as Question),
          answer.answer,
        );
        expect(graded.ok).toBe(true);
        // `wrong` is claimed only where the good answer was known, and then it is true.
        if (questions === HIDDEN) expect(answer.wrong).toBe(false);
        else if (graded.ok) expect(answer.wrong).toBe(graded.good === false);
      }
      expect(plan.map((answer) => answer.atMs)).toEqual(
        [...plan.map((answer) => answer.atMs)].sort((a, b) => a - b),
      );
    },
  );

  it('has some wrong answers and a few corrections, each later by whole seconds and different', () => {
    const plan = planClass(input());
    const wrong = plan.filter((answer) => answer.wrong).length;
    expect(wrong).toBeGreaterThan(0);
    expect(wrong).toBeLessThan(plan.length / 2);
    const corrections = plan.filter((answer) => answer.correction);
    expect(corrections.length).toBeGreaterThan(0);
    expect(corrections.length).toBeLessThan(plan.length / 5);
    for (const correction of corrections) {
      const first = plan.find(
        (answer) =>
          !answer.correction &&
          answer.userId === correction.userId &&
          answer.questionIndex === correction.questionIndex,
      );
      expect(first).toBeDefined();
      // Stored times have whole seconds: the correction must be in a later one to replace.
      expect(Math.floor(correction.atMs / 1000)).toBeGreaterThan(
        Math.floor((first?.atMs ?? 0) / 1000),
      );
      expect(JSON.stringify(correction.answer)).not.toBe(JSON.stringify(first?.answer));
    }
  });
});

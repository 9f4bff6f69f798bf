import {
  ANSWER_LIMITS,
  answerBatch,
  answerTime,
  answeredQuestion,
  scoredAnswer,
} from '../../src/domain/answers/answer.rules';
import type { ScorableQuestion } from '../../src/domain/questions/question-types';
import { refusal } from '../helpers/rules';

const QUESTIONS: Record<string, ScorableQuestion> = {
  one: { type: 'MultipleChoicesOneGoodAnswer', goodAnswer: 1, nbPropositions: 3 },
  several: { type: 'MultipleChoicesSeveralGoodAnswers', goodAnswer: [0, 2], nbPropositions: 4 },
  trueFalse: { type: 'TrueFalse', goodAnswer: false },
  text: { type: 'FreeAnswerText', goodAnswer: 'Paris', tolerance: 20, caseSensitive: false },
  number: { type: 'FreeAnswerNumber', goodAnswer: '0.75', tolerance: 5 },
  survey: { type: 'MultipleChoicesOneGoodAnswer', goodAnswer: null, nbPropositions: 3 },
};

describe('scoredAnswer: one answer against its question type (contract.md §4, §9)', () => {
  it.each<[string, unknown, unknown, boolean | null]>([
    ['one', 1, 1, true],
    ['one', 2, 2, false],
    ['several', [2, 0], [0, 2], true],
    ['several', [], [], false],
    ['trueFalse', 'false', false, true],
    ['trueFalse', true, true, false],
    ['text', ' pari ', ' pari ', true],
    ['text', 'London', 'London', false],
    ['number', '0,78', '0.78', true],
    ['number', 0.8, '0.8', false],
    ['survey', 0, 0, null],
  ])('%s question, answer %p: stored %p, good %p', (name, answer, value, good) => {
    const question = QUESTIONS[name] as ScorableQuestion;
    expect(scoredAnswer(question, answer, 'answers[3].answer')).toEqual({ value, good });
  });

  it.each<[string, unknown, string]>([
    ['one', 3, 'expected an index between 0 and 2'],
    ['one', '1', 'expected an index between 0 and 2'],
    ['several', [1, 1], 'index 1 is given more than once'],
    ['trueFalse', 'yes', 'expected true or false'],
    ['text', 42, 'expected a text'],
    ['text', 'x'.repeat(251), 'expected a text of at most 250 characters'],
    [
      'number',
      '1.123456789',
      'expected a decimal number with at most 8 digits before and 8 after the decimal mark',
    ],
    ['survey', 5, 'expected an index between 0 and 2'],
  ])('%s question refuses %p, naming the answer by its path', (name, answer, reason) => {
    const question = QUESTIONS[name] as ScorableQuestion;
    expect(refusal(() => scoredAnswer(question, answer, 'answers[12].answer'))).toEqual({
      path: 'answers[12].answer',
      reason,
      missing: false,
    });
  });
});

describe('answeredQuestion: the question at a 0-based position', () => {
  const questions = ['a', 'b', 'c'];

  it('returns the position and the question', () => {
    expect(answeredQuestion(questions, 2, 'answers[0].questionIndex', 'quiz 7')).toEqual({
      position: 2,
      question: 'c',
    });
  });

  it.each<[unknown]>([[3], [-1], [1.5], ['1'], [null], [undefined]])(
    'refuses position %p',
    (position) => {
      expect(
        refusal(() => answeredQuestion(questions, position, 'answers[4].question', 'q')),
      ).toEqual({
        path: 'answers[4].question',
        reason: `expected a question index between 0 and 2, got ${position === undefined ? 'nothing' : JSON.stringify(position)}`,
        missing: false,
      });
    },
  );

  it('names the quiz when it has no questions', () => {
    expect(refusal(() => answeredQuestion([], 0, 'answers[1].question', 'quiz "q2"'))).toEqual({
      path: 'answers[1].question',
      reason: 'quiz "q2" has no questions',
      missing: false,
    });
  });
});

describe('answerTime: when an answer was given', () => {
  const now = new Date('2026-10-01T12:00:00Z');

  it('defaults to now', () => {
    expect(answerTime(null, now, 'answers[0].answeredAt')).toBe(now);
  });

  it('keeps past times and times up to 5 minutes ahead (device clocks drift)', () => {
    const past = new Date('2020-01-01T00:00:00Z');
    const ahead = new Date(now.getTime() + ANSWER_LIMITS.maxFutureMs);
    expect(answerTime(past, now, 'p')).toBe(past);
    expect(answerTime(ahead, now, 'p')).toBe(ahead);
  });

  it('refuses a time more than 5 minutes ahead', () => {
    const late = new Date(now.getTime() + ANSWER_LIMITS.maxFutureMs + 1000);
    expect(refusal(() => answerTime(late, now, 'answers[2].answeredAt'))).toEqual({
      path: 'answers[2].answeredAt',
      reason: 'is more than 5 minutes in the future',
      missing: false,
    });
  });
});

describe('answerBatch: 1 to 5,000 answers per call', () => {
  it('accepts the bounds', () => {
    expect(answerBatch([{}], 'answers')).toHaveLength(1);
    expect(answerBatch(new Array(5000).fill({}), 'answers')).toHaveLength(5000);
  });

  it.each<[unknown, { reason: string; missing: boolean }]>([
    [undefined, { reason: 'is required', missing: true }],
    [null, { reason: 'is required', missing: true }],
    [{}, { reason: 'expected an array, got an object', missing: false }],
    [[], { reason: 'expected 1 to 5000 answers, got 0', missing: false }],
    [new Array(5001).fill({}), { reason: 'expected 1 to 5000 answers, got 5001', missing: false }],
  ])('refuses %p', (value, expected) => {
    expect(refusal(() => answerBatch(value, 'answers'))).toEqual({ path: 'answers', ...expected });
  });
});

import {
  decodeQuestionRow,
  encodeQuestionRow,
  scorableRow,
} from '../../src/domain/questions/question-row.codec';
import { scorable, type ValidQuestion } from '../../src/domain/questions/question-types';
import { gradeAnswer } from '../../src/domain/questions/scoring';

const base = {
  title: 'A question',
  mediaType: null,
  mediaUrl: null,
  propositions: null,
  goodAnswer: null,
  tolerance: null,
  caseSensitive: null,
} as const;

/** One question of each type, as validation returns them, and a survey question. */
const QUESTIONS: ValidQuestion[] = [
  {
    ...base,
    position: 0,
    type: 'MultipleChoicesOneGoodAnswer',
    propositions: ['3/4', '"quoted"', 'é ü'],
    goodAnswer: 1,
    mediaType: 'image',
    mediaUrl: 'https://example.org/a.png',
  },
  {
    ...base,
    position: 1,
    type: 'MultipleChoicesSeveralGoodAnswers',
    propositions: ['a', 'b', 'c', 'd'],
    goodAnswer: [0, 1, 3],
  },
  { ...base, position: 2, type: 'TrueFalse', goodAnswer: false },
  { ...base, position: 3, type: 'FreeAnswerNumber', goodAnswer: '0.75', tolerance: 5 },
  {
    ...base,
    position: 4,
    type: 'FreeAnswerText',
    goodAnswer: 'Paris',
    tolerance: 0,
    caseSensitive: true,
  },
  { ...base, position: 5, type: 'FreeAnswerText' },
];

describe('question-row codec: a question as its table stores it', () => {
  it('stores the lists and the good answer as JSON text, the rest as is', () => {
    expect(
      QUESTIONS.map(encodeQuestionRow).map((row) => [row.propositions, row.goodAnswer]),
    ).toEqual([
      ['["3/4","\\"quoted\\"","é ü"]', '1'],
      ['["a","b","c","d"]', '[0,1,3]'],
      [null, 'false'],
      [null, '"0.75"'],
      [null, '"Paris"'],
      [null, null],
    ]);
    expect(encodeQuestionRow(QUESTIONS[0] as ValidQuestion)).toMatchObject({
      position: 0,
      type: 'MultipleChoicesOneGoodAnswer',
      title: 'A question',
      mediaType: 'image',
      mediaUrl: 'https://example.org/a.png',
      tolerance: null,
      caseSensitive: null,
    });
  });

  it.each(QUESTIONS.map((question) => [question.type, question.position, question] as const))(
    'decodes what it encodes (%s at %i)',
    (_type, _position, question) => {
      expect(decodeQuestionRow(encodeQuestionRow(question))).toEqual(question);
    },
  );

  it('gives scoring what a validated question gives, so a stored question scores alike', () => {
    for (const question of QUESTIONS) {
      const row = encodeQuestionRow(question);
      expect(scorableRow(row)).toEqual(scorable(question));
      const answer = question.goodAnswer ?? 0;
      expect(gradeAnswer(scorableRow(row), answer)).toEqual(
        gradeAnswer(scorable(question), answer),
      );
    }
  });
});

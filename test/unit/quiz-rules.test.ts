import { QUIZ_VISIBILITIES, quizDates } from '../../src/domain/quizzes/quiz.rules';
import { InvalidInputError } from '../../src/domain/validation/checks';

const NOW = new Date('2026-10-01T12:00:00Z');
const EARLIER = new Date('2026-09-01T08:00:00Z');
const LATER = new Date('2026-11-01T08:00:00Z');

describe('quiz rules', () => {
  it('visibilities are those of contract.md §4', () => {
    expect(QUIZ_VISIBILITIES).toEqual(['public', 'private', 'draft']);
  });

  it('a new quiz (addQuiz, or an undated quiz of a file) was made and changed now', () => {
    expect(quizDates(null, null, NOW, 'quiz')).toEqual({ creationDate: NOW, lastChangeDate: NOW });
  });

  it('keeps given dates that are in order', () => {
    expect(quizDates(EARLIER, NOW, NOW, 'quizzes[0]')).toEqual({
      creationDate: EARLIER,
      lastChangeDate: NOW,
    });
    expect(quizDates(EARLIER, EARLIER, NOW, 'quizzes[0]')).toEqual({
      creationDate: EARLIER,
      lastChangeDate: EARLIER,
    });
  });

  it('an absent last change is now, but never before the creation', () => {
    expect(quizDates(EARLIER, null, NOW, 'q').lastChangeDate).toEqual(NOW);
    expect(quizDates(LATER, null, NOW, 'q').lastChangeDate).toEqual(LATER);
  });

  it('an absent creation is now, even after a given last change (as files have always loaded)', () => {
    expect(quizDates(null, EARLIER, NOW, 'q')).toEqual({
      creationDate: NOW,
      lastChangeDate: EARLIER,
    });
  });

  it('refuses a last change before the creation, naming it under the quiz', () => {
    let caught: unknown;
    try {
      quizDates(NOW, EARLIER, NOW, 'quizzes[3]');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidInputError);
    expect(caught).toMatchObject({
      path: 'quizzes[3].lastChangeDate',
      reason: 'is before creationDate',
      missing: false,
    });
  });
});

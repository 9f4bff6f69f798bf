import {
  SESSION_LIMITS,
  checkAttends,
  checkNewAttendee,
  checkPlays,
  clientRef,
  sessionQuizList,
  sessionTitle,
} from '../../src/domain/sessions/session.rules';
import { refusal } from '../helpers/rules';

describe('session rules (contract.md §9)', () => {
  it('a title is 1 to 250 characters, trimmed', () => {
    expect(sessionTitle('  Monday maths ', 'session.title')).toBe('Monday maths');
    expect(sessionTitle('é'.repeat(250), 'session.title')).toHaveLength(250);
    expect(refusal(() => sessionTitle('   ', 'session.title'))).toEqual({
      path: 'session.title',
      reason: 'expected 1 to 250 characters, got 0',
      missing: false,
    });
    expect(refusal(() => sessionTitle('x'.repeat(251), 'sessions[2].title')).reason).toBe(
      'expected 1 to 250 characters, got 251',
    );
    expect(refusal(() => sessionTitle(undefined, 'session.title')).missing).toBe(true);
  });

  it('addSession names 1 to 100 quizzes', () => {
    expect(sessionQuizList(['1'], 'session.quizIds')).toEqual(['1']);
    expect(sessionQuizList(new Array(100).fill('1'), 'session.quizIds')).toHaveLength(100);
    expect(refusal(() => sessionQuizList([], 'session.quizIds'))).toEqual({
      path: 'session.quizIds',
      reason: 'expected 1 to 100 quizzes, got 0',
      missing: false,
    });
    expect(refusal(() => sessionQuizList(new Array(101).fill('1'), 'q')).reason).toBe(
      'expected 1 to 100 quizzes, got 101',
    );
    expect(refusal(() => sessionQuizList(undefined, 'session.quizIds')).missing).toBe(true);
    expect(refusal(() => sessionQuizList('1,2', 'session.quizIds')).reason).toBe(
      'expected an array, got "1,2"',
    );
  });

  it('a clientRef is absent, or 1 to 64 characters compared as given', () => {
    expect(clientRef(undefined, 'session.clientRef')).toBeNull();
    expect(clientRef(null, 'session.clientRef')).toBeNull();
    expect(clientRef(' lesson-12 ', 'session.clientRef')).toBe(' lesson-12 ');
    const max = 'r'.repeat(SESSION_LIMITS.clientRefLength.max);
    expect(clientRef(max, 'session.clientRef')).toBe(max);
    for (const bad of ['', `${max}r`, 12]) {
      expect(refusal(() => clientRef(bad, 'session.clientRef'))).toEqual({
        path: 'session.clientRef',
        reason: 'expected a text of 1 to 64 characters',
        missing: false,
      });
    }
  });

  it('a user attends a session once', () => {
    expect(() => checkNewAttendee(false, 'p')).not.toThrow();
    expect(refusal(() => checkNewAttendee(true, 'sessions[0].attendees[3].user'))).toEqual({
      path: 'sessions[0].attendees[3].user',
      reason: 'attends the session twice',
      missing: false,
    });
  });

  it('an answer comes from an attendee, for a quiz the session plays', () => {
    expect(() => checkAttends(true, 'p', 'user 1', 'session 2')).not.toThrow();
    expect(() => checkPlays(true, 'p', 'quiz 3', 'session 2')).not.toThrow();
    expect(refusal(() => checkAttends(false, 'answers[1].userId', 'user 1', 'session 2'))).toEqual({
      path: 'answers[1].userId',
      reason: 'user 1 did not attend session 2',
      missing: false,
    });
    expect(
      refusal(() => checkPlays(false, 'answers[1].quizId', 'quiz "q3"', 'session "S2"')),
    ).toEqual({
      path: 'answers[1].quizId',
      reason: 'quiz "q3" was not played in session "S2"',
      missing: false,
    });
  });
});

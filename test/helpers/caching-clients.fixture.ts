import type { ImportDocument } from '../../src/data/import/import-document';

/**
 * The class the caching clients' tests (Apollo Client, urql's Graphcache) read: a teacher, four
 * pupils, two quizzes of two questions, sessions A (p0, p1) and B (p2, p3).
 */
const PUPILS = ['p0', 'p1', 'p2', 'p3'];
/** Session A: p0 and p1; session B: p2 and p3. Pupil i answers the first question right if i is even. */
export function cachingClientsClass(
  client: string,
  teacher: string,
  lastName: string,
): ImportDocument {
  return {
    users: [
      { ref: 'T', email: `t@${client}.example`, firstName: teacher, lastName: 'Teacher' },
      ...PUPILS.map((ref, i) => ({
        ref,
        email: `${ref}@${client}.example`,
        firstName: `Pupil${i}`,
        lastName,
      })),
    ],
    quizzes: ['q1', 'q2'].map((ref) => ({
      ref,
      author: 'T',
      title: `Quiz ${ref}`,
      visibility: 'public' as const,
      survey: false,
      tags: [client, ref],
      questions: [
        { title: 'First', type: 'TrueFalse', goodAnswer: true },
        { title: 'Second', type: 'TrueFalse', goodAnswer: true },
      ],
    })),
    sessions: (['A', 'B'] as const).map((ref, index) => ({
      ref,
      owner: 'T',
      title: `Class ${ref}`,
      startDate: `2026-10-0${index + 1} 09:00:00`,
      quizzes: ['q1', 'q2'],
      attendees: PUPILS.slice(index * 2, index * 2 + 2).map((user) => ({ user })),
    })),
    answers: (['A', 'B'] as const).flatMap((session, index) =>
      PUPILS.slice(index * 2, index * 2 + 2).flatMap((user) =>
        ['q1', 'q2'].flatMap((quiz) =>
          [0, 1].map((question) => ({
            session,
            user,
            quiz,
            question,
            answer: question === 1 || PUPILS.indexOf(user) % 2 === 0,
            answeredAt: `2026-10-0${index + 1} 09:0${question + 1}:00`,
          })),
        ),
      ),
    ),
  };
}

/** The documents of the typical flow both clients send: the session's sets, then two result sets. */
export const SETS_QUERY = /* GraphQL */ `
  query Sets($sessionId: ID!) {
    users: getUserSet(sessionId: $sessionId) {
      dataSetId
      items {
        id
        firstName
      }
    }
    quizzes: getQuizSet(sessionId: $sessionId) {
      dataSetId
      items {
        id
        title
      }
    }
  }
`;
export const DETAILED_QUERY = /* GraphQL */ `
  query Detailed($userSetId: ID!, $quizSetId: ID!) {
    getResults(userSetId: $userSetId, quizSetId: $quizSetId, resultTypes: [nbGoodAnswers]) {
      dataSetId
      items {
        id
        itemId
        userId
        quizId
        nbGoodAnswers
        user {
          id
          firstName
        }
      }
    }
  }
`;
export const AVERAGES_QUERY = /* GraphQL */ `
  query Averages($userSetId: ID!, $quizSetId: ID!) {
    getResults(
      userSetId: $userSetId
      quizSetId: $quizSetId
      resultTypes: [nbGoodAnswers]
      aggregationFunctions: [average]
      groupBy: user
    ) {
      dataSetId
      items {
        id
        itemId
        userId
        aggregationFunction
        nbGoodAnswers
      }
    }
  }
`;

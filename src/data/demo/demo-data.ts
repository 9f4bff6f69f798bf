import type {
  ImportAnswer,
  ImportDocument,
  ImportFlag,
  ImportGroup,
  ImportQuiz,
  ImportSession,
  ImportUser,
} from '../import/import-document';

/** Accounts of the demo data that can log in; the first one is the main teacher. */
export const DEMO_LOGINS: { email: string; password: string; role: string }[] = [
  { email: 'camille.laurent@demo.quiz', password: 'demo-teacher-2026', role: 'teacher' },
  { email: 'samuel.okafor@demo.quiz', password: 'demo-teacher-science', role: 'second teacher' },
  { email: 'ines.moreau@demo.quiz', password: 'demo-student-ines', role: 'student' },
  { email: 'lucas.martin@demo.quiz', password: 'demo-student-lucas', role: 'student' },
];

const passwordOf = (email: string): string | undefined =>
  DEMO_LOGINS.find((login) => login.email === email)?.password;

/** One attempt: answers to the questions of a quiz, one every 40 seconds from `start`. */
function attempt(
  session: string,
  user: string,
  quiz: string,
  start: string,
  values: unknown[],
): ImportAnswer[] {
  const startMs = Date.parse(`${start.replace(' ', 'T')}Z`);
  return values.map((answer, question) => ({
    session,
    user,
    quiz,
    question,
    answer,
    answeredAt: new Date(startMs + (question + 1) * 40_000)
      .toISOString()
      .slice(0, 19)
      .replace('T', ' '),
  }));
}

/** The two teachers and six students; the four of DEMO_LOGINS can log in. */
function demoUsers(): ImportUser[] {
  const user = (
    ref: string,
    email: string,
    firstName: string,
    lastName: string,
    extra: object = {},
  ) => ({
    ref,
    email,
    password: passwordOf(email) ?? null,
    firstName,
    lastName,
    ...extra,
  });
  return [
    user('camille', 'camille.laurent@demo.quiz', 'Camille', 'Laurent', {
      pictureURL: 'https://example.org/avatars/camille-laurent.png',
      publicProfile: true,
      canCreatePrivateQuizzes: true,
    }),
    user('samuel', 'samuel.okafor@demo.quiz', 'Samuel', 'Okafor', {
      publicProfile: true,
      canCreatePrivateQuizzes: false,
    }),
    user('ines', 'ines.moreau@demo.quiz', 'Inès', 'Moreau', { publicProfile: true }),
    user('lucas', 'lucas.martin@demo.quiz', 'Lucas', 'Martin'),
    user('jade', 'jade.nguyen@demo.quiz', 'Jade', 'Nguyen', {
      pictureURL: 'https://example.org/avatars/jade-nguyen.png',
    }),
    user('tom', 'tom.bernard@demo.quiz', 'Tom', 'Bernard'),
    user('lea', 'lea.rossi@demo.quiz', 'Léa', 'Rossi'),
    user('yanis', 'yanis.haddad@demo.quiz', 'Yanis', 'Haddad'),
  ];
}

/** Camille's class and Samuel's club; Jade is in both. */
function demoGroups(): ImportGroup[] {
  return [
    {
      ref: 'class-5a',
      name: 'Class 5A',
      owner: 'camille',
      members: ['ines', 'lucas', 'jade', 'tom'],
    },
    {
      ref: 'science-club',
      name: 'Science club',
      owner: 'samuel',
      members: ['jade', 'lea', 'yanis'],
    },
  ];
}

/** Camille's public quiz: one question of each type, with good answers. */
function tablesQuiz(): ImportQuiz {
  return {
    ref: 'tables',
    author: 'camille',
    title: 'Multiplication tables',
    visibility: 'public',
    survey: false,
    tags: ['math', 'multiplication', 'grade5'],
    defaultDuration: '5:00',
    creationDate: '2026-09-01 08:00:00',
    lastChangeDate: '2026-09-03 17:30:00',
    questions: [
      {
        title: 'What is 7 × 8?',
        type: 'MultipleChoicesOneGoodAnswer',
        propositions: ['54', '56', '63', '48'],
        goodAnswer: 1,
      },
      {
        title: 'Which of these are multiples of 6?',
        type: 'MultipleChoicesSeveralGoodAnswers',
        propositions: ['12', '26', '36', '44', '54'],
        goodAnswer: [0, 2, 4],
      },
      { title: '9 × 9 = 81', type: 'TrueFalse', goodAnswer: true },
      { title: 'What is 12 × 2.5?', type: 'FreeAnswerNumber', tolerance: 0, goodAnswer: 30 },
      {
        title: 'How do you write 40 in words?',
        type: 'FreeAnswerText',
        tolerance: 20,
        goodAnswer: 'forty',
      },
    ],
  };
}

/** Camille's private quiz: an image, a numeric tolerance, a case-sensitive answer. */
function solarSystemQuiz(): ImportQuiz {
  return {
    ref: 'solar-system',
    author: 'camille',
    title: 'The solar system',
    visibility: 'private',
    survey: false,
    tags: ['science', 'astronomy', 'grade5'],
    defaultDuration: '10:00',
    creationDate: '2026-09-05 09:00:00',
    lastChangeDate: '2026-09-05 09:00:00',
    questions: [
      {
        title: 'Which planet is this?',
        type: 'MultipleChoicesOneGoodAnswer',
        media: {
          type: 'image',
          url: 'https://upload.wikimedia.org/wikipedia/commons/0/02/OSIRIS_Mars_true_color.jpg',
        },
        propositions: ['Venus', 'Mars', 'Jupiter'],
        goodAnswer: 1,
      },
      {
        title: 'Name the largest planet',
        type: 'FreeAnswerText',
        tolerance: 20,
        goodAnswer: 'Jupiter',
      },
      {
        title: 'How many minutes does sunlight take to reach Earth?',
        type: 'FreeAnswerNumber',
        tolerance: 5,
        goodAnswer: '8,3',
      },
      { title: 'The Moon is a planet', type: 'TrueFalse', goodAnswer: false },
      {
        title: 'Which of these are gas giants?',
        type: 'MultipleChoicesSeveralGoodAnswers',
        propositions: ['Saturn', 'Mercury', 'Neptune', 'Earth'],
        goodAnswer: [0, 2],
      },
      {
        title: 'Chemical symbol of gold (exact case)',
        type: 'FreeAnswerText',
        caseSensitive: true,
        tolerance: 0,
        goodAnswer: 'Au',
      },
    ],
  };
}

/** Samuel's public survey: no good answers. */
function feedbackSurvey(): ImportQuiz {
  return {
    ref: 'feedback',
    author: 'samuel',
    title: 'End of term feedback',
    visibility: 'public',
    survey: true,
    tags: ['survey', 'feedback'],
    creationDate: '2026-09-10 12:00:00',
    questions: [
      {
        title: 'How did you like the quizzes?',
        type: 'MultipleChoicesOneGoodAnswer',
        propositions: ['A lot', 'A bit', 'Not really'],
      },
      { title: 'I would like more science', type: 'TrueFalse' },
      { title: 'What should we change?', type: 'FreeAnswerText' },
    ],
  };
}

/** Samuel's draft: nobody plays it. */
function fractionsDraft(): ImportQuiz {
  return {
    ref: 'fractions-draft',
    author: 'samuel',
    title: 'Fractions (work in progress)',
    visibility: 'draft',
    survey: false,
    tags: ['math', 'fractions'],
    questions: [
      { title: 'Half of 3?', type: 'FreeAnswerNumber', tolerance: 0, goodAnswer: 1.5 },
      { title: '2/4 equals 1/2', type: 'TrueFalse', goodAnswer: true },
    ],
  };
}

/** Two of Camille's sessions: the tables and the survey, then the solar system. */
function demoSessions(): ImportSession[] {
  return [
    {
      ref: 'monday-math',
      owner: 'camille',
      title: 'Monday math, class 5A',
      startDate: '2026-09-14 09:00:00',
      quizzes: ['tables', 'feedback'],
      attendees: [
        { user: 'ines', raisedHand: false },
        { user: 'lucas', raisedHand: true },
        { user: 'jade' },
        { user: 'tom' },
      ],
    },
    {
      ref: 'science-thursday',
      owner: 'camille',
      title: 'Science Thursday',
      startDate: '2026-09-17 14:00:00',
      quizzes: ['solar-system'],
      attendees: [{ user: 'jade' }, { user: 'lea' }, { user: 'yanis' }, { user: 'ines' }],
    },
  ];
}

/** Good, partly good and wrong attempts, in both sessions. */
function demoAnswers(): ImportAnswer[] {
  return [
    ...attempt('monday-math', 'ines', 'tables', '2026-09-14 09:05:00', [
      1,
      [0, 2, 4],
      true,
      30,
      'forty',
    ]),
    ...attempt('monday-math', 'lucas', 'tables', '2026-09-14 09:05:00', [
      2,
      [0, 2],
      true,
      '30',
      'fourty',
    ]),
    ...attempt('monday-math', 'jade', 'tables', '2026-09-14 09:06:00', [
      1,
      [0, 1, 2],
      false,
      25,
      'fourteen',
    ]),
    ...attempt('monday-math', 'tom', 'tables', '2026-09-14 09:06:00', [
      3,
      [4, 2, 0],
      true,
      30.0,
      'Forty',
    ]),
    ...attempt('monday-math', 'ines', 'feedback', '2026-09-14 09:40:00', [
      0,
      true,
      'More experiments!',
    ]),
    ...attempt('monday-math', 'tom', 'feedback', '2026-09-14 09:40:00', [
      1,
      false,
      'Less homework',
    ]),
    ...attempt('science-thursday', 'jade', 'solar-system', '2026-09-17 14:05:00', [
      1,
      'jupiter',
      8.3,
      false,
      [0, 2],
      'Au',
    ]),
    ...attempt('science-thursday', 'lea', 'solar-system', '2026-09-17 14:05:00', [
      0,
      'Saturn',
      8,
      false,
      [0],
      'AU',
    ]),
    ...attempt('science-thursday', 'yanis', 'solar-system', '2026-09-17 14:06:00', [
      1,
      'Jupyter',
      '8,5',
      true,
      [0, 2],
      'Ag',
    ]),
  ];
}

/** A few favorites, and a quiz marked as imported. */
function demoFlags(): ImportFlag[] {
  return [
    { user: 'ines', quiz: 'tables', favorite: true },
    { user: 'jade', quiz: 'solar-system', favorite: true, imported: false },
    { user: 'samuel', quiz: 'tables', favorite: false, imported: true },
  ];
}

/**
 * A small classroom history for trying the service: two teachers, six students, two groups,
 * public, private, draft and survey quizzes covering every question type, two sessions with
 * answers (good and wrong) and a few favorites. Loaded into an empty embedded database.
 */
export function demoDocument(): ImportDocument {
  return {
    users: demoUsers(),
    groups: demoGroups(),
    quizzes: [tablesQuiz(), solarSystemQuiz(), feedbackSurvey(), fractionsDraft()],
    sessions: demoSessions(),
    answers: demoAnswers(),
    flags: demoFlags(),
  };
}

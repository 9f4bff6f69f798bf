import type {
  ImportAnswer,
  ImportDocument,
  ImportQuestion,
  ImportQuiz,
  ImportSession,
} from '../../src/data/import/import-document';
import type { QuestionType } from './item-statistics-reference';
import { SeededRandom } from './seeded-random';

/**
 * Random classrooms in the import format for the item-statistics oracle
 * (test/integration/statistics-oracle.contract.test.ts): every question type, surveys, unanswered
 * questions, a quiz never played, and attempts that only some requesters may see.
 */

const TYPES: QuestionType[] = [
  'MultipleChoicesOneGoodAnswer',
  'MultipleChoicesSeveralGoodAnswers',
  'TrueFalse',
  'FreeAnswerText',
  'FreeAnswerNumber',
];
const WORDS = ['Paris', 'Lyon', 'Nantes', 'Lille', 'Brest', 'Dijon'];
const PUPILS = Array.from({ length: 12 }, (_, i) => `p${i}`);

/** A subset of 0..count-1 in random order; never empty when `nonEmpty`. */
function subset(rng: SeededRandom, count: number, nonEmpty: boolean): number[] {
  const chosen = rng
    .shuffle(Array.from({ length: count }, (_, i) => i))
    .filter(() => rng.chance(0.5));
  return nonEmpty && chosen.length === 0 ? [rng.int(0, count - 1)] : chosen;
}

function question(rng: SeededRandom, position: number, survey: boolean, type: QuestionType) {
  const title = `Statement ${position + 1}`;
  const good = (value: unknown) => (survey ? {} : { goodAnswer: value });
  const count = rng.int(2, 6);
  const propositions = Array.from({ length: count }, (_, i) => `Choice ${i + 1}`);
  switch (type) {
    case 'MultipleChoicesOneGoodAnswer':
      return { title, type, propositions, ...good(rng.int(0, count - 1)) };
    case 'MultipleChoicesSeveralGoodAnswers':
      return { title, type, propositions, ...good(subset(rng, count, true)) };
    case 'TrueFalse':
      return { title, type, ...good(rng.chance(0.5)) };
    case 'FreeAnswerText':
      return { title, type, caseSensitive: rng.chance(0.3), ...good(rng.pick(WORDS)) };
    case 'FreeAnswerNumber':
      return { title, type, ...good(rng.int(1, 999)) };
  }
}

/** A right or wrong answer to a question; any valid value on a survey question. */
function answerTo(rng: SeededRandom, q: ImportQuestion, right: boolean): unknown {
  const good = q.goodAnswer;
  const count = q.propositions?.length ?? 0;
  switch (q.type) {
    case 'MultipleChoicesOneGoodAnswer':
      if (good === undefined || !right) {
        const other = rng.int(0, count - 1);
        return other === good ? (other + 1) % count : other;
      }
      return good;
    case 'MultipleChoicesSeveralGoodAnswers': {
      if (good !== undefined && right) return rng.shuffle(good as number[]);
      const chosen = subset(rng, count, false);
      if (good === undefined) return chosen;
      const same = JSON.stringify([...chosen].sort()) === JSON.stringify([...(good as [])].sort());
      return same ? chosen.slice(1) : chosen;
    }
    case 'TrueFalse':
      return good === undefined ? rng.chance(0.5) : right === good;
    case 'FreeAnswerText': {
      if (good === undefined || !right) return rng.pick(WORDS.filter((word) => word !== good));
      return q.caseSensitive || rng.chance(0.5) ? good : ` ${String(good).toUpperCase()}`;
    }
    default:
      return good === undefined || !right ? Number(good ?? 0) + rng.int(1, 9) : good;
  }
}

/**
 * Teachers T1 (owns S0..S3, attends S4 and answers there) and T2 (owns S4, attends S0 and S1 and
 * answers there); pupils p0..p11. The group "Stats <seed>" (owned by T1) holds T1, T2 and
 * p0..p9 — p9 never attends, p10 and p11 answer but stay outside. Quizzes tagged `st<seed>`:
 * k0 (32 questions: ties of the mean), k1 (10: histogram bounds), k2 (its first question is
 * never answered), k3 (a survey), k4 (never played), k5 (one question); k6 is played but
 * tagged `so<seed>`. An attendee makes an attempt on a played quiz with probability 0.55.
 */
export function statisticsClassroom(seed: number): ImportDocument {
  const rng = new SeededRandom(seed);
  const sizes = [32, 10, rng.pick([2, 3, 5, 8, 16, 25, 40]), rng.int(3, 8), rng.int(2, 6), 1, 5];
  const quizzes: ImportQuiz[] = sizes.map((size, i) => {
    const survey = i === 3;
    return {
      ref: `k${i}`,
      author: 'T1',
      title: `Stats quiz ${seed}-${i}`,
      visibility: 'public',
      survey,
      tags: [i === 6 ? `so${seed}` : `st${seed}`, 'statistics'],
      questions: Array.from({ length: size }, (_, position) =>
        question(
          rng,
          position,
          survey,
          position < 2 ? (TYPES[position] as QuestionType) : rng.pick(TYPES),
        ),
      ),
    };
  });
  const played = ['k0', 'k1', 'k2', 'k3', 'k5', 'k6'];
  const sessions: ImportSession[] = Array.from({ length: 5 }, (_, i) => ({
    ref: `S${i}`,
    owner: i === 4 ? 'T2' : 'T1',
    title: `Stats session ${seed}-${i}`,
    startDate: `2026-11-${String(i + 2).padStart(2, '0')} 08:00:00`,
    quizzes: played,
    attendees: [
      ...PUPILS.filter((ref) => ref !== 'p9' && rng.chance(0.75)),
      ...(i <= 1 ? ['T2'] : i === 4 ? ['T1'] : []),
    ].map((user) => ({ user })),
  }));
  const skill = new Map(['T1', 'T2', ...PUPILS].map((ref) => [ref, 0.2 + 0.6 * rng.next()]));
  const answers: ImportAnswer[] = [];
  for (const session of sessions) {
    const start = Date.parse(`${session.startDate.replace(' ', 'T')}Z`);
    for (const { user } of session.attendees ?? []) {
      for (const ref of played) {
        if (!rng.chance(0.55)) continue;
        const questions = (quizzes.find((quiz) => quiz.ref === ref) as ImportQuiz).questions ?? [];
        const open = questions.map((_q, position) => position).filter((p) => ref !== 'k2' || p > 0);
        for (const position of rng.shuffle(open).slice(0, rng.int(1, open.length))) {
          answers.push({
            session: session.ref,
            user,
            quiz: ref,
            question: position,
            answer: answerTo(
              rng,
              questions[position] as ImportQuestion,
              rng.chance(skill.get(user) as number),
            ),
            answeredAt: new Date(start + (answers.length % 3600) * 1000)
              .toISOString()
              .slice(0, 19)
              .replace('T', ' '),
          });
        }
      }
    }
  }
  return {
    users: ['T1', 'T2', ...PUPILS].map((ref) => ({
      ref,
      email: `${ref.toLowerCase()}.${seed}@statistics.example`,
      firstName: ref,
      lastName: `Stats ${seed}`,
    })),
    groups: [
      {
        ref: 'class',
        name: `Stats ${seed}`,
        owner: 'T1',
        members: ['T1', 'T2', ...PUPILS.slice(0, 10)],
      },
    ],
    quizzes,
    sessions,
    answers,
  };
}

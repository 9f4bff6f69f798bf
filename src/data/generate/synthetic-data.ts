import type {
  ImportAnswer,
  ImportFlag,
  ImportGroup,
  ImportSession,
  ImportSource,
  ImportUser,
  Records,
} from '../import/import-document';
import {
  attendeesBySession,
  normals,
  planAttempts,
  planSessions,
  type Attempts,
  type SessionPlan,
} from './class.planner';
import {
  DAY,
  dateText,
  pupilRef,
  quizRef,
  sessionRef,
  userRef,
  type World,
} from './generation-world';
import {
  answerValue,
  makeQuiz,
  type GeneratedQuestion,
  type GeneratedQuiz,
} from './quiz.generator';
import { Random, Stream, type IntList } from './random-streams';
import { FIRST_NAMES, LAST_NAMES, WEEKDAYS } from './vocabulary.data';

export interface GenerateOptions {
  users: number;
  quizzes: number;
  /** Questions per quiz. */
  questions: number;
  sessions: number;
  /** Fraction (0..1) of (pupil, quiz) pairs that made an attempt. */
  participation: number;
  seed: number;
  /** Given to every teacher, so they can log in; pupils never get a password. */
  teacherPasswordHash?: string | null;
  /**
   * Every generated date falls before it. Without it the history starts on 2026-09-01 (fixed, for
   * tests and benchmarks); the CLI passes the current time or --now, so that answers sent after
   * a generation are newer than the generated ones.
   */
  now?: Date;
}

export interface GeneratedData {
  source: ImportSource;
  expected: {
    users: number;
    quizzes: number;
    questions: number;
    sessions: number;
    answers: number;
  };
}

const DEFAULT_START = Date.UTC(2026, 8, 1);
/** With `now`, the history starts this many days before it: the last session is 8 days before. */
const HISTORY_DAYS = 270;
const TEACHER_EVERY = 30;

/** Records made on demand from their index: re-iterable, and never all in memory at once. */
function lazyRecords<T>(count: number, make: (index: number) => T): Records<T> {
  return {
    length: count,
    *[Symbol.iterator]() {
      for (let index = 0; index < count; index += 1) yield make(index);
    },
  };
}

function checkOptions(options: GenerateOptions): void {
  const whole = ['users', 'quizzes', 'questions', 'sessions', 'seed'] as const;
  for (const name of whole) {
    const value = options[name];
    if (!Number.isSafeInteger(value) || value < 0)
      throw new RangeError(`${name} must be a whole number >= 0`);
  }
  if (!(options.participation >= 0 && options.participation <= 1)) {
    throw new RangeError('participation must be between 0 and 1');
  }
  if (options.users < 1 && (options.quizzes > 0 || options.sessions > 0)) {
    throw new RangeError('quizzes and sessions need at least one user (their teacher)');
  }
  if (options.sessions > 0 && options.quizzes < 1)
    throw new RangeError('sessions need at least one quiz to play');
}

function makeUsers(
  world: World,
  userCount: number,
  teacherPasswordHash: string | null | undefined,
): Records<ImportUser> {
  return lazyRecords<ImportUser>(userCount, (index) => {
    const random = new Random(world.seed, Stream.Users, index);
    const teacher = index < world.teacherCount;
    const user: ImportUser = {
      ref: userRef(index),
      email: `user${index + 1}@generated.test`,
      firstName: random.pick(FIRST_NAMES),
      lastName: random.pick(LAST_NAMES),
      publicProfile: teacher || random.chance(0.2),
      canCreatePrivateQuizzes: teacher,
    };
    if (random.chance(0.3)) user.pictureURL = `https://pictures.generated.test/u${index + 1}.png`;
    if (teacher && teacherPasswordHash) user.passwordHash = teacherPasswordHash;
    return user;
  });
}

/** One class per teacher: pupil p belongs to the class of teacher p mod teacherCount. */
function makeGroups(world: World): Records<ImportGroup> {
  const letters = ['A', 'B', 'C', 'D'];
  return lazyRecords<ImportGroup>(world.pupilCount > 0 ? world.teacherCount : 0, (t) => {
    const members: string[] = [];
    for (let p = t; p < world.pupilCount; p += world.teacherCount) members.push(pupilRef(world, p));
    const round = Math.floor(t / 16);
    return {
      ref: `g${t + 1}`,
      name: `Class ${3 + (t % 4)}${letters[Math.floor(t / 4) % 4]}${round > 0 ? ` (${round + 1})` : ''}`,
      owner: userRef(t),
      members,
    };
  });
}

function makeSessions(
  world: World,
  quizzes: GeneratedQuiz[],
  plan: SessionPlan,
  attendees: { start: Int32Array; pupils: IntList },
): Records<ImportSession> {
  return lazyRecords<ImportSession>(world.sessionCount, (s) => {
    const random = new Random(world.seed, Stream.Attendees, s);
    const played = plan.quizzes[s] as number[];
    const first = quizzes[played[0] as number] as GeneratedQuiz;
    const startMs = plan.startMs[s] as number;
    const list = [];
    for (let i = attendees.start[s] as number; i < (attendees.start[s + 1] as number); i += 1) {
      list.push({
        user: pupilRef(world, attendees.pupils.get(i)),
        raisedHand: random.chance(0.05),
      });
    }
    return {
      ref: sessionRef(s),
      // The teacher who wrote the first quiz of the session runs it.
      owner: first.doc.author,
      title: `${WEEKDAYS[new Date(startMs).getUTCDay()]}: ${first.doc.title.replace(/ #\d+$/, '')}`,
      startDate: dateText(startMs),
      quizzes: played.map(quizRef),
      attendees: list,
    };
  });
}

/** Every attempt answers all the questions of its quiz, from a random stream of its own. */
function makeAnswers(
  world: World,
  quizzes: GeneratedQuiz[],
  plan: SessionPlan,
  attempts: Attempts,
): Records<ImportAnswer> {
  const skills = normals(world.seed, Stream.Skills, world.pupilCount);
  const difficulties = normals(world.seed, Stream.Difficulties, world.quizCount * world.perQuiz);
  const { perQuiz } = world;
  return {
    length: attempts.count * perQuiz,
    *[Symbol.iterator]() {
      for (let a = 0; a < attempts.count; a += 1) {
        const random = new Random(world.seed, Stream.Answers, a);
        const pupil = attempts.pupil.get(a);
        const quizIndex = attempts.quiz.get(a);
        const session = attempts.session.get(a);
        const quiz = quizzes[quizIndex] as GeneratedQuiz;
        const skill = skills[pupil] as number;
        // Pupils start within 20 minutes of the session start, then answer every 10 to 90 seconds.
        let time = (plan.startMs[session] as number) + random.int(0, 20 * 60) * 1000;
        for (let position = 0; position < perQuiz; position += 1) {
          time += random.int(10, 90) * 1000;
          const difficulty = difficulties[quizIndex * perQuiz + position] as number;
          const good = random.next() < 1 / (1 + Math.exp(-1.7 * (skill - difficulty)));
          yield {
            session: sessionRef(session),
            user: pupilRef(world, pupil),
            quiz: quizRef(quizIndex),
            question: position,
            answer: answerValue(quiz.questions[position] as GeneratedQuestion, good, random),
            answeredAt: dateText(time),
          };
        }
      }
    },
  };
}

/** A few pupils mark quizzes they played as favorites (one flag per pair at most, as attempts are). */
function makeFlags(world: World, attempts: Attempts): Records<ImportFlag> {
  return {
    *[Symbol.iterator]() {
      const random = new Random(world.seed, Stream.Flags);
      for (let a = 0; a < attempts.count; a += 1) {
        if (!random.chance(0.05)) continue;
        yield {
          user: pupilRef(world, attempts.pupil.get(a)),
          quiz: quizRef(attempts.quiz.get(a)),
          favorite: true,
          imported: random.chance(0.3),
        };
      }
    },
  };
}

/**
 * Deterministic synthetic data (same options and seed, same data) in the import format, so it is
 * loaded by the same path as an imported file. About 1 in 30 users are teachers: they author the
 * quizzes, own the sessions and a group of pupils each. Pupils have a skill, questions a
 * difficulty, and P(good) = 1 / (1 + exp(-1.7 (skill - difficulty))). Each (pupil, quiz) pair makes
 * an attempt (all questions, in one session playing the quiz) with probability `participation`.
 * Users, groups, sessions, answers and flags are produced lazily; answers are never all in memory.
 */
export function generateData(options: GenerateOptions): GeneratedData {
  checkOptions(options);
  const teacherCount =
    options.users === 0 ? 0 : Math.max(1, Math.round(options.users / TEACHER_EVERY));
  const world: World = {
    seed: options.seed,
    // Midnight UTC, so sessions start at school hours whatever the time of `now`.
    start: options.now
      ? Math.floor(options.now.getTime() / DAY - HISTORY_DAYS) * DAY
      : DEFAULT_START,
    perQuiz: options.questions,
    teacherCount,
    pupilCount: options.users - teacherCount,
    quizCount: options.quizzes,
    sessionCount: options.sessions,
  };
  // Quizzes with their questions stay in memory: answers need every good answer.
  const quizzes = Array.from({ length: world.quizCount }, (_, index) => makeQuiz(world, index));
  const plan = planSessions(world);
  const attempts = planAttempts(world, plan, options.participation);
  const answers = makeAnswers(world, quizzes, plan, attempts);
  return {
    source: {
      users: makeUsers(world, options.users, options.teacherPasswordHash),
      quizzes: quizzes.map((quiz) => quiz.doc),
      groups: makeGroups(world),
      sessions: makeSessions(world, quizzes, plan, attendeesBySession(world, attempts)),
      answers,
      flags: makeFlags(world, attempts),
    },
    expected: {
      users: options.users,
      quizzes: world.quizCount,
      questions: world.quizCount * world.perQuiz,
      sessions: world.sessionCount,
      answers: answers.length ?? 0,
    },
  };
}

import {
  QUESTION_TYPES,
  type QuestionType,
  type ScorableQuestion,
} from '../../domain/questions/question-types';
import { scoreAnswer } from '../../domain/questions/scoring';
import type {
  ImportAnswer,
  ImportFlag,
  ImportGroup,
  ImportQuestion,
  ImportQuiz,
  ImportSession,
  ImportSource,
  ImportUser,
  Records,
} from '../import/import-document';

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
  /** Every generated date falls before it; without it, the history starts on 2026-09-01. */
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

const DAY = 86_400_000;
const DEFAULT_START = Date.UTC(2026, 8, 1);
/** Days from the start of the history to the first session, and the span of sessions. */
const SESSIONS_FROM_DAY = 90;
const SESSIONS_SPAN_DAYS = 170;
/** With `now`, the history starts this many days before it: the last session is 8 days before. */
const HISTORY_DAYS = 270;
const TEACHER_EVERY = 30;

/** Independent random streams: each part of the data draws from its own. */
enum Stream {
  Users = 1,
  Quizzes,
  Sessions,
  Skills,
  Difficulties,
  Attempts,
  Answers,
  Flags,
  Attendees,
}

/** sfc32 seeded through splitmix32 from (seed, stream, index): same inputs, same numbers. */
class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number, stream: number, index = 0) {
    let state = (seed ^ Math.imul(stream, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) | 0;
    const next = (): number => {
      state = (state + 0x9e3779b9) | 0;
      let t = state ^ (state >>> 16);
      t = Math.imul(t, 0x21f0aaad);
      t ^= t >>> 15;
      t = Math.imul(t, 0x735a2d97);
      return t ^ (t >>> 15);
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i += 1) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** Standard normal (Box-Muller). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i -= 1) {
      const j = Math.floor(this.next() * (i + 1));
      [items[i], items[j]] = [items[j] as T, items[i] as T];
    }
    return items;
  }

  /** `count` distinct items (count <= items.length). */
  sample<T>(items: readonly T[], count: number): T[] {
    return this.shuffle([...items]).slice(0, count);
  }
}

/** A growable list of 32-bit integers, so a million attempts cost 4 MB, not a million objects. */
class IntList {
  private data = new Int32Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length] = value;
    this.length += 1;
  }

  get(index: number): number {
    return this.data[index] as number;
  }
}

const FIRST_NAMES = [
  'Emma',
  'Louis',
  'Jade',
  'Gabriel',
  'Louise',
  'Raphaël',
  'Alice',
  'Arthur',
  'Chloé',
  'Jules',
  'Lina',
  'Adam',
  'Mia',
  'Hugo',
  'Rose',
  'Léo',
  'Anna',
  'Noah',
  'Inès',
  'Liam',
  'Sofia',
  'Omar',
  'Yuki',
  'Mateo',
  'Amara',
  'Ivan',
  'Priya',
  'Kofi',
  'Elena',
  'Lucas',
  'Aisha',
  'Tom',
  'Nora',
  'Sami',
  'Zoé',
  'Oscar',
  'Maya',
  'Ethan',
  'Leila',
  'Felix',
];
const LAST_NAMES = [
  'Martin',
  'Bernard',
  'Dubois',
  'Thomas',
  'Robert',
  'Richard',
  'Petit',
  'Durand',
  'Leroy',
  'Moreau',
  'Simon',
  'Laurent',
  'Lefebvre',
  'Michel',
  'Garcia',
  'Rossi',
  'Müller',
  'Schmidt',
  'Novak',
  'Kowalski',
  'Nguyen',
  'Tanaka',
  'Okafor',
  'Haddad',
  'Silva',
  'Costa',
  'Jensen',
  'Larsen',
  'Murphy',
  'Smith',
  'Brown',
  'Wilson',
  'Singh',
  'Patel',
  'Ivanova',
  'Horvat',
  'Papadopoulos',
  'Andersson',
  'Kaya',
  'Mensah',
];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** [country, capital, population in millions]. */
const COUNTRIES: readonly (readonly [string, string, number])[] = [
  ['France', 'Paris', 68],
  ['Germany', 'Berlin', 84],
  ['Italy', 'Rome', 59],
  ['Spain', 'Madrid', 48],
  ['Portugal', 'Lisbon', 10],
  ['Belgium', 'Brussels', 12],
  ['Netherlands', 'Amsterdam', 18],
  ['Switzerland', 'Bern', 9],
  ['Austria', 'Vienna', 9],
  ['Poland', 'Warsaw', 37],
  ['Sweden', 'Stockholm', 11],
  ['Norway', 'Oslo', 6],
  ['Denmark', 'Copenhagen', 6],
  ['Finland', 'Helsinki', 6],
  ['Ireland', 'Dublin', 5],
  ['Greece', 'Athens', 10],
  ['Czechia', 'Prague', 11],
  ['Hungary', 'Budapest', 10],
  ['Romania', 'Bucharest', 19],
  ['Japan', 'Tokyo', 124],
  ['Canada', 'Ottawa', 40],
  ['Brazil', 'Brasília', 216],
  ['Egypt', 'Cairo', 113],
  ['Kenya', 'Nairobi', 55],
  ['Australia', 'Canberra', 27],
  ['Mexico', 'Mexico City', 129],
  ['Argentina', 'Buenos Aires', 46],
  ['Peru', 'Lima', 34],
];
const OTHER_CITIES = [
  'Milan',
  'Barcelona',
  'Munich',
  'Lyon',
  'Porto',
  'Krakow',
  'Hamburg',
  'Geneva',
  'Antwerp',
  'Rotterdam',
  'Marseille',
  'Seville',
  'Naples',
  'Gothenburg',
  'Osaka',
  'Toronto',
  'Sydney',
  'São Paulo',
  'Alexandria',
];
const NUMBER_WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
];
const SURVEY_COMMENTS = [
  'More experiments please',
  'It was fun',
  'Too fast for me',
  'I liked the pictures',
  'Can we do this again?',
  'The last questions were hard',
  'Nothing to add',
];
const THEMES = {
  math: {
    titles: [
      'Mental arithmetic',
      'Multiplication tables',
      'Halves and quarters',
      'Number words',
      'Sums and multiples',
    ],
    tags: ['math', 'arithmetic', 'numbers', 'grade4', 'grade5', 'practice', 'homework'],
  },
  geography: {
    titles: [
      'European capitals',
      'World capitals',
      'Countries and people',
      'Capital cities',
      'Around the world',
    ],
    tags: ['geography', 'capitals', 'countries', 'europe', 'world', 'grade5', 'revision'],
  },
} as const;
type Theme = keyof typeof THEMES;

interface GeneratedQuestion {
  doc: ImportQuestion;
  /** What scoreAnswer needs; goodAnswer null in surveys. */
  scorable: ScorableQuestion;
  /** Plausible wrong texts for FreeAnswerText questions. */
  wrongTexts: readonly string[];
}

interface GeneratedQuiz {
  doc: ImportQuiz;
  questions: GeneratedQuestion[];
}

function dateText(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** Records made on demand from their index: re-iterable, and never all in memory at once. */
function lazyRecords<T>(count: number, make: (index: number) => T): Records<T> {
  return {
    length: count,
    *[Symbol.iterator]() {
      for (let index = 0; index < count; index += 1) yield make(index);
    },
  };
}

function question(
  type: QuestionType,
  title: string,
  goodAnswer: ImportQuestion['goodAnswer'],
  extra: Partial<ImportQuestion> = {},
  wrongTexts: readonly string[] = [],
): GeneratedQuestion {
  const doc: ImportQuestion = { title, type, ...extra, goodAnswer };
  return {
    doc,
    wrongTexts,
    scorable: {
      type,
      goodAnswer: goodAnswer === undefined ? null : (goodAnswer as ScorableQuestion['goodAnswer']),
      tolerance: extra.tolerance ?? null,
      caseSensitive: extra.caseSensitive ?? null,
      nbPropositions: extra.propositions?.length ?? null,
    },
  };
}

function mathQuestion(type: QuestionType, random: Random): GeneratedQuestion {
  switch (type) {
    case 'MultipleChoicesOneGoodAnswer': {
      const a = random.int(2, 12);
      const b = random.int(2, 12);
      const product = a * b;
      const options = new Set([product]);
      for (const candidate of random.shuffle([
        product + 1,
        product - 1,
        a * (b + 1),
        (a + 1) * b,
        product + 10,
        product - a,
      ])) {
        if (options.size < 4 && candidate > 0) options.add(candidate);
      }
      const propositions = random.shuffle([...options]);
      return question(type, `What is ${a} × ${b}?`, propositions.indexOf(product), {
        propositions: propositions.map(String),
      });
    }
    case 'MultipleChoicesSeveralGoodAnswers': {
      const divisor = random.int(2, 9);
      const numbers = new Set<number>();
      while (numbers.size < 5) numbers.add(random.int(10, 99));
      const propositions = [...numbers];
      if (!propositions.some((n) => n % divisor === 0)) {
        let multiple = divisor * random.int(2, 11);
        while (numbers.has(multiple)) multiple += divisor;
        propositions[random.int(0, 4)] = multiple;
      }
      const good = propositions.flatMap((n, index) => (n % divisor === 0 ? [index] : []));
      return question(type, `Which of these numbers are multiples of ${divisor}?`, good, {
        propositions: propositions.map(String),
      });
    }
    case 'TrueFalse': {
      const a = random.int(10, 99);
      const b = random.int(10, 99);
      const shown = random.chance(0.5) ? a + b : a + b + random.pick([-10, -2, -1, 1, 2, 10]);
      return question(type, `${a} + ${b} = ${shown}`, shown === a + b);
    }
    case 'FreeAnswerNumber': {
      const a = random.int(3, 99);
      const divisor = random.pick([2, 4]);
      return question(type, `What is ${a} ÷ ${divisor}?`, a / divisor, {
        tolerance: random.chance(0.7) ? 0 : 5,
      });
    }
    case 'FreeAnswerText': {
      const n = random.int(1, 20);
      return question(type, `Write ${n} in words`, NUMBER_WORDS[n], { tolerance: 20 }, [
        NUMBER_WORDS[n === 20 ? 12 : n + 1] as string,
        NUMBER_WORDS[n <= 1 ? 7 : n - 1] as string,
        'I do not know',
      ]);
    }
  }
}

function geographyQuestion(type: QuestionType, random: Random): GeneratedQuestion {
  const [country, capital, population] = random.pick(COUNTRIES);
  const otherCapitals = COUNTRIES.map((entry) => entry[1]).filter((city) => city !== capital);
  switch (type) {
    case 'MultipleChoicesOneGoodAnswer': {
      const propositions = random.shuffle([capital, ...random.sample(otherCapitals, 3)]);
      return question(type, `What is the capital of ${country}?`, propositions.indexOf(capital), {
        propositions,
      });
    }
    case 'MultipleChoicesSeveralGoodAnswers': {
      const capitals = random.sample(otherCapitals, random.int(1, 3));
      const propositions = random.shuffle([
        ...capitals,
        ...random.sample(OTHER_CITIES, 5 - capitals.length),
      ]);
      const good = propositions.flatMap((city, index) => (capitals.includes(city) ? [index] : []));
      return question(type, 'Which of these cities are capitals?', good, {
        propositions,
        media: random.chance(0.3)
          ? { type: 'image', url: `https://media.generated.test/maps/${random.int(1, 40)}.png` }
          : null,
      });
    }
    case 'TrueFalse': {
      const shown = random.chance(0.5) ? capital : random.pick(otherCapitals);
      return question(type, `${shown} is the capital of ${country}`, shown === capital);
    }
    case 'FreeAnswerNumber':
      return question(type, `Population of ${country}, in millions?`, population, {
        tolerance: random.pick([20, 30]),
      });
    case 'FreeAnswerText': {
      const caseSensitive = random.chance(0.15);
      return question(
        type,
        `Capital of ${country}?`,
        capital,
        caseSensitive ? { caseSensitive: true, tolerance: 0 } : { tolerance: 20 },
        random.sample(otherCapitals, 3),
      );
    }
  }
}

function surveyQuestion(type: QuestionType, round: number): GeneratedQuestion {
  const generated = surveyQuestionOfType(type);
  // Long surveys ask the five questions again, about the next part of the course.
  if (round > 0) generated.doc.title = `${generated.doc.title} (part ${round + 1})`;
  return generated;
}

function surveyQuestionOfType(type: QuestionType): GeneratedQuestion {
  switch (type) {
    case 'MultipleChoicesOneGoodAnswer':
      return question(type, 'How did you find this quiz?', undefined, {
        propositions: ['Too easy', 'Just right', 'Too hard'],
      });
    case 'MultipleChoicesSeveralGoodAnswers':
      return question(type, 'Which topics would you like to revise?', undefined, {
        propositions: ['Multiplication', 'Fractions', 'Capitals', 'Maps', 'Number words'],
      });
    case 'TrueFalse':
      return question(type, 'I would like more quizzes like this one', undefined);
    case 'FreeAnswerNumber':
      return question(type, 'How many minutes did you spend on homework yesterday?', undefined);
    case 'FreeAnswerText':
      return question(type, 'What did you learn today?', undefined);
  }
}

function isGood(generated: GeneratedQuestion, value: unknown): boolean {
  return scoreAnswer(generated.scorable, value) === true;
}

/** A value a pupil could give, scored good (true) or wrong (false) by the scoring module itself. */
function answerValue(generated: GeneratedQuestion, wantGood: boolean, random: Random): unknown {
  const { scorable } = generated;
  const good = scorable.goodAnswer;
  const count = scorable.nbPropositions ?? 0;
  if (good === null) return surveyAnswer(scorable.type, count, random);
  if (wantGood) {
    // Now and then the good answer as a pupil types it: other case, decimal comma, a typo.
    const variants: unknown[] = [];
    if (typeof good === 'string') variants.push(good.toLowerCase(), ` ${good}`, good.slice(0, -1));
    if (typeof good === 'number' && scorable.type === 'FreeAnswerNumber')
      variants.push(String(good).replace('.', ','));
    const variant = random.chance(0.3) && variants.length > 0 ? random.pick(variants) : undefined;
    return variant !== undefined && isGood(generated, variant) ? variant : good;
  }
  const candidates: unknown[] = [];
  switch (scorable.type) {
    case 'MultipleChoicesOneGoodAnswer':
      candidates.push((Number(good) + random.int(1, count - 1)) % count);
      break;
    case 'MultipleChoicesSeveralGoodAnswers': {
      // The good set with one proposition added or removed.
      const flip = random.int(0, count - 1);
      const set = new Set(good as number[]);
      if (set.has(flip)) set.delete(flip);
      else set.add(flip);
      candidates.push([...set].sort((x, y) => x - y));
      break;
    }
    case 'TrueFalse':
      candidates.push(!good);
      break;
    case 'FreeAnswerNumber': {
      const number = Number(good);
      candidates.push(
        Math.round(number * random.pick([1.5, 2, 0.5]) + random.int(1, 9)),
        number + 1000,
      );
      break;
    }
    case 'FreeAnswerText':
      candidates.push(random.pick(generated.wrongTexts), ...generated.wrongTexts, 'I do not know');
      break;
  }
  const wrong = candidates.find((candidate) => !isGood(generated, candidate));
  if (wrong === undefined) throw new Error(`no wrong answer found for "${generated.doc.title}"`);
  return wrong;
}

function surveyAnswer(type: QuestionType, count: number, random: Random): unknown {
  switch (type) {
    case 'MultipleChoicesOneGoodAnswer':
      return random.int(0, count - 1);
    case 'MultipleChoicesSeveralGoodAnswers':
      return Array.from({ length: count }, (_, index) => index).filter(() => random.chance(0.4));
    case 'TrueFalse':
      return random.chance(0.6);
    case 'FreeAnswerNumber':
      return random.int(0, 90);
    case 'FreeAnswerText':
      return random.pick(SURVEY_COMMENTS);
  }
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

/** Sizes and refs shared by every step of one generation. */
interface World {
  seed: number;
  /** Midnight UTC of the first day of the history. */
  start: number;
  perQuiz: number;
  teacherCount: number;
  pupilCount: number;
  quizCount: number;
  sessionCount: number;
}

const userRef = (index: number): string => `u${index + 1}`;
const quizRef = (index: number): string => `q${index + 1}`;
const sessionRef = (index: number): string => `S${index + 1}`;
/** Pupils come after the teachers among the users. */
const pupilRef = (world: World, pupil: number): string => userRef(world.teacherCount + pupil);

function makeQuiz(world: World, index: number): GeneratedQuiz {
  const random = new Random(world.seed, Stream.Quizzes, index);
  const theme: Theme = random.chance(0.5) ? 'math' : 'geography';
  // Quiz 8 of every 25 is a survey: a few, at fixed places whatever the seed.
  const survey = index % 25 === 7;
  const roll = random.next();
  const visibility = roll < 0.8 ? 'public' : roll < 0.92 ? 'private' : 'draft';
  const questions = Array.from({ length: world.perQuiz }, (_, position) => {
    const type = QUESTION_TYPES[(index + position) % QUESTION_TYPES.length] as QuestionType;
    const generated = survey
      ? surveyQuestion(type, Math.floor(position / QUESTION_TYPES.length))
      : theme === 'math'
        ? mathQuestion(type, random)
        : geographyQuestion(type, random);
    if (!generated.doc.media && random.chance(0.05)) {
      generated.doc.media = {
        type: 'image',
        url: `https://media.generated.test/q${index + 1}/${position + 1}.png`,
      };
    }
    return generated;
  });
  const created = world.start + random.int(0, 60 * 24 - 1) * 3_600_000;
  const changed = created + random.int(0, 20 * 24) * 3_600_000;
  const title = random.pick(THEMES[theme].titles);
  return {
    questions,
    doc: {
      ref: quizRef(index),
      author: userRef(random.int(0, world.teacherCount - 1)),
      title: `${survey ? 'Feedback: ' : ''}${title} #${index + 1}`,
      visibility,
      survey,
      tags: [
        theme,
        ...random.sample(
          THEMES[theme].tags.filter((tag) => tag !== theme),
          random.int(1, 3),
        ),
      ],
      defaultDuration: random.chance(0.8)
        ? `${Math.max(1, Math.round(world.perQuiz / 2))}:00`
        : null,
      creationDate: dateText(created),
      lastChangeDate: dateText(changed),
      questions: questions.map((generated) => generated.doc),
    },
  };
}

interface SessionPlan {
  /** Quizzes each session plays. */
  quizzes: number[][];
  /** Sessions each quiz is played in. */
  sessionsOf: number[][];
  startMs: Float64Array;
}

/** Every quiz is played in some session and every session plays some quiz. */
function planSessions(world: World): SessionPlan {
  const { quizCount, sessionCount } = world;
  const quizzes: number[][] = Array.from({ length: sessionCount }, () => []);
  const startMs = new Float64Array(sessionCount);
  for (let s = 0; s < sessionCount; s += 1) {
    const random = new Random(world.seed, Stream.Sessions, s);
    const played = quizzes[s] as number[];
    if (sessionCount >= quizCount) {
      played.push(s % quizCount);
      if (quizCount > 1 && random.chance(0.3))
        played.push((s + random.int(1, quizCount - 1)) % quizCount);
    } else {
      for (let q = s; q < quizCount; q += sessionCount) played.push(q);
    }
    let day = world.start + (SESSIONS_FROM_DAY + random.int(0, SESSIONS_SPAN_DAYS - 1)) * DAY;
    // Classes meet on weekdays: Saturday and Sunday sessions move to the next Monday.
    const weekday = new Date(day).getUTCDay();
    if (weekday === 6 || weekday === 0) day += (weekday === 6 ? 2 : 1) * DAY;
    startMs[s] = day + random.int(8, 15) * 3_600_000 + random.pick([0, 15, 30, 45]) * 60_000;
  }
  const sessionsOf: number[][] = Array.from({ length: quizCount }, () => []);
  quizzes.forEach((played, s) => played.forEach((q) => sessionsOf[q]?.push(s)));
  return { quizzes, sessionsOf, startMs };
}

/** Attempts in (pupil, quiz) order, in typed arrays: a million of them cost 12 MB, not a million objects. */
interface Attempts {
  count: number;
  pupil: IntList;
  quiz: IntList;
  session: IntList;
}

/** Each (pupil, quiz) pair attempts with probability p: pairs are visited by geometric skips. */
function planAttempts(world: World, sessions: SessionPlan, participation: number): Attempts {
  const attempts: Attempts = {
    count: 0,
    pupil: new IntList(),
    quiz: new IntList(),
    session: new IntList(),
  };
  const pairs = world.pupilCount * world.quizCount;
  if (world.sessionCount === 0 || pairs === 0 || participation <= 0) return attempts;
  const random = new Random(world.seed, Stream.Attempts);
  const logMiss = Math.log1p(-participation);
  for (let pair = -1; ;) {
    // Pairs skipped before the next attempt: Geometric(p), none at all when p is 1.
    pair += 1 + (participation >= 1 ? 0 : Math.floor(Math.log(1 - random.next()) / logMiss));
    if (pair >= pairs) break;
    const quiz = pair % world.quizCount;
    attempts.pupil.push(Math.floor(pair / world.quizCount));
    attempts.quiz.push(quiz);
    attempts.session.push(random.pick(sessions.sessionsOf[quiz] as number[]));
  }
  attempts.count = attempts.pupil.length;
  return attempts;
}

/** The distinct pupils with an attempt in each session, sorted: session s owns [start[s], start[s+1]). */
function attendeesBySession(
  world: World,
  attempts: Attempts,
): { start: Int32Array; pupils: IntList } {
  const { pupilCount, sessionCount } = world;
  const keys = new Float64Array(attempts.count);
  for (let a = 0; a < attempts.count; a += 1)
    keys[a] = attempts.session.get(a) * pupilCount + attempts.pupil.get(a);
  keys.sort();
  const start = new Int32Array(sessionCount + 1);
  const pupils = new IntList();
  for (let a = 0; a < keys.length; a += 1) {
    const key = keys[a] as number;
    if (a > 0 && key === keys[a - 1]) continue;
    const session = Math.floor(key / pupilCount);
    pupils.push(key - session * pupilCount);
    start[session + 1] = pupils.length;
  }
  // Sessions without attendees start where the previous one ends.
  for (let s = 1; s <= sessionCount; s += 1)
    start[s] = Math.max(start[s] as number, start[s - 1] as number);
  return { start, pupils };
}

function normals(seed: number, stream: Stream, count: number): Float64Array {
  const random = new Random(seed, stream);
  const values = new Float64Array(count);
  for (let i = 0; i < count; i += 1) values[i] = random.normal();
  return values;
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

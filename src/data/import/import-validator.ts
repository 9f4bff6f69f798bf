import type { QuizVisibility } from '../../db/entities/quiz.entity';
import type { GoodAnswer, ScorableQuestion } from '../../domain/questions/question-types';
import { checkAnswer } from '../../domain/questions/scoring';
import {
  scorable,
  validateQuizContent,
  type ValidQuestion,
} from '../../domain/quizzes/quiz-content.validator';
import {
  absent,
  describe,
  fail,
  fields,
  httpUrl,
  isFields,
  optionalArray,
  optionalBoolean,
  text,
  InvalidInputError,
} from '../../domain/validation/checks';
import { IMPORT_SECTIONS, type ImportSection, type ImportSource } from './import-document';

export type { ValidQuestion };

/** A refused data file: `path` names the bad value, e.g. `quizzes[2].questions[0].goodAnswer`. */
export { InvalidInputError as ImportError };

export interface ValidUser {
  ref: string;
  email: string;
  password: string | null;
  passwordHash: string | null;
  firstName: string;
  lastName: string;
  pictureUrl: string | null;
  publicProfile: boolean;
  canCreatePrivateQuizzes: boolean;
}

export interface ValidQuiz {
  ref: string;
  authorIndex: number;
  title: string;
  visibility: QuizVisibility;
  survey: boolean;
  tags: string[];
  defaultDuration: string | null;
  creationDate: Date | null;
  lastChangeDate: Date | null;
  questions: ValidQuestion[];
  /** Index of the quiz's first question among all questions of the file, in order. */
  firstQuestionIndex: number;
}

export interface ValidGroup {
  ref: string;
  name: string;
  ownerIndex: number;
  memberIndexes: number[];
}

export interface ValidSession {
  ref: string;
  ownerIndex: number;
  title: string;
  startDate: Date;
  quizIndexes: number[];
  attendees: { userIndex: number; raisedHand: boolean }[];
}

export interface ValidAnswer {
  sessionIndex: number;
  userIndex: number;
  quizIndex: number;
  /** Index of the question among all questions of the file (see ValidQuiz.firstQuestionIndex). */
  questionIndex: number;
  question: ScorableQuestion;
  /** Normalised by checkAnswer. */
  value: GoodAnswer;
  answeredAt: Date;
}

export interface ValidFlag {
  userIndex: number;
  quizIndex: number;
  favorite: boolean;
  imported: boolean;
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const EMAIL_PATTERN = /^[^\s@"\\<>(),;:]+@[^\s@"\\<>(),;:]+\.[^\s@"\\<>(),;:]+$/;
const ARGON2_HASH_PATTERN = /^\$argon2(?:id|i|d)\$\S+$/;
const MAX_PASSWORD_LENGTH = 1024;

/** Parses `YYYY-MM-DD hh:mm:ss` (UTC), refusing dates that do not exist such as 2026-02-30. */
export function parseImportDate(value: unknown, path: string): Date {
  if (typeof value !== 'string')
    fail(path, `expected a date "YYYY-MM-DD hh:mm:ss", got ${describe(value)}`);
  const match = DATE_PATTERN.exec(value);
  if (!match) fail(path, `expected a date "YYYY-MM-DD hh:mm:ss", got ${JSON.stringify(value)}`);
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  const real =
    year >= 1000 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60;
  return real ? date : fail(path, `${value} is not a real date and time`);
}

function optionalDate(value: unknown, path: string): Date | null {
  return absent(value) ? null : parseImportDate(value, path);
}

/**
 * Which questions each attempt (session, user, quiz) has answered: one bit per question in one
 * shared byte pool, so a million answers cost a few hundred kB instead of a Set of a million keys.
 */
class AnsweredQuestions {
  private readonly offsets = new Map<number, number>();
  private pool = new Uint8Array(1 << 12);
  private used = 0;

  /** Marks the question as answered; false when it already was. */
  mark(attempt: number, position: number, nbQuestions: number): boolean {
    let offset = this.offsets.get(attempt);
    if (offset === undefined) {
      offset = this.allocate(Math.ceil(nbQuestions / 8));
      this.offsets.set(attempt, offset);
    }
    const byte = offset + (position >> 3);
    const bit = 1 << (position & 7);
    if ((this.pool[byte] ?? 0) & bit) return false;
    this.pool[byte] = (this.pool[byte] ?? 0) | bit;
    return true;
  }

  private allocate(size: number): number {
    if (this.used + size > this.pool.length) {
      const grown = new Uint8Array(Math.max(this.pool.length * 2, this.used + size));
      grown.set(this.pool);
      this.pool = grown;
    }
    const offset = this.used;
    this.used += size;
    return offset;
  }
}

interface QuizEntry {
  ref: string;
  questions: ScorableQuestion[];
  firstQuestionIndex: number;
}

interface SessionEntry {
  ref: string;
  /** Attendee user index -> attendee number (unique over the file), for attempt keys. */
  attendees: Map<number, number>;
  quizzes: Set<number>;
}

/**
 * Validates the records of one data file, one at a time and in section order (users, quizzes,
 * groups, sessions, answers, flags), resolving refs to the 0-based index of the record they name.
 * It keeps only what later records are checked against, never the records themselves.
 */
export class ImportValidator {
  private readonly userRefs = new Map<string, number>();
  private readonly userRefList: string[] = [];
  private readonly emails = new Map<string, number>();
  private readonly quizRefs = new Map<string, number>();
  private readonly quizzes: QuizEntry[] = [];
  private readonly groupRefs = new Map<string, number>();
  private readonly sessionRefs = new Map<string, number>();
  private readonly sessions: SessionEntry[] = [];
  private readonly answered = new AnsweredQuestions();
  private readonly flagged = new Set<number>();
  private questionCount = 0;
  private attendeeCount = 0;
  private section = 0;

  /** Total number of questions validated so far, over all quizzes. */
  get questions(): number {
    return this.questionCount;
  }

  user(raw: unknown, index: number): ValidUser {
    this.enter('users');
    const path = `users[${index}]`;
    const record = fields(raw, path);
    const ref = this.newRef(this.userRefs, record.ref, `${path}.ref`, 'users', index);
    this.userRefList.push(ref);
    const email = this.email(record.email, `${path}.email`, index);
    const password = this.password(record.password, `${path}.password`);
    const passwordHash = this.passwordHash(record.passwordHash, `${path}.passwordHash`);
    if (password !== null && passwordHash !== null) {
      fail(`${path}.passwordHash`, 'give either password or passwordHash, not both');
    }
    return {
      ref,
      email,
      password,
      passwordHash,
      firstName: text(record.firstName, `${path}.firstName`, 1, 100),
      lastName: text(record.lastName, `${path}.lastName`, 1, 100),
      pictureUrl: absent(record.pictureURL)
        ? null
        : httpUrl(record.pictureURL, `${path}.pictureURL`),
      publicProfile: optionalBoolean(record.publicProfile, `${path}.publicProfile`, false),
      canCreatePrivateQuizzes: optionalBoolean(
        record.canCreatePrivateQuizzes,
        `${path}.canCreatePrivateQuizzes`,
        false,
      ),
    };
  }

  quiz(raw: unknown, index: number): ValidQuiz {
    this.enter('quizzes');
    const path = `quizzes[${index}]`;
    const record = fields(raw, path);
    const ref = this.newRef(this.quizRefs, record.ref, `${path}.ref`, 'quizzes', index);
    const authorIndex = this.resolve(this.userRefs, record.author, `${path}.author`, 'user');
    const content = validateQuizContent(record, path);
    const creationDate = optionalDate(record.creationDate, `${path}.creationDate`);
    const lastChangeDate = optionalDate(record.lastChangeDate, `${path}.lastChangeDate`);
    if (creationDate && lastChangeDate && lastChangeDate < creationDate) {
      fail(`${path}.lastChangeDate`, 'is before creationDate');
    }
    const firstQuestionIndex = this.questionCount;
    this.questionCount += content.questions.length;
    this.quizzes.push({ ref, firstQuestionIndex, questions: content.questions.map(scorable) });
    return { ref, authorIndex, ...content, creationDate, lastChangeDate, firstQuestionIndex };
  }

  group(raw: unknown, index: number): ValidGroup {
    this.enter('groups');
    const path = `groups[${index}]`;
    const record = fields(raw, path);
    const ref = this.newRef(this.groupRefs, record.ref, `${path}.ref`, 'groups', index);
    const name = text(record.name, `${path}.name`, 1, 100);
    const ownerIndex = this.resolve(this.userRefs, record.owner, `${path}.owner`, 'user');
    const memberIndexes = this.distinctRefs(
      record.members,
      `${path}.members`,
      this.userRefs,
      'user',
    );
    return { ref, name, ownerIndex, memberIndexes };
  }

  session(raw: unknown, index: number): ValidSession {
    this.enter('sessions');
    const path = `sessions[${index}]`;
    const record = fields(raw, path);
    const ref = this.newRef(this.sessionRefs, record.ref, `${path}.ref`, 'sessions', index);
    const ownerIndex = this.resolve(this.userRefs, record.owner, `${path}.owner`, 'user');
    const title = text(record.title, `${path}.title`, 1, 250);
    if (record.startDate === undefined) fail(`${path}.startDate`, 'is required');
    const startDate = parseImportDate(record.startDate, `${path}.startDate`);
    const quizIndexes = this.distinctRefs(record.quizzes, `${path}.quizzes`, this.quizRefs, 'quiz');
    const entry: SessionEntry = { ref, attendees: new Map(), quizzes: new Set(quizIndexes) };
    const attendees = optionalArray(record.attendees, `${path}.attendees`).map((item, position) => {
      const itemPath = `${path}.attendees[${position}]`;
      const attendee = fields(item, itemPath);
      const userIndex = this.resolve(this.userRefs, attendee.user, `${itemPath}.user`, 'user');
      if (entry.attendees.has(userIndex)) fail(`${itemPath}.user`, 'attends the session twice');
      entry.attendees.set(userIndex, this.attendeeCount);
      this.attendeeCount += 1;
      return {
        userIndex,
        raisedHand: optionalBoolean(attendee.raisedHand, `${itemPath}.raisedHand`, false),
      };
    });
    this.sessions.push(entry);
    return { ref, ownerIndex, title, startDate, quizIndexes, attendees };
  }

  answer(raw: unknown, index: number): ValidAnswer {
    this.enter('answers');
    const path = `answers[${index}]`;
    const record = fields(raw, path);
    const sessionIndex = this.resolve(
      this.sessionRefs,
      record.session,
      `${path}.session`,
      'session',
    );
    const userIndex = this.resolve(this.userRefs, record.user, `${path}.user`, 'user');
    const quizIndex = this.resolve(this.quizRefs, record.quiz, `${path}.quiz`, 'quiz');
    const session = this.sessions[sessionIndex] as SessionEntry;
    const quiz = this.quizzes[quizIndex] as QuizEntry;
    const attendee = session.attendees.get(userIndex);
    if (attendee === undefined) {
      fail(
        `${path}.user`,
        `user "${this.userRefList[userIndex]}" did not attend session "${session.ref}"`,
      );
    }
    if (!session.quizzes.has(quizIndex)) {
      fail(`${path}.quiz`, `quiz "${quiz.ref}" was not played in session "${session.ref}"`);
    }
    const position = record.question;
    if (
      typeof position !== 'number' ||
      !Number.isInteger(position) ||
      position < 0 ||
      position >= quiz.questions.length
    ) {
      fail(
        `${path}.question`,
        quiz.questions.length === 0
          ? `quiz "${quiz.ref}" has no questions`
          : `expected a question index between 0 and ${quiz.questions.length - 1}, got ${describe(position)}`,
      );
    }
    const question = quiz.questions[position] as ScorableQuestion;
    const check = checkAnswer(question, record.answer);
    if (!check.ok) fail(`${path}.answer`, check.reason);
    if (record.answeredAt === undefined) fail(`${path}.answeredAt`, 'is required');
    const answeredAt = parseImportDate(record.answeredAt, `${path}.answeredAt`);
    const attempt = attendee * this.quizzes.length + quizIndex;
    if (!this.answered.mark(attempt, position, quiz.questions.length)) {
      fail(
        `${path}.question`,
        `question ${position} of quiz "${quiz.ref}" was already answered by this user in this session`,
      );
    }
    return {
      sessionIndex,
      userIndex,
      quizIndex,
      questionIndex: quiz.firstQuestionIndex + position,
      question,
      value: check.value,
      answeredAt,
    };
  }

  flag(raw: unknown, index: number): ValidFlag {
    this.enter('flags');
    const path = `flags[${index}]`;
    const record = fields(raw, path);
    const userIndex = this.resolve(this.userRefs, record.user, `${path}.user`, 'user');
    const quizIndex = this.resolve(this.quizRefs, record.quiz, `${path}.quiz`, 'quiz');
    const pair = userIndex * this.quizzes.length + quizIndex;
    if (this.flagged.has(pair)) fail(`${path}.quiz`, 'this user already has flags for this quiz');
    this.flagged.add(pair);
    return {
      userIndex,
      quizIndex,
      favorite: optionalBoolean(record.favorite, `${path}.favorite`, false),
      imported: optionalBoolean(record.imported, `${path}.imported`, false),
    };
  }

  /** Sections are validated in order: later ones refer to earlier ones by index. */
  private enter(section: ImportSection): void {
    const order = IMPORT_SECTIONS.indexOf(section);
    if (order < this.section) {
      throw new Error(`${section} must be validated before ${IMPORT_SECTIONS[this.section]}`);
    }
    this.section = order;
  }

  private newRef(
    refs: Map<string, number>,
    value: unknown,
    path: string,
    section: string,
    index: number,
  ): string {
    if (typeof value !== 'string' || value === '')
      fail(path, `expected a non-empty text, got ${describe(value)}`);
    const previous = refs.get(value);
    if (previous !== undefined)
      fail(path, `duplicate ref "${value}" (also ${section}[${previous}])`);
    refs.set(value, index);
    return value;
  }

  private resolve(refs: Map<string, number>, value: unknown, path: string, kind: string): number {
    if (typeof value !== 'string') fail(path, `expected a ${kind} ref, got ${describe(value)}`);
    const index = refs.get(value);
    return index ?? fail(path, `unknown ${kind} ref "${value}"`);
  }

  private distinctRefs(
    value: unknown,
    path: string,
    refs: Map<string, number>,
    kind: string,
  ): number[] {
    const seen = new Set<number>();
    return optionalArray(value, path).map((item, position) => {
      const index = this.resolve(refs, item, `${path}[${position}]`, kind);
      if (seen.has(index))
        fail(`${path}[${position}]`, `${kind} "${String(item)}" is listed twice`);
      seen.add(index);
      return index;
    });
  }

  private email(value: unknown, path: string, index: number): string {
    if (typeof value !== 'string' || value.length > 254 || !EMAIL_PATTERN.test(value)) {
      fail(path, `expected an email address, got ${describe(value)}`);
    }
    // Emails are stored in lower case, as every other path stores them, so logins find them on every dialect.
    const key = value.toLowerCase();
    const previous = this.emails.get(key);
    if (previous !== undefined) fail(path, `duplicate email (also users[${previous}])`);
    this.emails.set(key, index);
    return key;
  }

  private password(value: unknown, path: string): string | null {
    if (absent(value)) return null;
    if (typeof value !== 'string' || value === '' || value.length > MAX_PASSWORD_LENGTH) {
      fail(path, `expected a non-empty text of at most ${MAX_PASSWORD_LENGTH} characters`);
    }
    return value;
  }

  private passwordHash(value: unknown, path: string): string | null {
    if (absent(value)) return null;
    return typeof value === 'string' && value.length <= 255 && ARGON2_HASH_PATTERN.test(value)
      ? value
      : fail(path, 'expected an argon2 hash ($argon2id$...)');
  }
}

function isRecordIterable(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function'
  );
}

/**
 * Checks the top level of a document or source: an object whose sections, when present, are
 * arrays (or iterables). The records themselves are checked by ImportValidator as they are read.
 */
export function asImportSource(input: unknown): ImportSource {
  if (!isFields(input)) fail('$', `expected an object at the top level, got ${describe(input)}`);
  for (const section of IMPORT_SECTIONS) {
    const value = input[section];
    if (!absent(value) && !isRecordIterable(value))
      fail(section, `expected an array, got ${describe(value)}`);
  }
  return input as ImportSource;
}

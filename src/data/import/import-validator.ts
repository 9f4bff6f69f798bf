import { answeredQuestion, scoredAnswer } from '../../domain/answers/answer.rules';
import { scorable, type ScorableQuestion } from '../../domain/questions/question-types';
import { validateQuizContent } from '../../domain/quizzes/quiz-content.validator';
import { quizDates } from '../../domain/quizzes/quiz.rules';
import {
  checkAttends,
  checkNewAttendee,
  checkPlays,
  sessionTitle,
} from '../../domain/sessions/session.rules';
import {
  absent,
  dateTime,
  describe,
  fail,
  fields,
  httpUrl,
  isFields,
  optionalArray,
  optionalBoolean,
  optionalDateTime,
  text,
  InvalidInputError,
} from '../../domain/validation/checks';
import { AnsweredQuestions } from './answered-questions';
import { IMPORT_SECTIONS, type ImportSection, type ImportSource } from './import-document';
import type {
  ValidAnswer,
  ValidFlag,
  ValidGroup,
  ValidQuiz,
  ValidSession,
  ValidUser,
} from './import-records';
import { ImportErrors, ImportProblems } from './import-problems';
import { RefTable, RefusedRefError } from './ref-table';

/** A refused data file: `path` names the bad value, e.g. `quizzes[2].questions[0].goodAnswer`. */
export { InvalidInputError as ImportError };

const EMAIL_PATTERN = /^[^\s@"\\<>(),;:]+@[^\s@"\\<>(),;:]+\.[^\s@"\\<>(),;:]+$/;
const ARGON2_HASH_PATTERN = /^\$argon2(?:id|i|d)\$\S+$/;
const MAX_PASSWORD_LENGTH = 1024;

interface QuizEntry {
  questions: ScorableQuestion[];
  firstQuestionIndex: number;
}

interface SessionEntry {
  /** Attendee user index -> attendee number (unique over the file), for attempt keys. */
  attendees: Map<number, number>;
  quizzes: Set<number>;
}

/**
 * Validates the records of one data file, one at a time and in section order (users, quizzes,
 * groups, sessions, answers, flags). A refused record gives null and its first error goes to
 * `problems`, so that one pass reports the errors of every record; answers and flags of a refused
 * quiz or session are skipped without a second report. This adapter reads the file's shape and resolves refs to the
 * 0-based index of the record they name; the rules of quizzes, sessions and answers, and the
 * scoring, are the domain's, as for every other write path. It keeps only what later records are
 * checked against, never the records themselves.
 */
export class ImportValidator {
  private readonly userRefs = new RefTable('users', 'user');
  private readonly emails = new Map<string, number>();
  private readonly quizRefs = new RefTable('quizzes', 'quiz');
  private readonly quizzes: QuizEntry[] = [];
  private readonly groupRefs = new RefTable('groups', 'group');
  private readonly sessionRefs = new RefTable('sessions', 'session');
  private readonly sessions: SessionEntry[] = [];
  private readonly answered = new AnsweredQuestions();
  private readonly flagged = new Set<number>();
  private questionCount = 0;
  private attendeeCount = 0;
  private section = 0;
  /** The errors found so far. */
  readonly problems = new ImportProblems();

  /** `now`: the import time, which quizzes without dates take. */
  constructor(private readonly now: Date) {}

  user(raw: unknown, index: number): ValidUser | null {
    return this.record(() => this.checkUser(raw, index));
  }

  quiz(raw: unknown, index: number): ValidQuiz | null {
    return this.record(() => this.checkQuiz(raw, index), this.quizRefs, index);
  }

  group(raw: unknown, index: number): ValidGroup | null {
    return this.record(() => this.checkGroup(raw, index));
  }

  session(raw: unknown, index: number): ValidSession | null {
    return this.record(() => this.checkSession(raw, index), this.sessionRefs, index);
  }

  answer(raw: unknown, index: number): ValidAnswer | null {
    return this.record(() => this.checkAnswer(raw, index));
  }

  flag(raw: unknown, index: number): ValidFlag | null {
    return this.record(() => this.checkFlag(raw, index));
  }

  /**
   * Runs one record's checks; a refusal is recorded (once) and gives null. A refused user still
   * resolves (what refers to it is checked in full); a refused quiz or session (`refs`) does not:
   * what is checked against it (questions, attendees) is unknown.
   */
  private record<T>(check: () => T, refs?: RefTable, index = 0): T | null {
    try {
      return check();
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      refs?.refuse(index);
      if (!(error instanceof RefusedRefError)) this.problems.add(error);
      return null;
    }
  }

  /** Total number of questions validated so far, over all quizzes. */
  get questions(): number {
    return this.questionCount;
  }

  private checkUser(raw: unknown, index: number): ValidUser {
    this.enter('users');
    const path = `users[${index}]`;
    const record = fields(raw, path);
    const ref = this.userRefs.add(record.ref, `${path}.ref`, index);
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

  private checkQuiz(raw: unknown, index: number): ValidQuiz {
    this.enter('quizzes');
    const path = `quizzes[${index}]`;
    const record = fields(raw, path);
    const ref = this.quizRefs.add(record.ref, `${path}.ref`, index);
    const authorIndex = this.userRefs.resolve(record.author, `${path}.author`);
    const content = validateQuizContent(record, path);
    const dates = quizDates(
      optionalDateTime(record.creationDate, `${path}.creationDate`),
      optionalDateTime(record.lastChangeDate, `${path}.lastChangeDate`),
      this.now,
      path,
    );
    const firstQuestionIndex = this.questionCount;
    this.questionCount += content.questions.length;
    this.quizzes[index] = { firstQuestionIndex, questions: content.questions.map(scorable) };
    return { ref, authorIndex, ...content, ...dates, firstQuestionIndex };
  }

  private checkGroup(raw: unknown, index: number): ValidGroup {
    this.enter('groups');
    const path = `groups[${index}]`;
    const record = fields(raw, path);
    const ref = this.groupRefs.add(record.ref, `${path}.ref`, index);
    const name = text(record.name, `${path}.name`, 1, 100);
    const ownerIndex = this.userRefs.resolve(record.owner, `${path}.owner`);
    const memberIndexes = this.userRefs.distinct(record.members, `${path}.members`);
    return { ref, name, ownerIndex, memberIndexes };
  }

  private checkSession(raw: unknown, index: number): ValidSession {
    this.enter('sessions');
    const path = `sessions[${index}]`;
    const record = fields(raw, path);
    const ref = this.sessionRefs.add(record.ref, `${path}.ref`, index);
    const ownerIndex = this.userRefs.resolve(record.owner, `${path}.owner`);
    const title = sessionTitle(record.title, `${path}.title`);
    // A file says when its sessions happened: unlike addSession, no default to the import time.
    if (record.startDate === undefined) fail(`${path}.startDate`, 'is required');
    const startDate = dateTime(record.startDate, `${path}.startDate`);
    const quizIndexes = this.quizRefs.distinct(record.quizzes, `${path}.quizzes`);
    const entry: SessionEntry = { attendees: new Map(), quizzes: new Set(quizIndexes) };
    const attendees = optionalArray(record.attendees, `${path}.attendees`).map((item, position) => {
      const itemPath = `${path}.attendees[${position}]`;
      const attendee = fields(item, itemPath);
      const userIndex = this.userRefs.resolve(attendee.user, `${itemPath}.user`);
      checkNewAttendee(entry.attendees.has(userIndex), `${itemPath}.user`);
      entry.attendees.set(userIndex, this.attendeeCount);
      this.attendeeCount += 1;
      return {
        userIndex,
        raisedHand: optionalBoolean(attendee.raisedHand, `${itemPath}.raisedHand`, false),
      };
    });
    this.sessions[index] = entry;
    return { ref, ownerIndex, title, startDate, quizIndexes, attendees };
  }

  private checkAnswer(raw: unknown, index: number): ValidAnswer {
    this.enter('answers');
    const path = `answers[${index}]`;
    const record = fields(raw, path);
    const sessionIndex = this.sessionRefs.resolve(record.session, `${path}.session`);
    const userIndex = this.userRefs.resolve(record.user, `${path}.user`);
    const quizIndex = this.quizRefs.resolve(record.quiz, `${path}.quiz`);
    const session = this.sessions[sessionIndex] as SessionEntry;
    const quiz = this.quizzes[quizIndex] as QuizEntry;
    const attendee = session.attendees.get(userIndex);
    const sessionName = this.sessionRefs.name(sessionIndex);
    const quizName = this.quizRefs.name(quizIndex);
    // Unlike addAnswers, a file cannot make a user an attendee by answering: it lists attendees.
    checkAttends(
      attendee !== undefined,
      `${path}.user`,
      this.userRefs.name(userIndex),
      sessionName,
    );
    checkPlays(session.quizzes.has(quizIndex), `${path}.quiz`, quizName, sessionName);
    const { position, question } = answeredQuestion(
      quiz.questions,
      record.question,
      `${path}.question`,
      quizName,
    );
    const { value, good } = scoredAnswer(question, record.answer, `${path}.answer`);
    if (record.answeredAt === undefined) fail(`${path}.answeredAt`, 'is required');
    const answeredAt = dateTime(record.answeredAt, `${path}.answeredAt`);
    // A file holds each answer once; addAnswers instead keeps the latest of repeated answers.
    const attempt = (attendee as number) * this.quizzes.length + quizIndex;
    if (!this.answered.mark(attempt, position, quiz.questions.length)) {
      fail(
        `${path}.question`,
        `question ${position} of ${quizName} was already answered by this user in this session`,
      );
    }
    return {
      sessionIndex,
      userIndex,
      quizIndex,
      questionIndex: quiz.firstQuestionIndex + position,
      value,
      good,
      answeredAt,
    };
  }

  private checkFlag(raw: unknown, index: number): ValidFlag {
    this.enter('flags');
    const path = `flags[${index}]`;
    const record = fields(raw, path);
    const userIndex = this.userRefs.resolve(record.user, `${path}.user`);
    const quizIndex = this.quizRefs.resolve(record.quiz, `${path}.quiz`);
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

/** Levenshtein distance, for the near section name of a misspelled key. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j] + 1, current[j - 1] + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * Checks the top level of a document or source: an object whose sections, when present, are
 * arrays (or iterables). The records themselves are checked by ImportValidator as they are read.
 */
export function asImportSource(input: unknown): ImportSource {
  if (!isFields(input)) {
    const reason = `expected an object at the top level, got ${describe(input)}`;
    throw new ImportErrors([new InvalidInputError('$', reason)], 0);
  }
  const problems = new ImportProblems();
  // A misspelled section ("quizes") would else be skipped and the import reported as done.
  for (const key of Object.keys(input)) {
    if ((IMPORT_SECTIONS as readonly string[]).includes(key)) continue;
    const near = IMPORT_SECTIONS.find((section) => editDistance(key.toLowerCase(), section) <= 2);
    const hint = near
      ? `; did you mean "${near}"?`
      : `; the sections are ${IMPORT_SECTIONS.join(', ')}`;
    problems.add(new InvalidInputError(key, `unknown top-level key "${key}"${hint}`));
  }
  for (const section of IMPORT_SECTIONS) {
    const value = input[section];
    if (!absent(value) && !isRecordIterable(value))
      problems.add(new InvalidInputError(section, `expected an array, got ${describe(value)}`));
  }
  problems.throwIfAny();
  return input as ImportSource;
}

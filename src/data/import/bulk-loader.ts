import type { DataSource, QueryRunner } from 'typeorm';
import { scoreAnswer } from '../../domain/questions/scoring';
import { hashPassword } from '../../security/password';
import type { IdMap, ImportSource } from './import-document';
import { ImportError, ImportValidator, asImportSource, type ValidUser } from './import-validator';

export interface LoadOptions {
  /** Called after each batch and at the end of each phase; `total` when the section's size is known. */
  onProgress?: (phase: string, done: number, total?: number) => void;
  /** The import time: default creation dates and created_at columns. */
  now?: Date;
}

/** Parameters per statement, under SQLite's limit of 32766 bound variables. */
const MAX_PARAMETERS = 30_000;
/** Rough bytes per statement, well under MySQL/MariaDB's default max_allowed_packet (16 MB). */
const MAX_STATEMENT_BYTES = 4 * 1024 * 1024;
/** argon2id takes 64 MiB and tens of milliseconds per hash: a few at once, not hundreds. */
const HASH_CONCURRENCY = 4;
/** Records between two progress reports for the phases that insert one row at a time. */
const PROGRESS_EVERY = 100;

type SqlValue = string | number | Date | null;

function insertIdOf(result: unknown): number {
  // better-sqlite3 through TypeORM returns lastInsertRowid; mysql2 returns a ResultSetHeader.
  if (typeof result === 'number' || typeof result === 'bigint') return Number(result);
  if (typeof result === 'object' && result !== null && 'insertId' in result) {
    return Number((result as { insertId: unknown }).insertId);
  }
  throw new Error('the database returned no id for an INSERT');
}

function rowsOf(result: unknown): Record<string, unknown>[] {
  return Array.isArray(result) ? (result as Record<string, unknown>[]) : [];
}

function sizeOf(records: { readonly length?: number }): number | undefined {
  return typeof records.length === 'number' ? records.length : undefined;
}

async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await fn(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** SQL and parameter conventions shared by MySQL/MariaDB and SQLite. */
class Sql {
  private readonly datesAsText: boolean;

  constructor(private readonly runner: QueryRunner) {
    const type = runner.connection.driver.options.type;
    // mysql2 formats Date parameters (in UTC, timezone 'Z'); better-sqlite3 cannot bind them.
    this.datesAsText = type !== 'mysql' && type !== 'mariadb';
  }

  name(identifier: string): string {
    return this.runner.connection.driver.escape(identifier);
  }

  /** On SQLite, the text TypeORM itself writes for a datetime: `YYYY-MM-DD HH:MM:SS.SSS` UTC. */
  date(value: Date): Date | string {
    return this.datesAsText ? value.toISOString().replace('T', ' ').slice(0, 23) : value;
  }

  bool(value: boolean | null): number | null {
    return value === null ? null : value ? 1 : 0;
  }

  insertSql(table: string, columns: readonly string[], rows: number): string {
    const row = `(${columns.map(() => '?').join(',')})`;
    const values = new Array<string>(rows).fill(row).join(',');
    return `INSERT INTO ${this.name(table)} (${columns.map((c) => this.name(c)).join(',')}) VALUES ${values}`;
  }

  query(sql: string, parameters: readonly unknown[] = []): Promise<unknown> {
    return this.runner.query(sql, parameters as unknown[]);
  }

  async select(sql: string, parameters: readonly unknown[]): Promise<Record<string, unknown>[]> {
    return rowsOf(await this.query(sql, parameters));
  }

  async insertOne(
    table: string,
    columns: readonly string[],
    values: readonly SqlValue[],
  ): Promise<number> {
    return insertIdOf(await this.query(this.insertSql(table, columns, 1), values));
  }

  placeholders(count: number): string {
    return new Array<string>(count).fill('?').join(',');
  }
}

/** Buffers rows of one table and writes them with multi-row INSERTs. */
class RowWriter {
  private readonly maxRows: number;
  private readonly fullSql: string;
  private parameters: SqlValue[] = [];
  private rows = 0;
  private bytes = 0;
  private written = 0;

  constructor(
    private readonly sql: Sql,
    private readonly table: string,
    private readonly columns: readonly string[],
    private readonly onFlush?: (written: number) => void,
  ) {
    this.maxRows = Math.floor(MAX_PARAMETERS / columns.length);
    // Full batches reuse one statement text (better-sqlite3 caches prepared statements by text).
    this.fullSql = sql.insertSql(table, columns, this.maxRows);
  }

  async add(values: readonly SqlValue[]): Promise<void> {
    for (const value of values) {
      this.parameters.push(value);
      // Up to 3 bytes per UTF-16 unit once encoded and escaped, about 8 for anything else.
      this.bytes += typeof value === 'string' ? value.length * 3 : 8;
    }
    this.rows += 1;
    if (this.rows === this.maxRows || this.bytes >= MAX_STATEMENT_BYTES) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.rows === 0) return;
    const sql =
      this.rows === this.maxRows
        ? this.fullSql
        : this.sql.insertSql(this.table, this.columns, this.rows);
    await this.sql.query(sql, this.parameters);
    this.written += this.rows;
    this.parameters = [];
    this.rows = 0;
    this.bytes = 0;
    this.onFlush?.(this.written);
  }
}

const USER_COLUMNS = [
  'email',
  'password_hash',
  'first_name',
  'last_name',
  'picture_url',
  'public_profile',
  'can_create_private_quizzes',
  'created_at',
] as const;
const QUIZ_COLUMNS = [
  'author_id',
  'title',
  'visibility',
  'survey',
  'default_duration',
  'nb_questions',
  'creation_date',
  'last_change_date',
] as const;
const QUESTION_COLUMNS = [
  'quiz_id',
  'position',
  'type',
  'title',
  'media_type',
  'media_url',
  'propositions',
  'good_answer',
  'tolerance',
  'case_sensitive',
] as const;
const ANSWER_COLUMNS = [
  'session_id',
  'user_id',
  'quiz_id',
  'question_id',
  'value',
  'good',
  'answered_at',
] as const;
/** Users per INSERT: long picture URLs and hashes make a user row up to a few kB. */
const USER_BATCH = 1000;
const QUIZ_READ_BACK_BATCH = 1000;

/** One load: validates each record, then writes it; ids of earlier sections are kept by record index. */
class BulkLoad {
  private readonly sql: Sql;
  private readonly validator = new ImportValidator();
  private readonly now: Date;
  private readonly userIds: number[] = [];
  private readonly quizIds: number[] = [];
  private readonly sessionIds: number[] = [];
  private questionIds = new Int32Array(0);
  private reported = { phase: '', done: -1 };
  private readonly ids: { [K in keyof IdMap]: [string, string][] } = {
    users: [],
    quizzes: [],
    sessions: [],
    groups: [],
  };

  constructor(
    runner: QueryRunner,
    private readonly options: LoadOptions,
  ) {
    this.sql = new Sql(runner);
    // Whole seconds: MySQL/MariaDB datetime columns keep no fraction, SQLite would.
    this.now = new Date(Math.floor((options.now ?? new Date()).getTime() / 1000) * 1000);
  }

  async run(source: ImportSource): Promise<IdMap> {
    await this.users(source.users ?? []);
    await this.quizzes(source.quizzes ?? []);
    await this.groups(source.groups ?? []);
    await this.sessions(source.sessions ?? []);
    await this.answers(source.answers ?? []);
    await this.flags(source.flags ?? []);
    return {
      users: Object.fromEntries(this.ids.users),
      quizzes: Object.fromEntries(this.ids.quizzes),
      sessions: Object.fromEntries(this.ids.sessions),
      groups: Object.fromEntries(this.ids.groups),
    };
  }

  private progress(phase: string, done: number, total: number | undefined): void {
    // The last batch of a phase and the end of the phase report the same count: report it once.
    if (phase === this.reported.phase && done === this.reported.done) return;
    this.reported = { phase, done };
    this.options.onProgress?.(phase, done, total);
  }

  private async users(records: Iterable<unknown> & { readonly length?: number }): Promise<void> {
    const total = sizeOf(records);
    let batch: ValidUser[] = [];
    let index = 0;
    for (const record of records) {
      batch.push(this.validator.user(record, index));
      index += 1;
      if (batch.length === USER_BATCH) {
        await this.writeUsers(batch, index - batch.length);
        this.progress('users', index, total);
        batch = [];
      }
    }
    if (batch.length > 0) await this.writeUsers(batch, index - batch.length);
    this.progress('users', index, total);
  }

  private async writeUsers(users: ValidUser[], firstIndex: number): Promise<void> {
    const emails = users.map((user) => user.email);
    const emailIn = `SELECT ${this.sql.name('id')}, ${this.sql.name('email')} FROM ${this.sql.name('users')} WHERE ${this.sql.name('email')} IN (${this.sql.placeholders(emails.length)})`;
    const taken = await this.sql.select(emailIn, emails);
    if (taken.length > 0) {
      const existing = String(taken[0]?.email).toLowerCase();
      const position = Math.max(
        0,
        emails.findIndex((email) => email.toLowerCase() === existing),
      );
      throw new ImportError(
        `users[${firstIndex + position}].email`,
        'an account with this email already exists',
      );
    }
    const hashes = await mapWithConcurrency(users, HASH_CONCURRENCY, (user) =>
      user.password === null ? Promise.resolve(user.passwordHash) : hashPassword(user.password),
    );
    const parameters = users.flatMap((user, position) => [
      user.email,
      hashes[position] ?? null,
      user.firstName,
      user.lastName,
      user.pictureUrl,
      this.sql.bool(user.publicProfile),
      this.sql.bool(user.canCreatePrivateQuizzes),
      this.sql.date(this.now),
    ]);
    await this.sql.query(this.sql.insertSql('users', USER_COLUMNS, users.length), parameters);
    // Read the ids back by email (unique): a multi-row INSERT does not promise consecutive ids.
    const idsByEmail = new Map<string, number>();
    for (const row of await this.sql.select(emailIn, emails))
      idsByEmail.set(String(row.email), Number(row.id));
    users.forEach((user, position) => {
      const id = idsByEmail.get(user.email);
      if (id === undefined) throw new Error(`user ${user.email} was not found after its INSERT`);
      this.userIds[firstIndex + position] = id;
      this.ids.users.push([user.ref, String(id)]);
    });
  }

  private async quizzes(records: Iterable<unknown> & { readonly length?: number }): Promise<void> {
    const total = sizeOf(records);
    const tags = new RowWriter(this.sql, 'quiz_tags', ['quiz_id', 'position', 'tag']);
    const questions = new RowWriter(this.sql, 'questions', QUESTION_COLUMNS);
    const firstQuestionIndexes: number[] = [];
    let index = 0;
    for (const record of records) {
      const quiz = this.validator.quiz(record, index);
      const creationDate = quiz.creationDate ?? this.now;
      // Defaults to the import time, but never before the quiz was created.
      const lastChangeDate =
        quiz.lastChangeDate ?? (creationDate > this.now ? creationDate : this.now);
      const id = await this.sql.insertOne('quizzes', QUIZ_COLUMNS, [
        this.userIds[quiz.authorIndex] as number,
        quiz.title,
        quiz.visibility,
        this.sql.bool(quiz.survey),
        quiz.defaultDuration,
        quiz.questions.length,
        this.sql.date(creationDate),
        this.sql.date(lastChangeDate),
      ]);
      this.quizIds.push(id);
      this.ids.quizzes.push([quiz.ref, String(id)]);
      firstQuestionIndexes.push(quiz.firstQuestionIndex);
      for (const [position, tag] of quiz.tags.entries()) await tags.add([id, position, tag]);
      for (const question of quiz.questions) {
        await questions.add([
          id,
          question.position,
          question.type,
          question.title,
          question.mediaType,
          question.mediaUrl,
          question.propositions === null ? null : JSON.stringify(question.propositions),
          question.goodAnswer === null ? null : JSON.stringify(question.goodAnswer),
          question.tolerance,
          this.sql.bool(question.caseSensitive),
        ]);
      }
      index += 1;
      if (index % PROGRESS_EVERY === 0) this.progress('quizzes', index, total);
    }
    await tags.flush();
    await questions.flush();
    await this.readQuestionIds(firstQuestionIndexes);
    this.progress('quizzes', index, total);
  }

  /** Question ids by (quiz_id, position), unique, into questionIds by file-wide question index. */
  private async readQuestionIds(firstQuestionIndexes: number[]): Promise<void> {
    this.questionIds = new Int32Array(this.validator.questions);
    const quizIndexById = new Map(this.quizIds.map((id, index) => [id, index]));
    for (let start = 0; start < this.quizIds.length; start += QUIZ_READ_BACK_BATCH) {
      const chunk = this.quizIds.slice(start, start + QUIZ_READ_BACK_BATCH);
      const rows = await this.sql.select(
        `SELECT ${this.sql.name('id')}, ${this.sql.name('quiz_id')}, ${this.sql.name('position')} FROM ${this.sql.name('questions')} WHERE ${this.sql.name('quiz_id')} IN (${this.sql.placeholders(chunk.length)})`,
        chunk,
      );
      for (const row of rows) {
        const quizIndex = quizIndexById.get(Number(row.quiz_id)) as number;
        this.questionIds[(firstQuestionIndexes[quizIndex] as number) + Number(row.position)] =
          Number(row.id);
      }
    }
  }

  private async groups(records: Iterable<unknown> & { readonly length?: number }): Promise<void> {
    const total = sizeOf(records);
    const members = new RowWriter(this.sql, 'user_group_members', ['group_id', 'user_id']);
    let index = 0;
    for (const record of records) {
      const group = this.validator.group(record, index);
      const id = await this.sql.insertOne(
        'user_groups',
        ['name', 'owner_id', 'created_at'],
        [group.name, this.userIds[group.ownerIndex] as number, this.sql.date(this.now)],
      );
      this.ids.groups.push([group.ref, String(id)]);
      for (const member of group.memberIndexes)
        await members.add([id, this.userIds[member] as number]);
      index += 1;
      if (index % PROGRESS_EVERY === 0) this.progress('groups', index, total);
    }
    await members.flush();
    this.progress('groups', index, total);
  }

  private async sessions(records: Iterable<unknown> & { readonly length?: number }): Promise<void> {
    const total = sizeOf(records);
    const attendees = new RowWriter(this.sql, 'session_attendees', [
      'session_id',
      'user_id',
      'raised_hand',
    ]);
    const played = new RowWriter(this.sql, 'session_quizzes', ['session_id', 'quiz_id']);
    let index = 0;
    for (const record of records) {
      const session = this.validator.session(record, index);
      const id = await this.sql.insertOne(
        'sessions',
        ['owner_id', 'title', 'start_date'],
        [
          this.userIds[session.ownerIndex] as number,
          session.title,
          this.sql.date(session.startDate),
        ],
      );
      this.sessionIds.push(id);
      this.ids.sessions.push([session.ref, String(id)]);
      for (const quizIndex of session.quizIndexes)
        await played.add([id, this.quizIds[quizIndex] as number]);
      for (const attendee of session.attendees) {
        await attendees.add([
          id,
          this.userIds[attendee.userIndex] as number,
          this.sql.bool(attendee.raisedHand),
        ]);
      }
      index += 1;
      if (index % PROGRESS_EVERY === 0) this.progress('sessions', index, total);
    }
    await attendees.flush();
    await played.flush();
    this.progress('sessions', index, total);
  }

  private async answers(records: Iterable<unknown> & { readonly length?: number }): Promise<void> {
    const total = sizeOf(records);
    const writer = new RowWriter(this.sql, 'answers', ANSWER_COLUMNS, (written) =>
      this.progress('answers', written, total),
    );
    let index = 0;
    for (const record of records) {
      const answer = this.validator.answer(record, index);
      await writer.add([
        this.sessionIds[answer.sessionIndex] as number,
        this.userIds[answer.userIndex] as number,
        this.quizIds[answer.quizIndex] as number,
        this.questionIds[answer.questionIndex] as number,
        JSON.stringify(answer.value),
        this.sql.bool(scoreAnswer(answer.question, answer.value)),
        this.sql.date(answer.answeredAt),
      ]);
      index += 1;
    }
    await writer.flush();
    this.progress('answers', index, total);
  }

  private async flags(records: Iterable<unknown> & { readonly length?: number }): Promise<void> {
    const total = sizeOf(records);
    const writer = new RowWriter(this.sql, 'user_quiz_flags', [
      'user_id',
      'quiz_id',
      'favorite',
      'imported',
    ]);
    let index = 0;
    for (const record of records) {
      const flag = this.validator.flag(record, index);
      await writer.add([
        this.userIds[flag.userIndex] as number,
        this.quizIds[flag.quizIndex] as number,
        this.sql.bool(flag.favorite),
        this.sql.bool(flag.imported),
      ]);
      index += 1;
    }
    await writer.flush();
    this.progress('flags', index, total);
  }
}

/**
 * Loads a data file (or a generated source) in ONE transaction: every record is validated as it
 * is read, answers are scored with the shared scoring module, rows go in with multi-row INSERTs.
 * Any ImportError or SQL error rolls everything back and is rethrown. Returns the id of every ref.
 */
export async function loadData(
  dataSource: DataSource,
  source: ImportSource,
  options: LoadOptions = {},
): Promise<IdMap> {
  const checked = asImportSource(source);
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction();
    try {
      const ids = await new BulkLoad(runner, options).run(checked);
      await runner.commitTransaction();
      return ids;
    } catch (error) {
      // The load's own error says what went wrong; a failing rollback (lost connection) must not hide it.
      await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    }
  } finally {
    await runner.release();
  }
}

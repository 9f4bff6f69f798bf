import type { DataSource, QueryRunner } from 'typeorm';
import { wholeSeconds } from '../../db/entities/column-types';
import { dialectOf } from '../../db/sql/dialect';
import { encodeQuestionRow } from '../../domain/questions/question-row.codec';
import type { IdMap, ImportSource, Records } from './import-document';
import type { ValidUser } from './import-records';
import { ImportValidator, asImportSource } from './import-validator';
import { LoadStatements, RowWriter, type SqlValue } from './row-writer';
import { checkEmailsFree, insertUsers } from './user-writer';
import type { PasswordCost } from '../../security/password';
import { ANSWER_COLUMNS } from '../../db/sql/answers.sql';
import { checkEmptyDatabase, withoutChecks } from './empty-database';
import { loadInfile } from './infile-writer';

export interface LoadOptions {
  /** Called after each batch and at the end of each phase; `total` when the section's size is known. */
  onProgress?: (phase: string, done: number, total?: number) => void;
  /** The import time: default creation dates and created_at columns. */
  now?: Date;
  /** argon2id parameters for the file's plain passwords; the service's own by default. */
  passwordCost?: Readonly<PasswordCost>;
  /**
   * The database holds no data yet (freshly migrated): checked, then the answers are loaded in
   * one bulk statement (see checkEmptyDatabase). Refused, with nothing written, when any table
   * the load writes has rows.
   */
  emptyDatabase?: boolean;
}

/** Records between two progress reports for the phases that insert one row at a time. */
const PROGRESS_EVERY = 100;
/** Users per INSERT: long picture URLs and hashes make a user row up to a few kB. */
const USER_BATCH = 1000;
const QUIZ_READ_BACK_BATCH = 1000;
/** Answers between two progress reports once a refused file is only checked. */
const ANSWERS_CHECKED_PROGRESS = 10_000;

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

function sizeOf(records: { readonly length?: number }): number | undefined {
  return typeof records.length === 'number' ? records.length : undefined;
}

/**
 * One load: validates each record, then writes it; ids of earlier sections are kept by record
 * index. Everything the rows hold was decided by the validator (and so by the domain rules):
 * this class only maps indexes to ids and values to statement parameters.
 */
class BulkLoad {
  private readonly sql: LoadStatements;
  private readonly validator: ImportValidator;
  private readonly now: Date;
  private readonly userIds: number[] = [];
  private readonly quizIds: number[] = [];
  private readonly sessionIds: number[] = [];
  private questionIds = new Int32Array(0);
  private reported = { phase: '', done: -1 };
  private answersChecked = 0;
  private readonly ids: { [K in keyof IdMap]: [string, string][] } = {
    users: [],
    quizzes: [],
    sessions: [],
    groups: [],
  };

  constructor(
    private readonly runner: QueryRunner,
    private readonly options: LoadOptions,
    /** The answers go in as one streamed LOAD DATA (an empty database on MariaDB/MySQL). */
    private readonly infile = false,
  ) {
    this.sql = new LoadStatements(runner, dialectOf(runner.connection));
    this.now = wholeSeconds(options.now ?? new Date());
    this.validator = new ImportValidator(this.now);
  }

  /**
   * Rows are written until the first error; from there on every record is still checked, so the
   * refusal lists every error of the file (the transaction is rolled back).
   */
  private get writing(): boolean {
    return this.validator.problems.count === 0;
  }

  async run(source: ImportSource): Promise<IdMap> {
    await this.users(source.users ?? []);
    await this.quizzes(source.quizzes ?? []);
    await this.groups(source.groups ?? []);
    await this.sessions(source.sessions ?? []);
    await this.answers(source.answers ?? []);
    await this.flags(source.flags ?? []);
    this.validator.problems.throwIfAny();
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

  private async users(records: Records<unknown>): Promise<void> {
    const total = sizeOf(records);
    let batch: ValidUser[] = [];
    let indexes: number[] = [];
    let index = 0;
    for (const record of records) {
      const user = this.validator.user(record, index);
      if (user) {
        batch.push(user);
        indexes.push(index);
      }
      index += 1;
      if (batch.length === USER_BATCH) {
        await this.writeUsers(batch, indexes);
        this.progress('users', index, total);
        batch = [];
        indexes = [];
      }
    }
    if (batch.length > 0) await this.writeUsers(batch, indexes);
    this.progress('users', index, total);
  }

  /** Writes a batch of valid users; once the file has an error, only checks their emails are free. */
  private async writeUsers(users: ValidUser[], indexes: number[]): Promise<void> {
    for (const error of await checkEmailsFree(this.sql, users, indexes))
      this.validator.problems.add(error);
    if (!this.writing) return;
    // No error so far: every record until here was valid, so the batch's indexes follow each other.
    const firstIndex = indexes[0] as number;
    const ids = await insertUsers(this.sql, users, this.now, this.options.passwordCost);
    users.forEach((user, position) => {
      this.userIds[firstIndex + position] = ids[position] as number;
      this.ids.users.push([user.ref, String(ids[position])]);
    });
  }

  private async quizzes(records: Records<unknown>): Promise<void> {
    const { dialect } = this.sql;
    const total = sizeOf(records);
    const tags = new RowWriter(this.sql, 'quiz_tags', ['quiz_id', 'position', 'tag']);
    const questions = new RowWriter(this.sql, 'questions', QUESTION_COLUMNS);
    const firstQuestionIndexes: number[] = [];
    let index = 0;
    for (const record of records) {
      const quiz = this.validator.quiz(record, index);
      index += 1;
      if (!quiz || !this.writing) continue;
      const id = await this.sql.insertOne('quizzes', QUIZ_COLUMNS, [
        this.userIds[quiz.authorIndex] as number,
        quiz.title,
        quiz.visibility,
        dialect.bool(quiz.survey),
        quiz.defaultDuration,
        quiz.questions.length,
        dialect.date(quiz.creationDate),
        dialect.date(quiz.lastChangeDate),
      ]);
      this.quizIds.push(id);
      this.ids.quizzes.push([quiz.ref, String(id)]);
      firstQuestionIndexes.push(quiz.firstQuestionIndex);
      for (const [position, tag] of quiz.tags.entries()) await tags.add([id, position, tag]);
      for (const question of quiz.questions) {
        const row = encodeQuestionRow(question);
        await questions.add([
          id,
          row.position,
          row.type,
          row.title,
          row.mediaType,
          row.mediaUrl,
          row.propositions,
          row.goodAnswer,
          row.tolerance,
          dialect.bool(row.caseSensitive),
        ]);
      }
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
    const columns = ['id', 'quiz_id', 'position'];
    for (let start = 0; start < this.quizIds.length; start += QUIZ_READ_BACK_BATCH) {
      const chunk = this.quizIds.slice(start, start + QUIZ_READ_BACK_BATCH);
      for (const row of await this.sql.selectIn('questions', columns, 'quiz_id', chunk)) {
        const quizIndex = quizIndexById.get(Number(row.quiz_id)) as number;
        this.questionIds[(firstQuestionIndexes[quizIndex] as number) + Number(row.position)] =
          Number(row.id);
      }
    }
  }

  private async groups(records: Records<unknown>): Promise<void> {
    const total = sizeOf(records);
    const members = new RowWriter(this.sql, 'user_group_members', ['group_id', 'user_id']);
    let index = 0;
    for (const record of records) {
      const group = this.validator.group(record, index);
      index += 1;
      if (!group || !this.writing) continue;
      const id = await this.sql.insertOne(
        'user_groups',
        ['name', 'owner_id', 'created_at'],
        [group.name, this.userIds[group.ownerIndex] as number, this.sql.dialect.date(this.now)],
      );
      this.ids.groups.push([group.ref, String(id)]);
      for (const member of group.memberIndexes)
        await members.add([id, this.userIds[member] as number]);
      if (index % PROGRESS_EVERY === 0) this.progress('groups', index, total);
    }
    await members.flush();
    this.progress('groups', index, total);
  }

  private async sessions(records: Records<unknown>): Promise<void> {
    const { dialect } = this.sql;
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
      index += 1;
      if (!session || !this.writing) continue;
      const id = await this.sql.insertOne(
        'sessions',
        ['owner_id', 'title', 'start_date'],
        [
          this.userIds[session.ownerIndex] as number,
          session.title,
          dialect.date(session.startDate),
        ],
      );
      this.sessionIds.push(id);
      this.ids.sessions.push([session.ref, String(id)]);
      for (const quizIndex of session.quizIndexes)
        await played.add([id, this.quizIds[quizIndex] as number]);
      for (const attendee of session.attendees) {
        const userId = this.userIds[attendee.userIndex] as number;
        await attendees.add([id, userId, dialect.bool(attendee.raisedHand)]);
      }
      if (index % PROGRESS_EVERY === 0) this.progress('sessions', index, total);
    }
    await attendees.flush();
    await played.flush();
    this.progress('sessions', index, total);
  }

  private async answers(records: Records<unknown>): Promise<void> {
    const total = sizeOf(records);
    const rows = this.answerRows(records, total);
    if (!this.writing) {
      // The file is refused already: its answers are only checked (answerRows yields none).
      for (const row of rows) void row;
      this.progress('answers', this.answersChecked, total);
      return;
    }
    if (this.infile) {
      const written = await withoutChecks(this.runner, () =>
        loadInfile(this.runner, 'answers', ANSWER_COLUMNS, rows, (sent, ended) =>
          // Once every row is sent, the server sorts them into the indexes.
          ended ? this.progress('indexes', 0, sent) : this.progress('answers', sent, total),
        ),
      );
      this.progress('indexes', written, written);
      return;
    }
    const writer = new RowWriter(this.sql, 'answers', ANSWER_COLUMNS, (written) =>
      this.progress('answers', written, total),
    );
    for (const row of rows) await writer.add(row);
    await writer.flush();
    this.progress('answers', this.writing ? writer.written : this.answersChecked, total);
  }

  /** The answers as rows of the answers table, each validated (and scored) as it is read. */
  private *answerRows(records: Records<unknown>, total?: number): Generator<SqlValue[]> {
    const { dialect } = this.sql;
    let index = 0;
    for (const record of records) {
      const answer = this.validator.answer(record, index);
      index += 1;
      this.answersChecked = index;
      if (!this.writing) {
        // Nothing is written any more: the progress counts the answers checked.
        if (index % ANSWERS_CHECKED_PROGRESS === 0) this.progress('answers', index, total);
        continue;
      }
      if (!answer) continue;
      yield [
        this.sessionIds[answer.sessionIndex] as number,
        this.userIds[answer.userIndex] as number,
        this.quizIds[answer.quizIndex] as number,
        this.questionIds[answer.questionIndex] as number,
        JSON.stringify(answer.value),
        dialect.bool(answer.good),
        dialect.date(answer.answeredAt),
      ];
    }
  }

  private async flags(records: Records<unknown>): Promise<void> {
    const { dialect } = this.sql;
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
      index += 1;
      if (!flag || !this.writing) continue;
      await writer.add([
        this.userIds[flag.userIndex] as number,
        this.quizIds[flag.quizIndex] as number,
        dialect.bool(flag.favorite),
        dialect.bool(flag.imported),
      ]);
    }
    await writer.flush();
    this.progress('flags', index, total);
  }
}

/**
 * Loads a data file (or a generated source) in ONE transaction: every record is validated as it
 * is read, answers are scored with the shared scoring module, rows go in with multi-row INSERTs
 * (the answers of an empty database as one streamed LOAD DATA: LoadOptions.emptyDatabase).
 * A file with errors is read to its end and refused with every error (ImportErrors, the first
 * MAX_REPORTED_ERRORS listed); that or an SQL error rolls everything back and is rethrown. Returns the id of every ref.
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
      const infile = options.emptyDatabase ? (await checkEmptyDatabase(runner)).infile : false;
      const ids = await new BulkLoad(runner, options, infile).run(checked);
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

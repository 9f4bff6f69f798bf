import fs from 'node:fs';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import { demoDocument } from '../../src/data/demo/demo-data';
import { loadData } from '../../src/data/import/bulk-loader';
import type {
  IdMap,
  ImportAnswer,
  ImportDocument,
  ImportSource,
} from '../../src/data/import/import-document';
import { ImportErrors, MAX_REPORTED_ERRORS } from '../../src/data/import/import-problems';
import { ImportError } from '../../src/data/import/import-validator';
import {
  Answer,
  Question,
  Quiz,
  QuizTag,
  Session,
  SessionAttendee,
  SessionQuiz,
  User,
  UserGroup,
  UserGroupMember,
  UserQuizFlag,
} from '../../src/db/entities';
import { verifyPassword } from '../../src/security/password';
import { openSqliteTestDatabase, openTestDatabase } from '../helpers/database';
import { generatedWithBadLastAnswer } from '../helpers/bad-import';

const SAMPLE: ImportDocument = JSON.parse(
  fs.readFileSync(path.join(__dirname, '../fixtures/sample-import.json'), 'utf8'),
) as ImportDocument;
const NOW = new Date('2026-10-01T12:00:00Z');
/** argon2id's smallest parameters, for files the tests expect refused. */
const CHEAP_HASHES = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

const sample = (): ImportDocument => structuredClone(SAMPLE);
const utc = (text: string): Date => new Date(`${text.replace(' ', 'T')}Z`);

/** Canonical spellings of the aliases the sample uses. */
const CANONICAL_TYPES: Record<string, string> = {
  MCQSeveralGoodAnswers: 'MultipleChoicesSeveralGoodAnswers',
  MultipleChoicesOneGoodAnwer: 'MultipleChoicesOneGoodAnswer',
};

/** Good answers as stored (normalised) where they differ from the file: `quizRef/position`. */
const STORED_GOOD_ANSWERS: Record<string, unknown> = {
  'q1/1': [0, 1, 3],
  'q1/3': '0.75',
  'q1/4': 'Paris',
  'q2/2': '2.1',
};

/** Each answer of the sample: the value as stored and whether it is good, by the contract's rules. */
const EXPECTED_ANSWERS: [unknown, boolean | null][] = [
  [0, true], // the good index
  [[0, 1, 3], true], // same set in another order
  [true, true],
  ['0.78', true], // within 5 % of 0.75
  ['paris ', true], // case and surrounding spaces ignored
  [2, false],
  [[0, 1], false], // a subset is not the set
  [false, false], // "false" read as a boolean
  ['0.8', false], // decimal comma; 6.7 % away from 0.75
  ['Pari', true], // edit distance 1 <= 20 % of 5
  ['London', false],
  [2, null], // survey
  ['More experiments', null],
  [false, null],
  ['berlin', false], // case-sensitive question
  [1, true],
  ['2.1', true],
  ['Berlin', true],
  ['2.2', false], // tolerance absent: exact only
  [1, false],
  ['0.75', true], // same question again, in another session
];

/** Every table of the database (other teams add tables: list them from the database itself). */
async function tableNames(dataSource: DataSource): Promise<string[]> {
  const sqlite = dataSource.options.type === 'better-sqlite3';
  const rows = (await dataSource.query(
    sqlite
      ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
      : 'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()',
  )) as { name: string }[];
  return rows.map((row) => row.name).sort();
}

async function rowCounts(dataSource: DataSource): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await tableNames(dataSource)) {
    const [row] = (await dataSource.query(
      `SELECT COUNT(*) AS n FROM ${dataSource.driver.escape(table)}`,
    )) as { n: unknown }[];
    counts[table] = Number(row?.n);
  }
  return counts;
}

async function expectImportError(
  dataSource: DataSource,
  source: unknown,
  expectedPath: string,
): Promise<ImportError> {
  const before = await rowCounts(dataSource);
  let caught: unknown;
  try {
    // The smallest argon2id cost: a refused file's hashes are rolled back unread, and the
    // service's own cost is pinned by the test of the sample file.
    await loadData(dataSource, source as ImportSource, { now: NOW, passwordCost: CHEAP_HASHES });
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ImportError);
  const error = caught as ImportError;
  expect(error.path).toBe(expectedPath);
  // Every error of the file is listed with its JSON path; the planted one comes first.
  const listed = error.message.split('\n').slice(1);
  expect(listed[0]?.startsWith(`  ${expectedPath === '$' ? '$' : `$.${expectedPath}`}: `)).toBe(
    true,
  );
  expect(await rowCounts(dataSource)).toEqual(before);
  return error;
}

const id = (map: Record<string, string>, ref: string): number => Number(map[ref]);

/** Reads everything back through TypeORM and compares it, field by field, with the sample file. */
async function expectSampleLoaded(dataSource: DataSource, ids: IdMap): Promise<void> {
  const doc = SAMPLE;
  const sections = [
    ['users', doc.users, User],
    ['quizzes', doc.quizzes, Quiz],
    ['sessions', doc.sessions, Session],
    ['groups', doc.groups, UserGroup],
  ] as const;
  for (const [name, records, entity] of sections) {
    const map = ids[name];
    expect(Object.keys(map).sort()).toEqual((records ?? []).map((record) => record.ref).sort());
    const found = await dataSource.getRepository(entity).count();
    expect(found).toBe(records?.length);
    for (const value of Object.values(map)) {
      expect(value).toMatch(/^\d+$/);
      expect(await dataSource.getRepository(entity).existsBy({ id: Number(value) })).toBe(true);
    }
  }

  for (const user of doc.users ?? []) {
    const row = await dataSource
      .getRepository(User)
      .findOneByOrFail({ id: id(ids.users, user.ref) });
    // Emails are stored in lower case, so logins find them whatever the case typed.
    expect(row.email).toBe(user.email.toLowerCase());
    expect(row.firstName).toBe(user.firstName);
    expect(row.lastName).toBe(user.lastName);
    expect(row.pictureUrl).toBe(user.pictureURL ?? null);
    expect(row.publicProfile).toBe(user.publicProfile ?? false);
    expect(row.canCreatePrivateQuizzes).toBe(user.canCreatePrivateQuizzes ?? false);
    expect(row.createdAt.toISOString()).toBe(NOW.toISOString());
    if (user.password) {
      expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$m=65536,p=4,t=3\$/);
      expect(await verifyPassword(row.passwordHash, user.password)).toBe(true);
      expect(await verifyPassword(row.passwordHash, `${user.password}x`)).toBe(false);
    } else {
      expect(row.passwordHash).toBeNull();
    }
  }

  for (const group of doc.groups ?? []) {
    const groupId = id(ids.groups, group.ref);
    const row = await dataSource.getRepository(UserGroup).findOneByOrFail({ id: groupId });
    expect(row.name).toBe(group.name);
    expect(row.ownerId).toBe(id(ids.users, group.owner));
    expect(row.createdAt.toISOString()).toBe(NOW.toISOString());
    const members = await dataSource.getRepository(UserGroupMember).findBy({ groupId });
    expect(members.map((member) => member.userId).sort((a, b) => a - b)).toEqual(
      (group.members ?? []).map((ref) => id(ids.users, ref)).sort((a, b) => a - b),
    );
  }

  for (const quiz of doc.quizzes ?? []) {
    const quizId = id(ids.quizzes, quiz.ref);
    const row = await dataSource.getRepository(Quiz).findOneByOrFail({ id: quizId });
    expect(row.authorId).toBe(id(ids.users, quiz.author));
    expect(row.title).toBe(quiz.title);
    expect(row.visibility).toBe(quiz.visibility);
    expect(row.survey).toBe(quiz.survey);
    expect(row.defaultDuration).toBe(quiz.defaultDuration ?? null);
    expect(row.nbQuestions).toBe(quiz.questions?.length ?? 0);
    expect(row.creationDate.toISOString()).toBe(
      (quiz.creationDate ? utc(quiz.creationDate) : NOW).toISOString(),
    );
    expect(row.lastChangeDate.toISOString()).toBe(
      (quiz.lastChangeDate ? utc(quiz.lastChangeDate) : NOW).toISOString(),
    );
    const tags = await dataSource
      .getRepository(QuizTag)
      .find({ where: { quizId }, order: { position: 'ASC' } });
    expect(tags.map((tag) => tag.tag)).toEqual(quiz.tags);
    expect(tags.map((tag) => tag.position)).toEqual(quiz.tags.map((_, position) => position));
    const questions = await dataSource
      .getRepository(Question)
      .find({ where: { quizId }, order: { position: 'ASC' } });
    expect(questions).toHaveLength(quiz.questions?.length ?? 0);
    (quiz.questions ?? []).forEach((question, position) => {
      const stored = questions[position] as Question;
      expect(stored.position).toBe(position);
      expect(stored.type).toBe(CANONICAL_TYPES[question.type] ?? question.type);
      expect(stored.title).toBe(question.title);
      expect(stored.mediaType).toBe(question.media?.type ?? null);
      expect(stored.mediaUrl).toBe(question.media?.url ?? null);
      expect(stored.propositions === null ? null : JSON.parse(stored.propositions)).toEqual(
        question.propositions ?? null,
      );
      const key = `${quiz.ref}/${position}`;
      const good =
        key in STORED_GOOD_ANSWERS ? STORED_GOOD_ANSWERS[key] : (question.goodAnswer ?? null);
      expect(stored.goodAnswer === null ? null : JSON.parse(stored.goodAnswer)).toEqual(good);
      expect(stored.tolerance).toBe(question.tolerance ?? null);
      expect(stored.caseSensitive).toBe(question.caseSensitive ?? null);
    });
  }

  for (const session of doc.sessions ?? []) {
    const sessionId = id(ids.sessions, session.ref);
    const row = await dataSource.getRepository(Session).findOneByOrFail({ id: sessionId });
    expect(row.ownerId).toBe(id(ids.users, session.owner));
    expect(row.title).toBe(session.title);
    expect(row.startDate.toISOString()).toBe(utc(session.startDate).toISOString());
    const attendees = await dataSource
      .getRepository(SessionAttendee)
      .find({ where: { sessionId }, order: { userId: 'ASC' } });
    expect(attendees.map((a) => [a.userId, a.raisedHand])).toEqual(
      (session.attendees ?? [])
        .map((a) => [id(ids.users, a.user), a.raisedHand ?? false] as const)
        .sort((a, b) => a[0] - b[0]),
    );
    const played = await dataSource
      .getRepository(SessionQuiz)
      .find({ where: { sessionId }, order: { quizId: 'ASC' } });
    expect(played.map((p) => p.quizId)).toEqual(
      (session.quizzes ?? []).map((ref) => id(ids.quizzes, ref)).sort((a, b) => a - b),
    );
  }

  const answers = await dataSource.getRepository(Answer).find({ order: { id: 'ASC' } });
  expect(answers).toHaveLength(EXPECTED_ANSWERS.length);
  expect(doc.answers).toHaveLength(EXPECTED_ANSWERS.length);
  for (const [index, answer] of (doc.answers ?? []).entries()) {
    const stored = answers[index] as Answer;
    const [value, good] = EXPECTED_ANSWERS[index] as [unknown, boolean | null];
    const question = await dataSource
      .getRepository(Question)
      .findOneByOrFail({ quizId: id(ids.quizzes, answer.quiz), position: answer.question });
    expect([index, stored.sessionId, stored.userId, stored.quizId, stored.questionId]).toEqual([
      index,
      id(ids.sessions, answer.session),
      id(ids.users, answer.user),
      id(ids.quizzes, answer.quiz),
      question.id,
    ]);
    expect([index, JSON.parse(stored.value), stored.good]).toEqual([index, value, good]);
    expect(stored.answeredAt.toISOString()).toBe(utc(answer.answeredAt).toISOString());
  }

  const flags = await dataSource.getRepository(UserQuizFlag).find();
  expect(flags).toHaveLength(doc.flags?.length ?? 0);
  for (const flag of doc.flags ?? []) {
    const row = await dataSource
      .getRepository(UserQuizFlag)
      .findOneByOrFail({ userId: id(ids.users, flag.user), quizId: id(ids.quizzes, flag.quiz) });
    expect([row.favorite, row.imported]).toEqual([flag.favorite ?? false, flag.imported ?? false]);
  }
}

type Mutation = (doc: ImportDocument & Record<string, unknown>) => void;

/** Reaches into the sample by a path of keys, for corrupting one value. */
function at(doc: unknown, ...keys: (string | number)[]): Record<string | number, unknown> {
  let node = doc;
  for (const key of keys) node = (node as Record<string | number, unknown>)[key];
  return node as Record<string | number, unknown>;
}

/** One bad value each, at every depth, and the exact path the error must name. */
const CORRUPTIONS: [string, string, Mutation][] = [
  [
    'an email that is not one',
    'users[3].email',
    (d) => void (at(d, 'users', 3).email = 'noah-at-example.org'),
  ],
  [
    'the same email twice, in other case',
    'users[4].email',
    (d) => void (at(d, 'users', 4).email = 'NOAH.bernard@EXAMPLE.org'),
  ],
  ['a missing lastName', 'users[2].lastName', (d) => void delete at(d, 'users', 2).lastName],
  [
    'a picture URL that is not http(s)',
    'users[0].pictureURL',
    (d) => void (at(d, 'users', 0).pictureURL = 'ftp://example.org/a.png'),
  ],
  [
    'a boolean given as a text',
    'users[1].publicProfile',
    (d) => void (at(d, 'users', 1).publicProfile = 'yes'),
  ],
  ['a duplicate user ref', 'users[6].ref', (d) => void (at(d, 'users', 6).ref = 's1')],
  [
    'an email already in the database',
    'users[5].email',
    (d) => void (at(d, 'users', 5).email = 'lucas.martin@demo.quiz'),
  ],
  [
    'a group owned by an unknown user',
    'groups[1].owner',
    (d) => void (at(d, 'groups', 1).owner = 'nobody'),
  ],
  [
    'an unknown group member',
    'groups[0].members[2]',
    (d) => void (at(d, 'groups', 0, 'members')[2] = 's9'),
  ],
  [
    'a group name over 100 characters',
    'groups[2].name',
    (d) => void (at(d, 'groups', 2).name = 'x'.repeat(101)),
  ],
  ['a quiz title too short', 'quizzes[0].title', (d) => void (at(d, 'quizzes', 0).title = 'Fr')],
  [
    'an unknown visibility',
    'quizzes[1].visibility',
    (d) => void (at(d, 'quizzes', 1).visibility = 'secret'),
  ],
  [
    'a tag with a quote',
    'quizzes[0].tags[1]',
    (d) => void (at(d, 'quizzes', 0, 'tags')[1] = 'grade "4"'),
  ],
  [
    'a tag with a backslash',
    'quizzes[2].tags[0]',
    (d) => void (at(d, 'quizzes', 2, 'tags')[0] = 'back\\slash'),
  ],
  ['a single tag', 'quizzes[3].tags', (d) => void (at(d, 'quizzes', 3).tags = ['draft'])],
  [
    'the same tag twice',
    'quizzes[1].tags[1]',
    (d) => void (at(d, 'quizzes', 1).tags = ['geography', 'geography']),
  ],
  [
    'a duration in words',
    'quizzes[0].defaultDuration',
    (d) => void (at(d, 'quizzes', 0).defaultDuration = '10 minutes'),
  ],
  [
    'a date that does not exist',
    'quizzes[1].creationDate',
    (d) => void (at(d, 'quizzes', 1).creationDate = '2026-02-30 10:00:00'),
  ],
  ['survey as a text', 'quizzes[2].survey', (d) => void (at(d, 'quizzes', 2).survey = 'no')],
  ['an unknown author', 'quizzes[3].author', (d) => void (at(d, 'quizzes', 3).author = 'zz')],
  [
    'a good answer index out of range, deep in a question',
    'quizzes[0].questions[1].goodAnswer',
    (d) => void (at(d, 'quizzes', 0, 'questions', 1).goodAnswer = [0, 4]),
  ],
  [
    'a missing good answer',
    'quizzes[1].questions[2].goodAnswer',
    (d) => void delete at(d, 'quizzes', 1, 'questions', 2).goodAnswer,
  ],
  [
    'a good answer in a survey',
    'quizzes[2].questions[0].goodAnswer',
    (d) => void (at(d, 'quizzes', 2, 'questions', 0).goodAnswer = 1),
  ],
  [
    'a number good answer with 9 decimals',
    'quizzes[0].questions[3].goodAnswer',
    (d) => void (at(d, 'quizzes', 0, 'questions', 3).goodAnswer = '0.123456789'),
  ],
  [
    'an unknown question type',
    'quizzes[1].questions[1].type',
    (d) => void (at(d, 'quizzes', 1, 'questions', 1).type = 'Essay'),
  ],
  [
    'one proposition only',
    'quizzes[0].questions[0].propositions',
    (d) => void (at(d, 'quizzes', 0, 'questions', 0).propositions = ['3/4']),
  ],
  [
    'an empty proposition',
    'quizzes[0].questions[1].propositions[2]',
    (d) => void (at(d, 'quizzes', 0, 'questions', 1, 'propositions')[2] = ' '),
  ],
  [
    'a tolerance of 10',
    'quizzes[0].questions[3].tolerance',
    (d) => void (at(d, 'quizzes', 0, 'questions', 3).tolerance = 10),
  ],
  [
    'a tolerance on a case-sensitive text',
    'quizzes[1].questions[0].tolerance',
    (d) => void (at(d, 'quizzes', 1, 'questions', 0).tolerance = 20),
  ],
  [
    'an unknown media type',
    'quizzes[0].questions[0].media.type',
    (d) => void (at(d, 'quizzes', 0, 'questions', 0, 'media').type = 'gif'),
  ],
  [
    'an empty question title',
    'quizzes[1].questions[2].title',
    (d) => void (at(d, 'quizzes', 1, 'questions', 2).title = ''),
  ],
  [
    'a start date in ISO form',
    'sessions[0].startDate',
    (d) => void (at(d, 'sessions', 0).startDate = '2026-09-07T09:00:00'),
  ],
  [
    'a session playing an unknown quiz',
    'sessions[1].quizzes[1]',
    (d) => void (at(d, 'sessions', 1, 'quizzes')[1] = 'q9'),
  ],
  [
    'an attendee listed twice',
    'sessions[0].attendees[2].user',
    (d) => void (at(d, 'sessions', 0, 'attendees', 2).user = 's1'),
  ],
  [
    'raisedHand as a text',
    'sessions[1].attendees[0].raisedHand',
    (d) => void (at(d, 'sessions', 1, 'attendees', 0).raisedHand = 'true'),
  ],
  [
    'an answer in an unknown session',
    'answers[3].session',
    (d) => void (at(d, 'answers', 3).session = 'S9'),
  ],
  [
    'an answer by a user who did not attend',
    'answers[10].user',
    (d) => void (at(d, 'answers', 10).user = 's4'),
  ],
  [
    'an answer to a quiz not played in the session',
    'answers[14].quiz',
    (d) => void (at(d, 'answers', 14).quiz = 'q3'),
  ],
  [
    'a question index past the end',
    'answers[16].question',
    (d) => void (at(d, 'answers', 16).question = 3),
  ],
  [
    'a question index given as a text',
    'answers[0].question',
    (d) => void (at(d, 'answers', 0).question = '0'),
  ],
  [
    'an answer of the wrong shape',
    'answers[1].answer',
    (d) => void (at(d, 'answers', 1).answer = [0, 7]),
  ],
  [
    'a second answer to the same question',
    'answers[21].question',
    (d) =>
      void (d.answers as ImportAnswer[]).push({
        ...((d.answers as ImportAnswer[])[3] as ImportAnswer),
        answer: 0.7,
        answeredAt: '2026-09-07 09:12:00',
      }),
  ],
  [
    'a bad date in the last answer',
    'answers[20].answeredAt',
    (d) => void (at(d, 'answers', 20).answeredAt = '2026-02-30 10:00:00'),
  ],
  ['flags for an unknown quiz', 'flags[1].quiz', (d) => void (at(d, 'flags', 1).quiz = 'q9')],
  ['favorite as a number', 'flags[0].favorite', (d) => void (at(d, 'flags', 0).favorite = 1)],
  [
    'two flags for the same pair',
    'flags[3].quiz',
    (d) => void d.flags?.push({ user: 's1', quiz: 'q1' }),
  ],
  [
    'answers that are not an array',
    'answers',
    (d) => void (d.answers = { 0: {} } as unknown as ImportAnswer[]),
  ],
  ['a user that is not an object', 'users[2]', (d) => void (at(d, 'users')[2] = 'u3')],
];

/**
 * A generated source whose answers fill more than one INSERT batch, with the LAST answer made bad:
 * earlier answers are already written in the transaction when the error is found.
 */
function sourceWithBadLastAnswer(): { source: ImportSource; lastIndex: number } {
  return generatedWithBadLastAnswer({
    users: 90,
    quizzes: 8,
    questions: 10,
    sessions: 4,
    participation: 1,
    seed: 7,
    now: NOW,
  });
}

async function expectRollbackOfWrittenAnswers(dataSource: DataSource): Promise<void> {
  const { source, lastIndex } = sourceWithBadLastAnswer();
  expect(lastIndex).toBeGreaterThan(5000);
  const before = await rowCounts(dataSource);
  let answersWritten = 0;
  const load = loadData(dataSource, source, {
    now: NOW,
    onProgress: (phase, done) => {
      if (phase === 'answers') answersWritten = done;
    },
  });
  await expect(load).rejects.toThrow(ImportError);
  await load.catch((error: unknown) =>
    expect((error as ImportError).path).toBe(`answers[${lastIndex}].answeredAt`),
  );
  // Whole batches of answers were inserted before the bad one was read, and are gone again.
  expect(answersWritten).toBeGreaterThan(0);
  expect(await rowCounts(dataSource)).toEqual(before);
}

/** One bad value in every section (and, with `takenEmail`, an email the database already has). */
function sampleWithManyErrors(takenEmail?: string): { doc: ImportDocument; paths: string[] } {
  const doc = sample() as ImportDocument & Record<string, unknown>;
  doc.users?.forEach((user) => (user.email = `many.${user.email}`));
  at(doc, 'users', 3).email = 'noah-at-example.org';
  if (takenEmail) at(doc, 'users', 5).email = takenEmail;
  at(doc, 'quizzes', 3).tags = ['draft'];
  at(doc, 'groups', 2).name = 'x'.repeat(101);
  at(doc, 'sessions', 1).title = '';
  at(doc, 'answers', 1).answer = [0, 7];
  at(doc, 'answers', 3).user = 's4';
  at(doc, 'flags', 0).favorite = 1;
  const paths = [
    'users[3].email',
    ...(takenEmail ? ['users[5].email'] : []),
    'quizzes[3].tags',
    'groups[2].name',
    'sessions[1].title',
    'answers[1].answer',
    'answers[3].user',
    'flags[0].favorite',
  ];
  return { doc, paths };
}

async function expectEveryError(dataSource: DataSource, takenEmail?: string): Promise<void> {
  const { doc, paths } = sampleWithManyErrors(takenEmail);
  const error = await expectImportError(dataSource, doc, paths[0] as string);
  expect(error).toBeInstanceOf(ImportErrors);
  expect((error as ImportErrors).errors.map((each) => each.path)).toEqual(paths);
  expect(error.message.split('\n')).toEqual([
    `${paths.length} errors in the file, nothing was imported:`,
    ...(error as ImportErrors).errors.map((each) => `  $.${each.path}: ${each.reason}`),
  ]);
}

/** `count` answers with an impossible date: more errors than the report lists. */
async function expectCappedReport(dataSource: DataSource): Promise<void> {
  const doc = sample();
  doc.users?.forEach((user) => (user.email = `capped.${user.email}`));
  const answer = doc.answers?.[0] as ImportAnswer;
  doc.answers = Array.from({ length: 130 }, () => ({ ...answer, answeredAt: '2026-02-30 10:00' }));
  const error = (await expectImportError(dataSource, doc, 'answers[0].answeredAt')) as ImportErrors;
  expect(error.errors.map((each) => each.path)).toEqual(
    Array.from({ length: MAX_REPORTED_ERRORS }, (_, index) => `answers[${index}].answeredAt`),
  );
  expect(error.more).toBe(30);
  const lines = error.message.split('\n');
  expect(lines[0]).toBe('130 errors in the file, nothing was imported:');
  expect(lines).toHaveLength(MAX_REPORTED_ERRORS + 2);
  expect(lines.at(-1)).toBe('  and 30 more');
}

describe('import on MariaDB', () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;

  beforeAll(async () => {
    database = await openTestDatabase('import');
  });

  afterAll(async () => {
    await database?.close();
  });

  it('loads the sample file, and every value reads back as written', async () => {
    const { dataSource } = database;
    const phases: string[] = [];
    const ids = await loadData(dataSource, sample(), {
      now: NOW,
      onProgress: (phase) => phases.push(phase),
    });
    expect([...new Set(phases)]).toEqual([
      'users',
      'quizzes',
      'groups',
      'sessions',
      'answers',
      'flags',
    ]);
    await expectSampleLoaded(dataSource, ids);
    // Dates are stored in UTC whatever the session time zone says.
    const [row] = (await dataSource.query(
      "SELECT DATE_FORMAT(start_date, '%Y-%m-%d %H:%i:%s') AS d FROM sessions WHERE id = ?",
      [id(ids.sessions, 'S1')],
    )) as { d: string }[];
    expect(row?.d).toBe('2026-09-07 09:00:00');
  });

  describe('refuses a file with one bad value, naming its path, and leaves the database unchanged', () => {
    let other: Awaited<ReturnType<typeof openTestDatabase>>;

    beforeAll(async () => {
      // Another classroom is already there, so "unchanged" is about rows that exist.
      other = await openTestDatabase('import_bad');
      await loadData(other.dataSource, demoDocument(), { now: NOW });
    });

    afterAll(async () => {
      await other?.close();
    });

    it('has at least 25 kinds of bad values to try', () => {
      expect(CORRUPTIONS.length).toBeGreaterThanOrEqual(25);
      expect(new Set(CORRUPTIONS.map(([, errorPath]) => errorPath)).size).toBe(CORRUPTIONS.length);
    });

    it.each(CORRUPTIONS)('%s (%s)', async (_name, errorPath, mutate) => {
      const doc = sample() as ImportDocument & Record<string, unknown>;
      mutate(doc);
      await expectImportError(other.dataSource, doc, errorPath);
    });

    it('reports every error of the file, each with its JSON path, and writes nothing', async () => {
      await expectEveryError(other.dataSource, 'lucas.martin@demo.quiz');
    });

    it('lists the first 100 errors of a file and counts the others', async () => {
      await expectCappedReport(other.dataSource);
    });

    it('refuses a top level that is not an object', async () => {
      await expectImportError(other.dataSource, [SAMPLE], '$');
    });

    it('rolls back answers already inserted when the last answer is bad', async () => {
      await expectRollbackOfWrittenAnswers(other.dataSource);
    });

    it('rolls back and rethrows an SQL error too', async () => {
      // Two emails the validator tells apart but MariaDB's accent-insensitive collation does not.
      const doc = sample();
      (doc.users?.[6] as { email: string }).email = 'zoé.petit@example.org';
      (doc.users?.[5] as { email: string }).email = 'zoe.petit@example.org';
      const before = await rowCounts(other.dataSource);
      const load = loadData(other.dataSource, doc, { now: NOW });
      await expect(load).rejects.toThrow(/Duplicate entry/);
      await expect(load).rejects.not.toBeInstanceOf(ImportError);
      expect(await rowCounts(other.dataSource)).toEqual(before);
    });

    it('still loads the intact sample afterwards', async () => {
      const ids = await loadData(other.dataSource, sample(), { now: NOW });
      expect(Object.keys(ids.users)).toHaveLength(7);
      expect(Number((await other.dataSource.query('SELECT COUNT(*) AS n FROM answers'))[0].n)).toBe(
        (demoDocument().answers?.length ?? 0) + EXPECTED_ANSWERS.length,
      );
    });
  });
});

describe('import on SQLite', () => {
  let database: Awaited<ReturnType<typeof openSqliteTestDatabase>>;

  beforeAll(async () => {
    database = await openSqliteTestDatabase();
  });

  afterAll(async () => {
    await database?.close();
  });

  it('loads the sample file, and every value reads back as written', async () => {
    const ids = await loadData(database.dataSource, sample(), { now: NOW });
    await expectSampleLoaded(database.dataSource, ids);
    // The text TypeORM writes for datetimes on SQLite, so SQL comparisons on them agree.
    const [row] = (await database.dataSource.query(
      'SELECT start_date AS d FROM sessions WHERE id = ?',
      [id(ids.sessions, 'S2')],
    )) as { d: string }[];
    expect(row?.d).toBe('2026-09-08 14:00:00.000');
  });

  it('refuses bad values without writing anything', async () => {
    for (const [, errorPath, mutate] of CORRUPTIONS.filter(([, p]) =>
      /^(answers|quizzes\[0\]\.questions|flags)/.test(p),
    )) {
      const doc = sample() as ImportDocument & Record<string, unknown>;
      // The sample is loaded already: give the users other emails so the error is the one planted.
      doc.users?.forEach((user) => (user.email = `again.${user.email}`));
      mutate(doc);
      await expectImportError(database.dataSource, doc, errorPath);
    }
  });

  it('rolls back answers already inserted when the last answer is bad', async () => {
    await expectRollbackOfWrittenAnswers(database.dataSource);
  });

  it('reports every error of the file, each with its JSON path, and writes nothing', async () => {
    await expectEveryError(database.dataSource);
  });

  it('lists the first 100 errors of a file and counts the others', async () => {
    await expectCappedReport(database.dataSource);
  });
});

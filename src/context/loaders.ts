import { types } from 'node:util';
import DataLoader from 'dataloader';
import type { Database } from '../db/database';
import { entityRows } from '../db/sql/entity-rows';
import type { RowReader } from '../db/sql/row-reads';
import {
  attendedQuizzesSql,
  attendedSessionsSql,
  knownUsersSql,
  publicAuthorsSql,
  type FactQuery,
} from '../db/sql/access-policy.sql';
import { attendeeCountsSql, entitiesWhereIn, quizFlagsSql } from '../db/sql/entity-reads.sql';
import type { SqlStatement } from '../db/sql/statement-batches';
import { Question, Quiz, QuizTag, Session, SessionQuiz, User, UserQuizFlag } from '../db/entities';
import type { PolicyRequester, UserFacts } from '../domain/policy/access.policy';

/**
 * Per-request batch loaders: every read of a quiz, its questions, its tags or a user during one
 * request goes through them, so a page of N items costs the same number of statements as one.
 * Built once per request (they cache, and what a requester may see depends on the requester).
 * They read raw rows through the request's reader, so the loads that start together (a quiz's
 * author, tags and questions) also travel together, in one exchange with the database.
 */
export interface Loaders {
  /** The request's reader of raw rows: reads of one turn travel together (row-reads.ts). */
  reader: RowReader;
  userById: DataLoader<number, User | null>;
  /** The facts the policy needs to decide whether the requester sees a user's details. */
  userFacts: DataLoader<number, UserFacts>;
  quizById: DataLoader<number, Quiz | null>;
  questionsByQuiz: DataLoader<number, Question[]>;
  tagsByQuiz: DataLoader<number, string[]>;
  /** The requester's favorite/imported flags on a quiz (undefined without a user). */
  flagsByQuiz: DataLoader<number, UserQuizFlag | null>;
  /** Whether the requesting user attended a session that played the quiz. */
  attendedQuiz: DataLoader<number, boolean>;
  sessionById: DataLoader<number, Session | null>;
  /** Whether the requesting user attended the session. */
  attendedSession: DataLoader<number, boolean>;
  /** The quizzes a session plays, in id order. */
  sessionQuizIds: DataLoader<number, number[]>;
  /** How many users attend a session. */
  sessionAttendeeCount: DataLoader<number, number>;
}

/**
 * DataLoader.loadMany, failing as a whole when any key failed: a read that failed (a lost
 * connection) must answer as a failure, never as a missing row. A failure is any Error, also
 * one made in another realm (a socket's error is Node's own, which `instanceof Error` misses
 * inside a vm context such as a test runner's).
 */
export async function loadEvery<K, V>(loader: DataLoader<K, V>, keys: readonly K[]): Promise<V[]> {
  const loaded = await loader.loadMany(keys);
  const failed = loaded.find(
    (value): value is Error => value instanceof Error || types.isNativeError(value),
  );
  if (failed) throw failed;
  return loaded as V[];
}

function byId<T extends { id: number }>(ids: readonly number[], rows: T[]): (T | null)[] {
  const map = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => map.get(id) ?? null);
}

function grouped<T>(ids: readonly number[], rows: T[], key: (row: T) => number): T[][] {
  const map = new Map<number, T[]>();
  for (const row of rows) {
    const list = map.get(key(row));
    if (list) list.push(row);
    else map.set(key(row), [row]);
  }
  return ids.map((id) => map.get(id) ?? []);
}

/** Ids of the rows a query returns, whatever the driver's type for integers. */
function idSet(rows: { id: number | string }[]): Set<number> {
  return new Set(rows.map((row) => Number(row.id)));
}

/** What every loader of one request reads through, and for whom. */
interface LoaderReads {
  reader: RowReader;
  source: Database['read'];
  dialect: Database['dialect'];
  rowsOf: (statement: SqlStatement) => Promise<Record<string, unknown>[]>;
  /** The ids a fact query selects. */
  idsOf: (query: FactQuery) => Promise<Set<number>>;
  /** The requesting user; undefined for an anonymous key or the operator. */
  userId: number | undefined;
}

function readsOf(db: Database, requester: PolicyRequester): LoaderReads {
  const reader: RowReader = db.requestReader();
  return {
    reader,
    source: db.read,
    dialect: db.dialect,
    rowsOf: (statement) => reader.rows<Record<string, unknown>>(statement.sql, statement.params),
    idsOf: async (query) =>
      idSet(await reader.rows<{ id: number | string }>(query.sql, query.params)),
    userId: requester.kind === 'user' ? requester.userId : undefined,
  };
}

/** Users, and the facts the policy weighs before it shows one. */
function userLoaders({
  source,
  dialect,
  rowsOf,
  idsOf,
  userId,
}: LoaderReads): Pick<Loaders, 'userById' | 'userFacts'> {
  const users = entityRows(source, User);
  const userById = new DataLoader<number, User | null>(async (ids) =>
    byId(ids, (await rowsOf(entitiesWhereIn(dialect, users, 'id', ids))).map(users.fromRow)),
  );

  const userFacts = new DataLoader<number, UserFacts>(async (ids) => {
    const list = [...ids];
    // The three reads are independent: one round trip, not three.
    const [loaded, publicAuthors, known] = await Promise.all([
      loadEvery(userById, list),
      idsOf(publicAuthorsSql(dialect, list)),
      userId === undefined
        ? Promise.resolve(new Set<number>())
        : idsOf(knownUsersSql(dialect, userId, list)),
    ]);
    return list.map((id, index) => {
      const user = loaded[index];
      return {
        userId: id,
        publicProfile: user?.publicProfile ?? false,
        authorOfPublicQuiz: publicAuthors.has(id),
        knownToRequester: known.has(id),
      };
    });
  });
  return { userById, userFacts };
}

/** Quizzes, their questions and tags, and what the requesting user did with them. */
function quizLoaders({
  source,
  dialect,
  rowsOf,
  idsOf,
  userId,
}: LoaderReads): Pick<
  Loaders,
  'quizById' | 'questionsByQuiz' | 'tagsByQuiz' | 'flagsByQuiz' | 'attendedQuiz'
> {
  const quizzes = entityRows(source, Quiz);
  const questions = entityRows(source, Question);
  const tags = entityRows(source, QuizTag);
  const flags = entityRows(source, UserQuizFlag);

  const quizById = new DataLoader<number, Quiz | null>(async (ids) =>
    byId(ids, (await rowsOf(entitiesWhereIn(dialect, quizzes, 'id', ids))).map(quizzes.fromRow)),
  );

  const questionsByQuiz = new DataLoader<number, Question[]>(async (ids) =>
    grouped(
      ids,
      (await rowsOf(entitiesWhereIn(dialect, questions, 'quiz_id', ids, 'quiz_id, position'))).map(
        questions.fromRow,
      ),
      (row) => row.quizId,
    ),
  );

  const tagsByQuiz = new DataLoader<number, string[]>(async (ids) =>
    grouped(
      ids,
      (await rowsOf(entitiesWhereIn(dialect, tags, 'quiz_id', ids, 'quiz_id, position'))).map(
        tags.fromRow,
      ),
      (row) => row.quizId,
    ).map((list) => list.map((tag) => tag.tag)),
  );

  const flagsByQuiz = new DataLoader<number, UserQuizFlag | null>(async (ids) => {
    if (userId === undefined) return ids.map(() => null);
    const rows = (await rowsOf(quizFlagsSql(dialect, flags, userId, ids))).map(flags.fromRow);
    const map = new Map(rows.map((row) => [row.quizId, row]));
    return ids.map((id) => map.get(id) ?? null);
  });

  const attendedQuiz = new DataLoader<number, boolean>(async (ids) => {
    if (userId === undefined) return ids.map(() => false);
    const played = await idsOf(attendedQuizzesSql(dialect, userId, ids));
    return ids.map((id) => played.has(id));
  });
  return { quizById, questionsByQuiz, tagsByQuiz, flagsByQuiz, attendedQuiz };
}

/** Sessions, the quizzes they play, who attends them. */
function sessionLoaders({
  source,
  dialect,
  rowsOf,
  idsOf,
  userId,
}: LoaderReads): Pick<
  Loaders,
  'sessionById' | 'attendedSession' | 'sessionQuizIds' | 'sessionAttendeeCount'
> {
  const sessions = entityRows(source, Session);
  const sessionQuizzes = entityRows(source, SessionQuiz);

  const sessionById = new DataLoader<number, Session | null>(async (ids) =>
    byId(ids, (await rowsOf(entitiesWhereIn(dialect, sessions, 'id', ids))).map(sessions.fromRow)),
  );

  const attendedSession = new DataLoader<number, boolean>(async (ids) => {
    if (userId === undefined) return ids.map(() => false);
    const attended = await idsOf(attendedSessionsSql(dialect, userId, ids));
    return ids.map((id) => attended.has(id));
  });

  const sessionQuizIds = new DataLoader<number, number[]>(async (ids) =>
    grouped(
      ids,
      (
        await rowsOf(
          entitiesWhereIn(dialect, sessionQuizzes, 'session_id', ids, 'session_id, quiz_id'),
        )
      ).map(sessionQuizzes.fromRow),
      (row) => row.sessionId,
    ).map((rows) => rows.map((row) => row.quizId)),
  );

  const sessionAttendeeCount = new DataLoader<number, number>(async (ids) => {
    const rows = await rowsOf(attendeeCountsSql(dialect, ids));
    const counts = new Map(rows.map((row) => [Number(row.session_id), Number(row.n)]));
    return ids.map((id) => counts.get(id) ?? 0);
  });
  return { sessionById, attendedSession, sessionQuizIds, sessionAttendeeCount };
}

/** The loaders of one request of `requester`, every read through one request reader. */
export function createLoaders(db: Database, requester: PolicyRequester): Loaders {
  const reads = readsOf(db, requester);
  return {
    reader: reads.reader,
    ...userLoaders(reads),
    ...quizLoaders(reads),
    ...sessionLoaders(reads),
  };
}

import DataLoader from 'dataloader';
import type { Database } from '../db/database';
import {
  attendedQuizzesSql,
  attendedSessionsSql,
  knownUsersSql,
  publicAuthorsSql,
  type FactQuery,
} from '../db/sql/access-policy.sql';
import { In } from 'typeorm';
import {
  Question,
  Quiz,
  QuizTag,
  Session,
  SessionAttendee,
  SessionQuiz,
  User,
  UserQuizFlag,
} from '../db/entities';
import type { PolicyRequester, UserFacts } from '../domain/policy/access.policy';

/**
 * Per-request batch loaders: every read of a quiz, its questions, its tags or a user during one
 * request goes through them, so a page of N items costs the same number of statements as one.
 * Built once per request (they cache, and what a requester may see depends on the requester).
 */
export interface Loaders {
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

export function createLoaders(db: Database, requester: PolicyRequester): Loaders {
  const dataSource = db.read;
  /** The ids a fact query selects. */
  const idsOf = async (query: FactQuery): Promise<Set<number>> =>
    idSet((await dataSource.query(query.sql, query.params)) as { id: number | string }[]);
  const userId = requester.kind === 'user' ? requester.userId : undefined;

  const userById = new DataLoader<number, User | null>(async (ids) =>
    byId(ids, await dataSource.getRepository(User).findBy({ id: In([...ids]) })),
  );

  const userFacts = new DataLoader<number, UserFacts>(async (ids) => {
    const list = [...ids];
    // The three reads are independent: one round trip, not three.
    const [users, publicAuthors, known] = await Promise.all([
      userById.loadMany(list),
      idsOf(publicAuthorsSql(db.dialect, list)),
      userId === undefined
        ? Promise.resolve(new Set<number>())
        : idsOf(knownUsersSql(db.dialect, userId, list)),
    ]);
    return list.map((id, index) => {
      const user = users[index];
      return {
        userId: id,
        publicProfile: user instanceof User ? user.publicProfile : false,
        authorOfPublicQuiz: publicAuthors.has(id),
        knownToRequester: known.has(id),
      };
    });
  });

  const quizById = new DataLoader<number, Quiz | null>(async (ids) =>
    byId(ids, await dataSource.getRepository(Quiz).findBy({ id: In([...ids]) })),
  );

  const questionsByQuiz = new DataLoader<number, Question[]>(async (ids) =>
    grouped(
      ids,
      await dataSource.getRepository(Question).find({
        where: { quizId: In([...ids]) },
        order: { quizId: 'ASC', position: 'ASC' },
      }),
      (row) => row.quizId,
    ),
  );

  const tagsByQuiz = new DataLoader<number, string[]>(async (ids) =>
    grouped(
      ids,
      await dataSource.getRepository(QuizTag).find({
        where: { quizId: In([...ids]) },
        order: { quizId: 'ASC', position: 'ASC' },
      }),
      (row) => row.quizId,
    ).map((tags) => tags.map((tag) => tag.tag)),
  );

  const flagsByQuiz = new DataLoader<number, UserQuizFlag | null>(async (ids) => {
    if (userId === undefined) return ids.map(() => null);
    const rows = await dataSource
      .getRepository(UserQuizFlag)
      .findBy({ userId, quizId: In([...ids]) });
    const map = new Map(rows.map((row) => [row.quizId, row]));
    return ids.map((id) => map.get(id) ?? null);
  });

  const attendedQuiz = new DataLoader<number, boolean>(async (ids) => {
    if (userId === undefined) return ids.map(() => false);
    const played = await idsOf(attendedQuizzesSql(db.dialect, userId, ids));
    return ids.map((id) => played.has(id));
  });

  const sessionById = new DataLoader<number, Session | null>(async (ids) =>
    byId(ids, await dataSource.getRepository(Session).findBy({ id: In([...ids]) })),
  );

  const attendedSession = new DataLoader<number, boolean>(async (ids) => {
    if (userId === undefined) return ids.map(() => false);
    const attended = await idsOf(attendedSessionsSql(db.dialect, userId, ids));
    return ids.map((id) => attended.has(id));
  });

  const sessionQuizIds = new DataLoader<number, number[]>(async (ids) =>
    grouped(
      ids,
      await dataSource.getRepository(SessionQuiz).find({
        where: { sessionId: In([...ids]) },
        order: { sessionId: 'ASC', quizId: 'ASC' },
      }),
      (row) => row.sessionId,
    ).map((rows) => rows.map((row) => row.quizId)),
  );

  const sessionAttendeeCount = new DataLoader<number, number>(async (ids) => {
    const rows = await dataSource
      .getRepository(SessionAttendee)
      .createQueryBuilder('attendee')
      .select('attendee.sessionId', 'sessionId')
      .addSelect('COUNT(*)', 'n')
      .where('attendee.sessionId IN (:...ids)', { ids: [...ids] })
      .groupBy('attendee.sessionId')
      .getRawMany<{ sessionId: unknown; n: unknown }>();
    const counts = new Map(rows.map((row) => [Number(row.sessionId), Number(row.n)]));
    return ids.map((id) => counts.get(id) ?? 0);
  });

  return {
    userById,
    userFacts,
    quizById,
    questionsByQuiz,
    tagsByQuiz,
    flagsByQuiz,
    attendedQuiz,
    sessionById,
    attendedSession,
    sessionQuizIds,
    sessionAttendeeCount,
  };
}

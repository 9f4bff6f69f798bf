import DataLoader from 'dataloader';
import type { Database } from '../db/database';
import { In } from 'typeorm';
import { Question, Quiz, QuizTag, Session, User, UserQuizFlag } from '../db/entities';
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
  const { placeholders } = db.dialect;
  const userId = requester.kind === 'user' ? requester.userId : undefined;

  const userById = new DataLoader<number, User | null>(async (ids) =>
    byId(ids, await dataSource.getRepository(User).findBy({ id: In([...ids]) })),
  );

  const userFacts = new DataLoader<number, UserFacts>(async (ids) => {
    const list = [...ids];
    const marks = placeholders(list.length);
    // The three reads are independent: one round trip, not three.
    const [users, publicAuthors, known] = await Promise.all([
      userById.loadMany(list),
      dataSource
        .query(
          `SELECT DISTINCT author_id AS id FROM quizzes WHERE visibility = 'public' AND author_id IN (${marks})`,
          list,
        )
        .then(idSet),
      userId === undefined
        ? Promise.resolve(new Set<number>())
        : dataSource
            .query(
              // Known users: attendees of the requester's sessions and members of the requester's groups.
              `SELECT a.user_id AS id FROM session_attendees a JOIN sessions s ON s.id = a.session_id
                WHERE s.owner_id = ? AND a.user_id IN (${marks})
               UNION
               SELECT m.user_id AS id FROM user_group_members m JOIN user_groups g ON g.id = m.group_id
                WHERE g.owner_id = ? AND m.user_id IN (${marks})`,
              [userId, ...list, userId, ...list],
            )
            .then(idSet),
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
    const played = new Set(
      (
        (await dataSource.query(
          `SELECT DISTINCT q.quiz_id AS id FROM session_quizzes q
             JOIN session_attendees a ON a.session_id = q.session_id
            WHERE a.user_id = ? AND q.quiz_id IN (${placeholders(ids.length)})`,
          [userId, ...ids],
        )) as { id: number | string }[]
      ).map((row) => Number(row.id)),
    );
    return ids.map((id) => played.has(id));
  });

  const sessionById = new DataLoader<number, Session | null>(async (ids) =>
    byId(ids, await dataSource.getRepository(Session).findBy({ id: In([...ids]) })),
  );

  const attendedSession = new DataLoader<number, boolean>(async (ids) => {
    if (userId === undefined) return ids.map(() => false);
    const attended = idSet(
      await dataSource.query(
        `SELECT session_id AS id FROM session_attendees WHERE user_id = ? AND session_id IN (${placeholders(ids.length)})`,
        [userId, ...ids],
      ),
    );
    return ids.map((id) => attended.has(id));
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
  };
}

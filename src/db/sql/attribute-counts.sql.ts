import type { DataSource } from 'typeorm';

/**
 * The counted attributes of users and quizzes (contract.md §4): one statement each, answered
 * from indexes (quiz author, answers by quiz, session owner, sessions by quiz, flags by quiz).
 */
const COUNT_SQL = {
  user: {
    popularity: `SELECT COUNT(DISTINCT a.user_id) AS n
                   FROM quizzes q JOIN answers a ON a.quiz_id = q.id
                  WHERE q.author_id = ?`,
    influence: 'SELECT COUNT(*) AS n FROM sessions WHERE owner_id = ?',
  },
  quiz: {
    nbSessions: 'SELECT COUNT(DISTINCT session_id) AS n FROM session_quizzes WHERE quiz_id = ?',
    nbPlayers: 'SELECT COUNT(DISTINCT user_id) AS n FROM answers WHERE quiz_id = ?',
    // (user, quiz) is the key of the flags, so each row is a distinct user.
    nbFavorites: 'SELECT COUNT(*) AS n FROM user_quiz_flags WHERE quiz_id = ? AND favorite = 1',
  },
} as const;

export type CountedItem = keyof typeof COUNT_SQL;
export type CountName<I extends CountedItem> = keyof (typeof COUNT_SQL)[I];

/**
 * A counted attribute of one item, as a number: drivers give COUNT as a number, a bigint or a
 * string depending on the dialect and its options.
 */
export async function countAttribute<I extends CountedItem>(
  read: DataSource,
  item: I,
  name: CountName<I>,
  itemId: number,
): Promise<number> {
  const sql = COUNT_SQL[item][name] as string;
  const rows = (await read.query(sql, [itemId])) as { n: unknown }[];
  return Number(rows[0]?.n ?? 0);
}

import type { RequestContext } from '../../context/request-context';
import { toNumber } from '../../db/sql/dialect';
import { userGroupsWithCountsSql } from '../../db/sql/entity-reads.sql';
import { readableQuizzes } from '../quizzes/quiz.service';
import { quizView, type QuizView } from '../quizzes/quiz.views';
import { userView, type UserView } from '../users/user.views';

/**
 * The items of sets of ids (users, quizzes, groups) as the requester may see them, for both
 * transports. Every read is batched over the whole page, so a page costs the same number of
 * statements at any size.
 */

export interface UserGroupView {
  id: number;
  name: string;
  nbMembers: number;
}

/** Users: the id always, details where the policy allows (userView). */
export function userItems(ctx: RequestContext, ids: readonly number[]): Promise<UserView[]> {
  return Promise.all(ids.map((id) => userView(ctx, id)));
}

/**
 * Quizzes, loaded together. A quiz deleted since the set was made is left out, and so is one
 * the requester may no longer read (made private or draft since): access wins over stability.
 */
export async function quizItems(ctx: RequestContext, ids: readonly number[]): Promise<QuizView[]> {
  return Promise.all((await readableQuizzes(ctx, ids)).map((quiz) => quizView(ctx, quiz)));
}

/** Groups with their member counts, in one statement; a group deleted since is left out. */
export async function userGroupItems(
  ctx: RequestContext,
  ids: readonly number[],
): Promise<UserGroupView[]> {
  if (ids.length === 0) return [];
  const { sql, params } = userGroupsWithCountsSql(ctx.db.dialect, ids);
  const rows = await ctx.loaders.reader.rows<{ id: unknown; name: string; nb: unknown }>(
    sql,
    params,
  );
  const byId = new Map(
    rows.map((row) => [
      toNumber(row.id),
      { id: toNumber(row.id), name: row.name, nbMembers: toNumber(row.nb) },
    ]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

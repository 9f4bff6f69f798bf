import type { Dialect } from './dialect';
import type { EntityRows } from './entity-rows';
import type { SqlStatement } from './statement-batches';

/**
 * The rows of an entity's table whose `column` is one of `values`, in `orderBy` order when
 * given: what the request loaders read by id (a quiz) or by parent (a quiz's questions).
 */
export function entitiesWhereIn(
  dialect: Dialect,
  entity: EntityRows<unknown>,
  column: string,
  values: readonly (number | string)[],
  orderBy?: string,
): SqlStatement {
  return {
    sql: `SELECT ${entity.columns()} FROM ${entity.table}
           WHERE ${column} IN (${dialect.placeholders(values.length)})${orderBy ? ` ORDER BY ${orderBy}` : ''}`,
    params: [...values],
  };
}

/** How many attendees each of the sessions has (sessions without any are absent). */
export function attendeeCountsSql(dialect: Dialect, sessionIds: readonly number[]): SqlStatement {
  return {
    sql: `SELECT session_id, COUNT(*) AS n FROM session_attendees
           WHERE session_id IN (${dialect.placeholders(sessionIds.length)}) GROUP BY session_id`,
    params: [...sessionIds],
  };
}

/** The requester's flags on the quizzes. */
export function quizFlagsSql(
  dialect: Dialect,
  entity: EntityRows<unknown>,
  userId: number,
  quizIds: readonly number[],
): SqlStatement {
  return {
    sql: `SELECT ${entity.columns()} FROM ${entity.table}
           WHERE user_id = ? AND quiz_id IN (${dialect.placeholders(quizIds.length)})`,
    params: [userId, ...quizIds],
  };
}

/** Groups with their member counts (`nb`); a group that is gone has no row. */
export function userGroupsWithCountsSql(dialect: Dialect, ids: readonly number[]): SqlStatement {
  return {
    sql: `SELECT g.id AS id, g.name AS name,
            (SELECT COUNT(*) FROM user_group_members m WHERE m.group_id = g.id) AS nb
       FROM user_groups g WHERE g.id IN (${dialect.placeholders(ids.length)})`,
    params: [...ids],
  };
}

import type { SqlFragment } from './sql-fragment';

/**
 * Where a statement reads the members of a user set or a quiz set: a stored set (its rows of
 * data_set_items), or a SELECT of ids computed as the statement runs (the attendees of a session,
 * say), so that results can be computed for members that were never stored as a set.
 */
export interface MemberSource {
  /** A SELECT of one column, `item_id`, naming every member (a semi-join's subquery). */
  ids(alias: string): SqlFragment;
  /**
   * A FROM item named `alias` with the columns item_id and position (1..n in id order, as a
   * stored set numbers them), and the condition that narrows it to the members, if one does.
   */
  rows(alias: string): { table: SqlFragment; where: SqlFragment | null };
}

/** The members of stored set `dataSetId`. */
export function storedMembers(dataSetId: number): MemberSource {
  return {
    ids: (alias) => ({
      sql: `SELECT ${alias}.item_id FROM data_set_items ${alias} WHERE ${alias}.data_set_id = ?`,
      params: [dataSetId],
    }),
    rows: (alias) => ({
      table: { sql: `data_set_items ${alias}`, params: [] },
      where: { sql: `${alias}.data_set_id = ?`, params: [dataSetId] },
    }),
  };
}

/**
 * The members a SELECT names in its column `id` (duplicates allowed), numbered in id order as a
 * stored set of the same SELECT would be (see idMembers).
 */
export function selectedMembers(select: SqlFragment): MemberSource {
  return {
    ids: (alias) => ({
      sql: `SELECT ${alias}.id AS item_id FROM (${select.sql}) ${alias}`,
      params: [...select.params],
    }),
    rows: (alias) => ({
      table: {
        sql: `(SELECT ROW_NUMBER() OVER (ORDER BY x.id) AS position, x.id AS item_id
          FROM (SELECT DISTINCT m.id AS id FROM (${select.sql}) m) x) ${alias}`,
        params: [...select.params],
      },
      where: null,
    }),
  };
}

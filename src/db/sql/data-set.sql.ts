import type { DataSet } from '../entities/data-set.entity';
import type { Dialect, SqlDate } from './dialect';
import type { RowsQuery } from './rows-query.sql';
import type { SqlFragment, SqlParam } from './sql-fragment';

/**
 * The statements of the set tables: data_sets (one header per set) and the members tables
 * (data_set_items, computed_results, question_statistics, quiz_statistics), whose rows are
 * keyed by (data_set_id, position) so that a page is a range of the primary key. Which members
 * table a set uses is the services' call.
 */

/** A set's members table. */
export type MembersTable =
  'data_set_items' | 'computed_results' | 'question_statistics' | 'quiz_statistics';

/** The header of a new set, its total 0 until its members are written. */
export function headerInsert(
  set: Pick<
    DataSet,
    | 'itemType'
    | 'ownerUserId'
    | 'ownerApiKeyId'
    | 'numberOfItemsPerPage'
    | 'parameters'
    | 'createdAt'
    | 'expiresAt'
  >,
): SqlFragment {
  return {
    sql: `INSERT INTO data_sets (item_type, owner_user_id, owner_api_key_id, total_number_of_items,
                                 number_of_items_per_page, parameters, created_at, expires_at)
          VALUES (?, ?, ?, 0, ?, ?, ?, ?)`,
    params: [
      set.itemType,
      set.ownerUserId,
      set.ownerApiKeyId,
      set.numberOfItemsPerPage,
      set.parameters,
      set.createdAt,
      set.expiresAt,
    ],
  };
}

/** Keeps the id of the header just inserted in a session variable (MySQL batches). */
export function rememberInsertId(dialect: Dialect, variable: SqlParam): SqlFragment {
  return { sql: `SET ? = ${dialect.lastInsertId}`, params: [variable] };
}

/** Positions are 1..n without gaps, so the highest one is the count (one index lookup). */
export function highestPosition(table: MembersTable, dataSetId: SqlParam): SqlFragment {
  return {
    sql: `SELECT COALESCE(MAX(position), 0) AS n FROM ${table} WHERE data_set_id = ?`,
    params: [dataSetId],
  };
}

/** Writes the count of a set's members into its header. */
export function totalUpdate(table: MembersTable, dataSetId: SqlParam): SqlFragment {
  return {
    sql: `UPDATE data_sets SET total_number_of_items =
            (SELECT COALESCE(MAX(position), 0) FROM ${table} WHERE data_set_id = ?)
           WHERE id = ?`,
    params: [dataSetId, dataSetId],
  };
}

/** The members of a set at positions first..last, in position order. */
export function pageRows(
  table: MembersTable,
  columns: readonly string[],
  dataSetId: SqlParam,
  first: number,
  last: number,
): SqlFragment {
  return {
    sql: `SELECT ${columns.join(', ')} FROM ${table}
           WHERE data_set_id = ? AND position BETWEEN ? AND ? ORDER BY position`,
    params: [dataSetId, first, last],
  };
}

/**
 * Up to `limit` members of a set after position `after`, in position order: a keyset read of the
 * primary key, so an export reads a set of any size in bounded steps.
 */
export function membersAfter(
  table: MembersTable,
  columns: readonly string[],
  dataSetId: number,
  after: number,
  limit: number,
): SqlFragment {
  return {
    sql: `SELECT ${columns.join(', ')} FROM ${table}
           WHERE data_set_id = ? AND position > ? ORDER BY position LIMIT ${Math.floor(limit)}`,
    params: [dataSetId, after],
  };
}

/**
 * The members of an id set: `select` names them in its column `id` (duplicates allowed), and
 * they are numbered in id order. `select` may read data_set_items (set algebra, members of a
 * group set): MySQL 8 refuses an INSERT whose subqueries read the target table unless they sit
 * in a materialized derived table, and the DISTINCT derived table below is never merged.
 */
export function idMembers(select: SqlFragment): RowsQuery {
  return {
    with: { sql: '', params: [] },
    columns: [
      { name: 'position', sql: 'ROW_NUMBER() OVER (ORDER BY x.id)' },
      { name: 'item_id', sql: 'x.id' },
    ],
    from: {
      sql: `  FROM (SELECT DISTINCT m.id AS id FROM (${select.sql}) m) x`,
      params: [...select.params],
    },
    orderBy: 'position',
  };
}

/** The members of either of two id sets, as a SELECT of `id`. */
export function unionOfSets(id1: number, id2: number): SqlFragment {
  return {
    sql: `SELECT item_id AS id FROM data_set_items WHERE data_set_id = ?
          UNION
          SELECT item_id AS id FROM data_set_items WHERE data_set_id = ?`,
    params: [id1, id2],
  };
}

/**
 * The members of id set `id1` that are (or, `outside`, are not) in `id2`, as a SELECT of `id`.
 * Membership in the second set is one probe of its (data_set_id, item_id) index.
 */
export function membersIn(id1: number, id2: number, outside: boolean): SqlFragment {
  return {
    sql: `SELECT a.item_id AS id FROM data_set_items a
           WHERE a.data_set_id = ?
             AND ${outside ? 'NOT ' : ''}EXISTS (SELECT 1 FROM data_set_items b
                                WHERE b.data_set_id = ? AND b.item_id = a.item_id)`,
    params: [id1, id2],
  };
}

/** Up to `limit` sets expired at `now`, oldest id first. */
export function expiredSets(now: SqlDate, limit: number): SqlFragment {
  return {
    sql: `SELECT id, item_type, total_number_of_items AS total FROM data_sets
           WHERE expires_at <= ? ORDER BY id LIMIT ${Math.floor(limit)}`,
    params: [now],
  };
}

/** Every member of the given sets. */
export function deleteMembers(
  dialect: Dialect,
  table: MembersTable,
  dataSetIds: readonly number[],
): SqlFragment {
  return {
    sql: `DELETE FROM ${table} WHERE data_set_id IN (${dialect.placeholders(dataSetIds.length)})`,
    params: [...dataSetIds],
  };
}

/** The members of one set at positions first..last. */
export function deleteMemberRange(
  table: MembersTable,
  dataSetId: number,
  first: number,
  last: number,
): SqlFragment {
  return {
    sql: `DELETE FROM ${table} WHERE data_set_id = ? AND position BETWEEN ? AND ?`,
    params: [dataSetId, first, last],
  };
}

/** The headers of the given sets. */
export function deleteHeaders(dialect: Dialect, dataSetIds: readonly number[]): SqlFragment {
  return {
    sql: `DELETE FROM data_sets WHERE id IN (${dialect.placeholders(dataSetIds.length)})`,
    params: [...dataSetIds],
  };
}

import type { SqlDate } from './dialect';
import type { SqlFragment, SqlParam } from './sql-fragment';

/**
 * The access log's statements (contract.md §14.6). An entry is one row per pupil concerned,
 * written by the database from what the read selected (INSERT … SELECT): the process never
 * lists the pupils, and the insert travels in the request's own exchange where it can.
 */

/** Who read, what and when: the columns every row of one entry shares. */
export interface AccessLogHeader {
  /** The dialect's form of the time (Dialect.date). */
  accessedAt: SqlDate;
  requesterUserId: number | null;
  requesterApiKeyId: number | null;
  operation: string;
  requestId: string;
}

const COLUMNS =
  'accessed_at, requester_user_id, requester_api_key_id, operation, request_id, subject_user_id';

function headerParams(header: AccessLogHeader): SqlParam[] {
  return [
    header.accessedAt,
    header.requesterUserId,
    header.requesterApiKeyId,
    header.operation,
    header.requestId,
  ];
}

/**
 * One entry naming the pupils `subjects` selects: a SELECT whose single column is a user id
 * (duplicates and nulls allowed; each pupil is named once). An erased person's id is never
 * named again: after an erasure only its record remains (contract.md §14.6).
 */
export function accessLogInsertFrom(header: AccessLogHeader, subjects: SqlFragment): SqlFragment {
  return {
    sql: `INSERT INTO access_log (${COLUMNS})
          SELECT DISTINCT ?, ?, ?, ?, ?, s.subject_user_id
          FROM (${subjects.sql}) s
          JOIN users su ON su.id = s.subject_user_id AND su.erased_at IS NULL`,
    params: [...headerParams(header), ...subjects.params],
  };
}

/** The entries about a person, oldest first. */
export function accessLogOf(userId: number): SqlFragment {
  return {
    sql: `SELECT accessed_at, requester_user_id, requester_api_key_id, operation, request_id
          FROM access_log WHERE subject_user_id = ? ORDER BY accessed_at, id`,
    params: [userId],
  };
}

/** The pupils of a computed results set: the users its rows name. */
export function computedResultSubjects(dataSetId: SqlParam): SqlFragment {
  return {
    sql: 'SELECT user_id AS subject_user_id FROM computed_results WHERE data_set_id = ?',
    params: [dataSetId],
  };
}

/** The members of a user set. */
export function userSetSubjects(dataSetId: SqlParam): SqlFragment {
  return {
    sql: 'SELECT item_id AS subject_user_id FROM data_set_items WHERE data_set_id = ?',
    params: [dataSetId],
  };
}

/** The records of erasures whose subject hash is `subjectHash` (sha256 of `user:<id>`). */
export function erasuresOf(subjectHash: string): SqlFragment {
  return {
    sql: `SELECT erased_at, erased_by FROM erasures WHERE subject_hash = ? ORDER BY erased_at, id`,
    params: [subjectHash],
  };
}

/** The SELECT naming exactly the given users (one pupil read by id), for accessLogInsertFrom. */
export function subjectsById(userIds: readonly number[]): SqlFragment {
  if (userIds.length === 0) return { sql: 'SELECT NULL AS subject_user_id', params: [] };
  return {
    sql: userIds.map(() => 'SELECT ? AS subject_user_id').join(' UNION ALL '),
    params: [...userIds],
  };
}

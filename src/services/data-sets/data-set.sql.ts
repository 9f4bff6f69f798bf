import type { SqlFragment } from '../../db/sql/sql-fragment';

/** Statement fragments of the set builders; the statements themselves live in src/db/sql. */

export type { SqlParam } from '../../db/sql/sql-fragment';

/** A WHERE fragment and its parameters, in placeholder order. */
export type SqlCondition = SqlFragment;

import type { SqlVariable } from '../../db/statement-batches';

/** Statement fragments shared by the set builders; dialect differences live in db/dialect.ts. */

/** A session variable only in statements that run on MySQL/MariaDB (see withStatementBatches). */
export type SqlParam = string | number | Date | null | SqlVariable;

/** A WHERE fragment and its parameters, in placeholder order. */
export interface SqlCondition {
  sql: string;
  params: SqlParam[];
}

import type { SqlVariable } from './statement-batches';

/** A statement parameter; a session variable only in statements that run in MySQL batches. */
export type SqlParam = string | number | Date | null | SqlVariable;

/** Statement text (or a part of one) and its `?` parameters, in placeholder order. */
export interface SqlFragment {
  sql: string;
  params: SqlParam[];
}

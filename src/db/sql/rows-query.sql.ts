import type { SqlFragment, SqlParam } from './sql-fragment';

/**
 * A SELECT kept in parts, so that the same rows can be read on their own or written into a
 * table by INSERT … SELECT: writing prefixes a column (the set's id) to the select list rather
 * than wrapping the SELECT in a derived table, which the database would materialize first.
 */

/** One output column: its name and the expression that computes it. */
export interface QueryColumn {
  name: string;
  sql: string;
}

export interface RowsQuery {
  /** `WITH …` ahead of the SELECT (or ''), and its parameters. */
  with: SqlFragment;
  columns: readonly QueryColumn[];
  /** Everything after the select list (FROM, WHERE, GROUP BY), and its parameters. */
  from: SqlFragment;
  /** ORDER BY of a query run on its own, by output column names; a stored set has positions. */
  orderBy: string;
}

function statement(query: RowsQuery, lead: SqlFragment | null, tail: string): SqlFragment {
  const list = query.columns.map((column) => `${column.sql} AS ${column.name}`);
  return {
    sql: `${query.with.sql ? `${query.with.sql}\n` : ''}SELECT ${[...(lead ? [lead.sql] : []), ...list].join(',\n       ')}
${query.from.sql}${tail}`,
    params: [...query.with.params, ...(lead?.params ?? []), ...query.from.params],
  };
}

/** The rows as one SELECT that runs on its own, in their order. */
export function selectStatement(query: RowsQuery): SqlFragment {
  return statement(query, null, `\n ORDER BY ${query.orderBy}`);
}

/** INSERT … SELECT of the rows into `table`, each row led by `leadColumn` = `leadValue`. */
export function insertStatement(
  table: string,
  leadColumn: string,
  leadValue: SqlParam,
  query: RowsQuery,
): SqlFragment {
  const written = statement(query, { sql: '?', params: [leadValue] }, '');
  const columns = [leadColumn, ...query.columns.map((column) => column.name)].join(', ');
  return { sql: `INSERT INTO ${table} (${columns})\n${written.sql}`, params: written.params };
}

/**
 * One column of the rows, renamed `as`, as a SELECT in no order (an access log's subjects,
 * written by INSERT … SELECT from the very rows a read shows).
 */
export function selectColumn(query: RowsQuery, name: string, as: string): SqlFragment {
  const column = query.columns.find((candidate) => candidate.name === name);
  if (!column) throw new Error(`the rows have no column ${name}`);
  return statement({ ...query, columns: [{ name: as, sql: column.sql }] }, null, '');
}

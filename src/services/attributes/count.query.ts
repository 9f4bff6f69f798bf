import type { DataSource } from 'typeorm';

/**
 * Runs one `SELECT COUNT(...) AS n` statement and returns n as a number: drivers give COUNT as
 * a number, a bigint or a string depending on the dialect and its options.
 */
export async function countQuery(
  dataSource: DataSource,
  sql: string,
  parameters: readonly (number | string)[],
): Promise<number> {
  const rows = (await dataSource.query(sql, [...parameters])) as { n: unknown }[];
  return Number(rows[0]?.n ?? 0);
}

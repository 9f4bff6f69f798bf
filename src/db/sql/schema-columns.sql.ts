import type { SchemaColumn } from '../../domain/privacy/registry-problems';
import type { Dialect } from './dialect';
import type { RowReader } from './row-reads';

/**
 * Every column of the database's tables, with the table its foreign key references: what the
 * registry of personal data is checked against (contract.md §14.2), read from the catalog of
 * the database itself, so a column a migration added is seen whatever the entities say.
 */
export async function readSchemaColumns(db: {
  readonly dialect: Dialect;
  readonly writeRows: RowReader;
}): Promise<SchemaColumn[]> {
  const rows =
    db.dialect.name === 'mysql'
      ? await db.writeRows.rows<{ t: unknown; c: unknown; r: unknown }>(
          `SELECT c.TABLE_NAME AS t, c.COLUMN_NAME AS c, MAX(k.REFERENCED_TABLE_NAME) AS r
             FROM information_schema.COLUMNS c
             JOIN information_schema.TABLES tb
               ON tb.TABLE_SCHEMA = c.TABLE_SCHEMA AND tb.TABLE_NAME = c.TABLE_NAME
              AND tb.TABLE_TYPE = 'BASE TABLE'
             LEFT JOIN information_schema.KEY_COLUMN_USAGE k
               ON k.TABLE_SCHEMA = c.TABLE_SCHEMA AND k.TABLE_NAME = c.TABLE_NAME
              AND k.COLUMN_NAME = c.COLUMN_NAME AND k.REFERENCED_TABLE_NAME IS NOT NULL
            WHERE c.TABLE_SCHEMA = DATABASE()
            GROUP BY c.TABLE_NAME, c.COLUMN_NAME, c.ORDINAL_POSITION
            ORDER BY c.TABLE_NAME, c.ORDINAL_POSITION`,
          [],
        )
      : await db.writeRows.rows<{ t: unknown; c: unknown; r: unknown }>(
          `SELECT m.name AS t, p.name AS c,
                  (SELECT f."table" FROM pragma_foreign_key_list(m.name) f
                    WHERE f."from" = p.name LIMIT 1) AS r
             FROM sqlite_master m, pragma_table_info(m.name) p
            WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            ORDER BY m.name, p.cid`,
          [],
        );
  return rows.map(({ t, c, r }) => ({
    table: String(t),
    column: String(c),
    ...(r === null || r === undefined ? {} : { references: String(r) }),
  }));
}

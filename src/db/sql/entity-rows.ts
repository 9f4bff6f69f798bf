import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';

/**
 * An entity's columns for a raw SELECT, and the mapping of its rows back to the entity. The
 * columns come from the entity's metadata and each value goes through the driver's own
 * conversion (booleans, datetimes), so a row read here equals what the repository would load,
 * without its query builder and hydration (test/integration/entity-rows.contract.test.ts holds
 * them equal).
 */
export interface EntityRows<E> {
  /** The table's name. */
  readonly table: string;
  /** The select list, each column qualified by `alias` when one is given. */
  columns(alias?: string): string;
  fromRow(row: Record<string, unknown>): E;
}

interface HydratingDriver {
  prepareHydratedValue(value: unknown, column: ColumnMetadata): unknown;
}

const cache = new WeakMap<
  DataSource,
  Map<EntityTarget<ObjectLiteral>, EntityRows<ObjectLiteral>>
>();

function build<E extends ObjectLiteral>(
  source: DataSource,
  target: EntityTarget<E>,
): EntityRows<E> {
  const metadata = source.getMetadata(target);
  const columns = metadata.columns.filter((column) => !column.isVirtual);
  const driver = source.driver as unknown as HydratingDriver;
  const create = metadata.target as new () => E;
  return {
    table: metadata.tableName,
    columns: (alias) =>
      columns
        .map((column) => (alias ? `${alias}.${column.databaseName}` : column.databaseName))
        .join(', '),
    fromRow: (row) => {
      const entity = new create() as Record<string, unknown>;
      for (const column of columns) {
        entity[column.propertyName] = driver.prepareHydratedValue(row[column.databaseName], column);
      }
      return entity as E;
    },
  };
}

/** The raw-row mapping of an entity on this data source (built once). */
export function entityRows<E extends ObjectLiteral>(
  source: DataSource,
  target: EntityTarget<E>,
): EntityRows<E> {
  let bySource = cache.get(source);
  if (!bySource) {
    bySource = new Map();
    cache.set(source, bySource);
  }
  let rows = bySource.get(target);
  if (!rows) {
    rows = build(source, target);
    bySource.set(target, rows);
  }
  return rows as EntityRows<E>;
}

import type { RequestContext } from '../../context/request-context';
import { toNumber } from '../../db/sql/dialect';
import type { MembersTable } from '../../db/sql/data-set.sql';
import { DATA_SET_ITEM_TYPES, type DataSetItemType } from '../../domain/data-sets/item-types';
import type { DataSetPage, ResultRow } from './data-set.types';

/**
 * What the set engine knows of a kind of set, one per item type: where its members are stored,
 * how a page reads them and how its items are shown. Each kind is declared by the service that
 * makes its sets (results, statistics, data-sets) and registered by one registry above them all
 * (services/set-kinds), so that the engine, below every kind, imports none.
 */
export interface SetKind<Item = unknown> {
  itemType: DataSetItemType;
  membersTable: MembersTable;
  /** The select list of a page, over the members table. */
  pageColumns: readonly string[];
  /** Members are ids (pages give itemIds) or rows (pages give resultRows). */
  members: 'ids' | 'rows';
  /** computeDataSet may combine two sets of this kind; otherwise its name in the refusal. */
  combinable: true | { refusedAs: string };
  /**
   * The items of a page as the requester may see them, for both transports. Every read is
   * batched over the whole page, so a page costs the same number of statements at any size.
   */
  items(ctx: RequestContext, page: DataSetPage): Promise<Item[]>;
  /**
   * An export of a set of this kind names pupils (contract.md §14.6): records them in the access
   * log before the export starts. Absent when its items name no one.
   */
  recordExport?(ctx: RequestContext, dataSetId: number): Promise<void>;
}

const kinds = new Map<string, SetKind>();

/** Registers the kinds of sets (services/set-kinds does, once per process); a kind again replaces it. */
export function registerSetKinds(registered: readonly SetKind[]): void {
  for (const kind of registered) kinds.set(kind.itemType, kind);
}

/** A kind not registered is a wiring mistake: said loudly rather than stored in the wrong table. */
function registered(itemType: DataSetItemType): SetKind {
  const kind = kinds.get(itemType);
  if (!kind) {
    throw new Error(
      `the set kind ${itemType} is not registered (import services/set-kinds/set-kinds.registry)`,
    );
  }
  return kind;
}

/** The kind of an item type read from the database; an unknown one is stored like ids (user). */
export function kindOf(itemType: string): SetKind {
  const known = (DATA_SET_ITEM_TYPES as readonly string[]).includes(itemType);
  return registered(known ? (itemType as DataSetItemType) : 'user');
}

/** Every members table, each once, in item type order; every kind must be registered. */
export function membersTables(): readonly MembersTable[] {
  return [...new Set(DATA_SET_ITEM_TYPES.map((itemType) => registered(itemType).membersTable))];
}

/** The members part of a page from the rows its page statement read. */
export function pageMembers(
  kind: SetKind,
  rows: ResultRow[],
): Pick<DataSetPage, 'itemIds' | 'resultRows'> {
  return kind.members === 'ids'
    ? { itemIds: rows.map((row) => toNumber(row.id)), resultRows: [] }
    : { itemIds: [], resultRows: rows };
}

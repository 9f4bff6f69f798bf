import type { AppDeps } from '../../context/request-context';
import { toNumber } from '../../db/sql/dialect';
import {
  deleteHeaders,
  deleteMemberRange,
  deleteMembers,
  expiredSets,
} from '../../db/sql/data-set.sql';
import type { SqlFragment } from '../../db/sql/sql-fragment';
import { forgetDataSets } from './data-set.cache';
import { kindOf, membersTables } from './set-kind';

export interface PurgeOptions {
  /** Sets whose expiry is at or before this instant are purged (default: now). */
  now?: Date;
  /** Sets read per round. */
  setsPerRound?: number;
  /** Items deleted per statement, at most (bounds locks and undo logs). */
  itemsPerStatement?: number;
}

/**
 * The cleanup job: deletes expired sets in rounds, items before their set, so an interrupted
 * run leaves an expired set for the next run rather than orphan items. Returns the sets purged.
 */
export async function purgeExpiredDataSets(
  deps: Pick<AppDeps, 'db'>,
  options: PurgeOptions = {},
): Promise<number> {
  const { dialect, write } = deps.db;
  const run = (statement: SqlFragment) => write.query(statement.sql, statement.params);
  const now = dialect.date(options.now ?? new Date());
  const setsPerRound = Math.max(1, Math.floor(options.setsPerRound ?? 100));
  const itemsPerStatement = Math.max(1, Math.floor(options.itemsPerStatement ?? 10_000));
  let purged = 0;
  for (;;) {
    const sets = (
      (await run(expiredSets(now, setsPerRound))) as {
        id: unknown;
        item_type: string;
        total: unknown;
      }[]
    ).map((row) => ({
      id: toNumber(row.id),
      table: kindOf(row.item_type).membersTable,
      total: toNumber(row.total),
    }));
    if (sets.length === 0) return purged;

    // Small sets share one DELETE while their items add up to the bound; large ones go by ranges.
    for (const table of membersTables()) {
      let group: number[] = [];
      let groupItems = 0;
      const flush = async () => {
        if (group.length === 0) return;
        await run(deleteMembers(dialect, table, group));
        group = [];
        groupItems = 0;
      };
      for (const set of sets.filter((candidate) => candidate.table === table)) {
        if (set.total <= itemsPerStatement) {
          if (groupItems + set.total > itemsPerStatement) await flush();
          group.push(set.id);
          groupItems += set.total;
          continue;
        }
        for (let from = 1; from <= set.total; from += itemsPerStatement) {
          await run(deleteMemberRange(table, set.id, from, from + itemsPerStatement - 1));
        }
        // Nothing should lie past the total; this keeps a miscounted set from leaving orphans.
        await run(deleteMembers(dialect, table, [set.id]));
      }
      await flush();
    }
    const ids = sets.map((set) => set.id);
    forgetDataSets(write, ids);
    await run(deleteHeaders(dialect, ids));
    purged += sets.length;
  }
}

import { expiryIn } from '../../db/column-types';
import type { QueryRunner } from 'typeorm';
import type { AppDeps, RequestContext } from '../../app/request-context';
import { DataSet, type DataSetItemType } from '../../db/entities/data-set.entity';
import { dataSetOwner, dataSetReadDecision } from '../../domain/policy/access.policy';
import { Errors } from '../../errors';
import {
  isGiven,
  parseIdParam,
  parseIntegerParam,
  parsePageSize,
  type RawParam,
} from './data-set.params';
import { placeholders, serializedOnSqlite, sqlDate, toNumber, type SqlParam } from './data-set.sql';

/**
 * Data sets in the database (contract.md §5): computed once by INSERT … SELECT when made, then
 * paged by ranges of (data_set_id, position). Members never pass through the process; a page
 * is the most it ever holds.
 */

/** One page of a set, as the domain knows it; the views turn ids into items. */
export interface DataSetPage {
  dataSetId: number;
  itemType: DataSetItemType;
  /** 0 for an empty set. */
  numberOfPages: number;
  numberOfItemsPerPage: number;
  totalNumberOfItems: number;
  /** 1-based; 1 for an empty set. */
  currentPageIndex: number;
  /** Members of the page in position order (user, quiz and userGroup sets; [] for computed results). */
  itemIds: number[];
  /** Positions the page covers (lastPosition < firstPosition when it is empty); computed results are read by them. */
  firstPosition: number;
  lastPosition: number;
  /** What made the set (data_sets.parameters), for views of computed results. */
  parameters: string | null;
}

export interface DataSetOptions {
  /** 1 to 1000; the configured page size when absent. */
  numberOfItemsPerPage?: RawParam;
  /** What made the set, as JSON (computed results record their request here). */
  parameters?: string | null;
}

/**
 * Writes the items of a new set inside its transaction; returns how many it wrote. An
 * INSERT … SELECT that reads data_set_items must do so from a materialized derived table (see
 * createDataSet) to run on MySQL 8.
 */
export type DataSetFiller = (runner: QueryRunner, dataSetId: number) => Promise<number>;

export const DATA_SET_OPERATORS = ['union', 'intersection', 'difference'] as const;
export type DataSetOperator = (typeof DATA_SET_OPERATORS)[number];

async function countItems(runner: QueryRunner, dataSetId: number): Promise<number> {
  // Positions are 1..n without gaps, so the highest one is the count (one index lookup).
  const rows = (await runner.query(
    'SELECT MAX(position) AS n FROM data_set_items WHERE data_set_id = ?',
    [dataSetId],
  )) as { n: unknown }[];
  return toNumber(rows[0]?.n);
}

/**
 * Makes a set owned by the requester and fills it, all in one transaction: a set is either
 * complete or absent. The lower-level form, for sets whose items are not plain ids.
 */
export async function createDataSetWith(
  ctx: RequestContext,
  itemType: DataSetItemType,
  fill: DataSetFiller,
  options: DataSetOptions = {},
): Promise<DataSet> {
  const numberOfItemsPerPage = parsePageSize(
    ctx.operation,
    options.numberOfItemsPerPage,
    ctx.config.pageSize,
  );
  const now = new Date();
  const set = ctx.dataSource.getRepository(DataSet).create({
    itemType,
    ...dataSetOwner(ctx.requester),
    totalNumberOfItems: 0,
    numberOfItemsPerPage,
    parameters: options.parameters ?? null,
    createdAt: now,
    expiresAt: expiryIn(ctx.config.dataSetTtlSeconds, now.getTime()),
  });
  return serializedOnSqlite(ctx.dataSource, async () => {
    const runner = ctx.dataSource.createQueryRunner();
    await runner.connect();
    try {
      // On MySQL/MariaDB, READ COMMITTED keeps INSERT … SELECT from share-locking every row it
      // reads (answers being written meanwhile are not blocked, and the statement runs faster).
      // The set still reads one consistent snapshot per statement.
      await (ctx.dataSource.options.type === 'better-sqlite3'
        ? runner.startTransaction()
        : runner.startTransaction('READ COMMITTED'));
      try {
        const inserted = await runner.manager.insert(DataSet, set);
        set.id = toNumber(inserted.identifiers[0]?.id);
        set.totalNumberOfItems = await fill(runner, set.id);
        await runner.manager.update(
          DataSet,
          { id: set.id },
          { totalNumberOfItems: set.totalNumberOfItems },
        );
        await runner.commitTransaction();
        return set;
      } catch (error) {
        // The original error says what failed; a failing rollback must not hide it.
        await runner.rollbackTransaction().catch(() => undefined);
        throw error;
      }
    } finally {
      await runner.release();
    }
  });
}

/**
 * Makes a set of ids: `selectSql` is a SELECT whose column `id` names the members (duplicates
 * allowed), `params` its `?` parameters. Members are numbered in id order by the database.
 *
 * `selectSql` may read data_set_items (set algebra, members of a group set): MySQL 8 refuses
 * an INSERT whose subqueries read the target table unless they sit in a materialized derived
 * table, and the DISTINCT derived table below is never merged, so it always is.
 */
export async function createDataSet(
  ctx: RequestContext,
  itemType: DataSetItemType,
  selectSql: string,
  params: readonly SqlParam[],
  options: DataSetOptions = {},
): Promise<DataSet> {
  return createDataSetWith(
    ctx,
    itemType,
    async (runner, dataSetId) => {
      const result = await runner.query(
        `INSERT INTO data_set_items (data_set_id, position, item_id)
         SELECT ?, ROW_NUMBER() OVER (ORDER BY x.id), x.id
           FROM (SELECT DISTINCT m.id AS id FROM (${selectSql}) m) x`,
        [dataSetId, ...params],
        true,
      );
      return typeof result.affected === 'number' ? result.affected : countItems(runner, dataSetId);
    },
    options,
  );
}

function accessReason(dataSetId: number): string {
  return `access to data set ${dataSetId} is denied`;
}

/**
 * A set the requester may read, else the contract's error: unknown or expired → 404 on
 * `parameterName`; another requester's → 403 (401 when an anonymous requester reads a user's).
 */
export async function requireReadableDataSet(
  ctx: RequestContext,
  dataSetId: number,
  parameterName = 'dataSetId',
): Promise<DataSet> {
  const set = await ctx.dataSource.getRepository(DataSet).findOneBy({ id: dataSetId });
  if (!set || set.expiresAt.getTime() <= Date.now()) {
    throw Errors.notFound(
      ctx.operation,
      parameterName,
      String(dataSetId),
      `data set ${dataSetId} does not exist or has expired`,
    );
  }
  const decision = dataSetReadDecision(ctx.requester, set);
  if (decision === 'needsToken') throw Errors.unauthenticated(ctx.operation, accessReason(set.id));
  if (decision === 'denied') throw Errors.forbidden(ctx.operation, accessReason(set.id));
  return set;
}

/** A required id parameter: absent → MissingParameterException, malformed → BadParameterException. */
export function requiredIdParam(ctx: RequestContext, name: string, value: RawParam): number {
  if (!isGiven(value)) throw Errors.missingParameter(ctx.operation, name);
  return parseIdParam(ctx.operation, name, value);
}

export function numberOfPages(set: Pick<DataSet, 'totalNumberOfItems' | 'numberOfItemsPerPage'>) {
  return Math.ceil(set.totalNumberOfItems / set.numberOfItemsPerPage);
}

/** A page of a set already known to be readable (pageIndex 1..max(1, numberOfPages)). */
export async function pageOf(
  ctx: RequestContext,
  set: DataSet,
  pageIndex: RawParam = 1,
): Promise<DataSetPage> {
  const pages = numberOfPages(set);
  const index = isGiven(pageIndex)
    ? parseIntegerParam(ctx.operation, 'pageIndex', pageIndex, 1, Math.max(1, pages))
    : 1;
  const firstPosition = (index - 1) * set.numberOfItemsPerPage + 1;
  const lastPosition = Math.min(index * set.numberOfItemsPerPage, set.totalNumberOfItems);
  let itemIds: number[] = [];
  if (set.itemType !== 'computedResult' && lastPosition >= firstPosition) {
    const rows = (await ctx.dataSource.query(
      `SELECT item_id AS id FROM data_set_items
        WHERE data_set_id = ? AND position BETWEEN ? AND ? ORDER BY position`,
      [set.id, firstPosition, lastPosition],
    )) as { id: unknown }[];
    itemIds = rows.map((row) => toNumber(row.id));
  }
  return {
    dataSetId: set.id,
    itemType: set.itemType,
    numberOfPages: pages,
    numberOfItemsPerPage: set.numberOfItemsPerPage,
    totalNumberOfItems: set.totalNumberOfItems,
    currentPageIndex: index,
    itemIds,
    firstPosition,
    lastPosition,
    parameters: set.parameters,
  };
}

/** getDataSetPage: a page of one of the requester's sets. */
export async function getPage(
  ctx: RequestContext,
  dataSetId: RawParam,
  pageIndex: RawParam = 1,
): Promise<DataSetPage> {
  const set = await requireReadableDataSet(ctx, requiredIdParam(ctx, 'dataSetId', dataSetId));
  return pageOf(ctx, set, pageIndex);
}

/** Members of the result of `operator` over two sets, as a SELECT of `id` (see createDataSet). */
function combination(operator: DataSetOperator, id1: number, id2: number) {
  if (operator === 'union') {
    return {
      sql: `SELECT item_id AS id FROM data_set_items WHERE data_set_id = ?
            UNION
            SELECT item_id AS id FROM data_set_items WHERE data_set_id = ?`,
      params: [id1, id2],
    };
  }
  // Membership in the second set is one probe of its (data_set_id, item_id) index.
  const not = operator === 'difference' ? 'NOT ' : '';
  return {
    sql: `SELECT a.item_id AS id FROM data_set_items a
           WHERE a.data_set_id = ?
             AND ${not}EXISTS (SELECT 1 FROM data_set_items b
                                WHERE b.data_set_id = ? AND b.item_id = a.item_id)`,
    params: [id1, id2],
  };
}

/**
 * computeDataSet: a new set (the requester's) from two of the requester's sets of the same
 * item type, computed in the database. Returns its first page. Without numberOfItemsPerPage
 * the new set pages like the first one.
 */
export async function computeDataSet(
  ctx: RequestContext,
  dataSetId1: RawParam,
  dataSetId2: RawParam,
  operator: RawParam,
  options: Pick<DataSetOptions, 'numberOfItemsPerPage'> = {},
): Promise<DataSetPage> {
  const id1 = requiredIdParam(ctx, 'dataSetId1', dataSetId1);
  const id2 = requiredIdParam(ctx, 'dataSetId2', dataSetId2);
  if (!isGiven(operator)) throw Errors.missingParameter(ctx.operation, 'operator');
  const op = String(operator).trim();
  if (!(DATA_SET_OPERATORS as readonly string[]).includes(op)) {
    throw Errors.badParameter(
      ctx.operation,
      'operator',
      operator,
      `must be one of ${DATA_SET_OPERATORS.join(', ')}`,
    );
  }
  const set1 = await requireReadableDataSet(ctx, id1, 'dataSetId1');
  const set2 = await requireReadableDataSet(ctx, id2, 'dataSetId2');
  if (set1.itemType === 'computedResult') {
    throw Errors.badParameter(
      ctx.operation,
      'dataSetId1',
      String(id1),
      'sets of computed results cannot be combined',
    );
  }
  if (set2.itemType !== set1.itemType) {
    throw Errors.badParameter(
      ctx.operation,
      'dataSetId2',
      String(id2),
      `holds ${set2.itemType} items, not ${set1.itemType} items like dataSetId1`,
    );
  }
  const { sql, params } = combination(op as DataSetOperator, set1.id, set2.id);
  const made = await createDataSet(ctx, set1.itemType, sql, params, {
    numberOfItemsPerPage: isGiven(options.numberOfItemsPerPage)
      ? options.numberOfItemsPerPage
      : set1.numberOfItemsPerPage,
  });
  return pageOf(ctx, made, 1);
}

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
  deps: Pick<AppDeps, 'dataSource'>,
  options: PurgeOptions = {},
): Promise<number> {
  const { dataSource } = deps;
  const now = sqlDate(dataSource, options.now ?? new Date());
  const setsPerRound = Math.max(1, Math.floor(options.setsPerRound ?? 100));
  const itemsPerStatement = Math.max(1, Math.floor(options.itemsPerStatement ?? 10_000));
  let purged = 0;
  for (;;) {
    const sets = (
      (await dataSource.query(
        `SELECT id, total_number_of_items AS total FROM data_sets
          WHERE expires_at <= ? ORDER BY id LIMIT ${setsPerRound}`,
        [now],
      )) as { id: unknown; total: unknown }[]
    ).map((row) => ({ id: toNumber(row.id), total: toNumber(row.total) }));
    if (sets.length === 0) return purged;

    // Small sets share one DELETE while their items add up to the bound; large ones go by ranges.
    let group: number[] = [];
    let groupItems = 0;
    const flush = async () => {
      if (group.length === 0) return;
      await dataSource.query(
        `DELETE FROM data_set_items WHERE data_set_id IN (${placeholders(group.length)})`,
        group,
      );
      group = [];
      groupItems = 0;
    };
    for (const set of sets) {
      if (set.total <= itemsPerStatement) {
        if (groupItems + set.total > itemsPerStatement) await flush();
        group.push(set.id);
        groupItems += set.total;
        continue;
      }
      for (let from = 1; from <= set.total; from += itemsPerStatement) {
        await dataSource.query(
          'DELETE FROM data_set_items WHERE data_set_id = ? AND position BETWEEN ? AND ?',
          [set.id, from, from + itemsPerStatement - 1],
        );
      }
      // Nothing should lie past the total; this keeps a miscounted set from leaving orphans.
      await dataSource.query('DELETE FROM data_set_items WHERE data_set_id = ?', [set.id]);
    }
    await flush();
    const ids = sets.map((set) => set.id);
    await dataSource.query(`DELETE FROM data_sets WHERE id IN (${placeholders(ids.length)})`, ids);
    purged += sets.length;
  }
}

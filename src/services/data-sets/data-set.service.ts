import { expiryIn } from '../../db/column-types';
import { In } from 'typeorm';
import type { AppDeps, RequestContext } from '../../context/request-context';
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
import { sqlVariable, type SqlStatement, type SqlVariable } from '../../db/statement-batches';
import { forgetDataSets, rememberDataSet, rememberedDataSet } from './data-set.cache';
import { toNumber } from '../../db/dialect';
import type { SqlParam } from './data-set.sql';

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
  /** The page's rows of computed_results in position order (computed results; [] otherwise). */
  resultRows: ResultRow[];
  /** What made the set (data_sets.parameters), for views of computed results. */
  parameters: string | null;
}

/** A row of computed_results as the page statement reads it. */
export type ResultRow = Record<string, unknown>;

export interface DataSetOptions {
  /** 1 to 1000; the configured page size when absent. */
  numberOfItemsPerPage?: RawParam;
  /** What made the set, as JSON (computed results record their request here). */
  parameters?: string | null;
}

/**
 * The id of a set being written, as a statement parameter: the number on SQLite, the session
 * variable that holds it on MySQL/MariaDB (the id is only known once the batch runs).
 */
export type DataSetId = number | SqlVariable;

/**
 * The INSERT … SELECT that writes the members of a new set, given its id, at positions 1..n
 * (into computed_results for computed results, else into data_set_items). One that reads
 * data_set_items while writing it must read it from a materialized derived table (see
 * createDataSet) to run on MySQL 8.
 */
export type MembersStatement = (dataSetId: DataSetId) => SqlStatement;

export const DATA_SET_OPERATORS = ['union', 'intersection', 'difference'] as const;
export type DataSetOperator = (typeof DATA_SET_OPERATORS)[number];

/** The table that holds the members of sets of this item type. */
function membersTable(itemType: DataSetItemType): 'computed_results' | 'data_set_items' {
  return itemType === 'computedResult' ? 'computed_results' : 'data_set_items';
}

/** The members of a set at positions first..last, in position order. */
function pageRowsStatement(
  itemType: DataSetItemType,
  dataSetId: DataSetId,
  first: number,
  last: number,
): SqlStatement {
  const columns =
    itemType === 'computedResult'
      ? `position, user_id, quiz_id, session_id, aggregation_function,
         nb_good_answers, good_answers_percent, percentile, nb_answers, duration`
      : 'item_id AS id';
  return {
    sql: `SELECT ${columns} FROM ${membersTable(itemType)}
           WHERE data_set_id = ? AND position BETWEEN ? AND ? ORDER BY position`,
    params: [dataSetId, first, last],
  };
}

/** Page `index` of a set from the rows its page statement read. */
function pageFrom(set: DataSet, index: number, rows: ResultRow[]): DataSetPage {
  const results = set.itemType === 'computedResult';
  return {
    dataSetId: set.id,
    itemType: set.itemType,
    numberOfPages: numberOfPages(set),
    numberOfItemsPerPage: set.numberOfItemsPerPage,
    totalNumberOfItems: set.totalNumberOfItems,
    currentPageIndex: index,
    itemIds: results ? [] : rows.map((row) => toNumber(row.id)),
    resultRows: results ? rows : [],
    parameters: set.parameters,
  };
}

/** The count an INSERT reports, whatever the driver's result shape. */
function affectedRows(result: unknown): number | undefined {
  const raw = result as { affectedRows?: unknown; affected?: unknown } | null;
  const value = raw?.affectedRows ?? raw?.affected;
  return typeof value === 'number' ? value : undefined;
}

interface WrittenSet {
  id: number;
  total: number;
  firstPageRows: ResultRow[];
}

/**
 * MySQL and MariaDB: the set in one transaction sent as one batch of statements, a single
 * exchange with the server: its row (whose id a session variable keeps for the statements that
 * follow), its members, its total, its first page, COMMIT. The server stops a batch at its
 * first failing statement, so COMMIT only runs when everything before it succeeded, and
 * nothing runs outside the transaction even when the failure ended it (a deadlock); after a
 * failure the transaction is rolled back.
 * READ COMMITTED keeps INSERT … SELECT from share-locking every answer it reads (answers being
 * written meanwhile are not blocked); each statement still reads one consistent snapshot.
 */
async function writeOnMysql(
  ctx: RequestContext,
  set: DataSet,
  members: MembersStatement,
): Promise<WrittenSet> {
  const dataSetId = sqlVariable('data_set_id');
  const table = membersTable(set.itemType);
  return ctx.db.batches(async (run) => {
    try {
      const [, , header, , written, , firstPage] = await run([
        { sql: 'SET TRANSACTION ISOLATION LEVEL READ COMMITTED', params: [] },
        { sql: 'START TRANSACTION', params: [] },
        {
          sql: `INSERT INTO data_sets (item_type, owner_user_id, owner_api_key_id, total_number_of_items,
                                       number_of_items_per_page, parameters, created_at, expires_at)
                VALUES (?, ?, ?, 0, ?, ?, ?, ?)`,
          params: [
            set.itemType,
            set.ownerUserId,
            set.ownerApiKeyId,
            set.numberOfItemsPerPage,
            set.parameters,
            set.createdAt,
            set.expiresAt,
          ],
        },
        { sql: 'SET ? = LAST_INSERT_ID()', params: [dataSetId] },
        members(dataSetId),
        // Positions are 1..n without gaps, so the highest one is the count (one index lookup).
        {
          sql: `UPDATE data_sets SET total_number_of_items =
                  (SELECT COALESCE(MAX(position), 0) FROM ${table} WHERE data_set_id = ?)
                 WHERE id = ?`,
          params: [dataSetId, dataSetId],
        },
        pageRowsStatement(set.itemType, dataSetId, 1, set.numberOfItemsPerPage),
        { sql: 'COMMIT', params: [] },
      ]);
      return {
        id: toNumber((header as { insertId?: unknown }).insertId),
        total: toNumber(affectedRows(written)),
        firstPageRows: firstPage as ResultRow[],
      };
    } catch (error) {
      // The original error says what failed; a failing rollback must not hide it.
      await run([{ sql: 'ROLLBACK', params: [] }]).catch(() => undefined);
      throw error;
    }
  });
}

/** SQLite: the same transaction through TypeORM, one statement at a time (no round trips). */
async function writeOnSqlite(
  ctx: RequestContext,
  set: DataSet,
  members: MembersStatement,
): Promise<WrittenSet> {
  return ctx.db.exclusive(async () => {
    const runner = ctx.db.write.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      try {
        const inserted = await runner.manager.insert(DataSet, { ...set });
        const id = toNumber(inserted.identifiers[0]?.id);
        const statement = members(id);
        const written = await runner.query(statement.sql, statement.params, true);
        const [{ n }] = (await runner.query(
          `SELECT COALESCE(MAX(position), 0) AS n FROM ${membersTable(set.itemType)} WHERE data_set_id = ?`,
          [id],
        )) as { n: unknown }[];
        const total = affectedRows(written) ?? toNumber(n);
        await runner.manager.update(DataSet, { id }, { totalNumberOfItems: total });
        const page = pageRowsStatement(set.itemType, id, 1, set.numberOfItemsPerPage);
        const firstPageRows = (await runner.query(page.sql, page.params)) as ResultRow[];
        await runner.commitTransaction();
        return { id, total, firstPageRows };
      } catch (error) {
        await runner.rollbackTransaction().catch(() => undefined);
        throw error;
      }
    } finally {
      await runner.release();
    }
  });
}

/**
 * Makes a set owned by the requester and fills it, all in one transaction: a set is either
 * complete or absent. Returns its first page. The lower-level form, for sets whose members are
 * not plain ids.
 */
export async function createDataSetWith(
  ctx: RequestContext,
  itemType: DataSetItemType,
  members: MembersStatement,
  options: DataSetOptions = {},
): Promise<DataSetPage> {
  const numberOfItemsPerPage = parsePageSize(
    ctx.operation,
    options.numberOfItemsPerPage,
    ctx.config.pageSize,
  );
  const now = new Date();
  const set = ctx.db.write.getRepository(DataSet).create({
    itemType,
    ...dataSetOwner(ctx.requester),
    totalNumberOfItems: 0,
    numberOfItemsPerPage,
    parameters: options.parameters ?? null,
    createdAt: now,
    expiresAt: expiryIn(ctx.config.dataSetTtlSeconds, now.getTime()),
  });
  const written =
    ctx.db.dialect.name === 'mysql'
      ? await writeOnMysql(ctx, set, members)
      : await writeOnSqlite(ctx, set, members);
  set.id = written.id;
  set.totalNumberOfItems = written.total;
  rememberDataSet(ctx.db.write, set);
  return pageFrom(set, 1, written.firstPageRows);
}

/**
 * Makes a set of ids: `selectSql` is a SELECT whose column `id` names the members (duplicates
 * allowed), `params` its `?` parameters. Members are numbered in id order by the database.
 * Returns the first page.
 *
 * `selectSql` may read data_set_items (set algebra, members of a group set): MySQL 8 refuses
 * an INSERT whose subqueries read the target table unless they sit in a materialized derived
 * table, and the DISTINCT derived table below is never merged, so it always is.
 */
export async function createDataSet(
  ctx: RequestContext,
  itemType: Exclude<DataSetItemType, 'computedResult'>,
  selectSql: string,
  params: readonly SqlParam[],
  options: DataSetOptions = {},
): Promise<DataSetPage> {
  return createDataSetWith(
    ctx,
    itemType,
    (dataSetId) => ({
      sql: `INSERT INTO data_set_items (data_set_id, position, item_id)
            SELECT ?, ROW_NUMBER() OVER (ORDER BY x.id), x.id
              FROM (SELECT DISTINCT m.id AS id FROM (${selectSql}) m) x`,
      params: [dataSetId, ...params],
    }),
    options,
  );
}

function accessReason(dataSetId: number): string {
  return `access to data set ${dataSetId} is denied`;
}

/** A set id to check, and the parameter that named it (for the error). */
export interface DataSetReference {
  id: number;
  parameterName: string;
}

/**
 * Headers of the given sets, remembered ones from memory and the others in one statement.
 * Unknown ids are absent from the map.
 */
async function dataSetHeaders(
  ctx: RequestContext,
  ids: readonly number[],
): Promise<Map<number, DataSet>> {
  const headers = new Map<number, DataSet>();
  const missing: number[] = [];
  for (const id of ids) {
    const known = rememberedDataSet(ctx.db.write, id);
    if (known) headers.set(id, known);
    else if (!missing.includes(id)) missing.push(id);
  }
  if (missing.length > 0) {
    for (const set of await ctx.db.write.getRepository(DataSet).findBy({ id: In(missing) })) {
      rememberDataSet(ctx.db.write, set);
      headers.set(set.id, set);
    }
  }
  return headers;
}

/** The set, if the requester may read it; else the contract's error on `parameterName`. */
function checkReadable(
  ctx: RequestContext,
  set: DataSet | undefined,
  { id, parameterName }: DataSetReference,
): DataSet {
  if (!set || set.expiresAt.getTime() <= Date.now()) {
    throw Errors.notFound(
      ctx.operation,
      parameterName,
      String(id),
      `data set ${id} does not exist or has expired`,
    );
  }
  const decision = dataSetReadDecision(ctx.requester, set);
  if (decision === 'needsToken') throw Errors.unauthenticated(ctx.operation, accessReason(set.id));
  if (decision === 'denied') throw Errors.forbidden(ctx.operation, accessReason(set.id));
  return set;
}

/**
 * Sets the requester may read, in the order given, else the contract's error for the first
 * that fails: unknown or expired → 404 on its parameter; another requester's → 403 (401 when
 * an anonymous requester reads a user's). `check` runs on each readable set before the next
 * is considered (an item type check, say), so errors come in parameter order.
 */
export async function requireReadableDataSets(
  ctx: RequestContext,
  references: readonly DataSetReference[],
  check: (set: DataSet, reference: DataSetReference) => void = () => undefined,
): Promise<DataSet[]> {
  const headers = await dataSetHeaders(
    ctx,
    references.map((reference) => reference.id),
  );
  return references.map((reference) => {
    const set = checkReadable(ctx, headers.get(reference.id), reference);
    check(set, reference);
    return set;
  });
}

/** One set the requester may read (see requireReadableDataSets). */
export async function requireReadableDataSet(
  ctx: RequestContext,
  dataSetId: number,
  parameterName = 'dataSetId',
): Promise<DataSet> {
  const [set] = await requireReadableDataSets(ctx, [{ id: dataSetId, parameterName }]);
  return set as DataSet;
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
  const index = isGiven(pageIndex)
    ? parseIntegerParam(ctx.operation, 'pageIndex', pageIndex, 1, Math.max(1, numberOfPages(set)))
    : 1;
  const firstPosition = (index - 1) * set.numberOfItemsPerPage + 1;
  const lastPosition = Math.min(index * set.numberOfItemsPerPage, set.totalNumberOfItems);
  if (lastPosition < firstPosition) return pageFrom(set, index, []);
  const { sql, params } = pageRowsStatement(set.itemType, set.id, firstPosition, lastPosition);
  return pageFrom(set, index, (await ctx.db.write.query(sql, params)) as ResultRow[]);
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
  const [set1, set2] = (await requireReadableDataSets(ctx, [
    { id: id1, parameterName: 'dataSetId1' },
    { id: id2, parameterName: 'dataSetId2' },
  ])) as [DataSet, DataSet];
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
  return createDataSet(ctx, set1.itemType, sql, params, {
    numberOfItemsPerPage: isGiven(options.numberOfItemsPerPage)
      ? options.numberOfItemsPerPage
      : set1.numberOfItemsPerPage,
  });
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
  deps: Pick<AppDeps, 'db'>,
  options: PurgeOptions = {},
): Promise<number> {
  const dataSource = deps.db.write;
  const now = deps.db.dialect.date(options.now ?? new Date());
  const setsPerRound = Math.max(1, Math.floor(options.setsPerRound ?? 100));
  const itemsPerStatement = Math.max(1, Math.floor(options.itemsPerStatement ?? 10_000));
  let purged = 0;
  for (;;) {
    const sets = (
      (await dataSource.query(
        `SELECT id, item_type, total_number_of_items AS total FROM data_sets
          WHERE expires_at <= ? ORDER BY id LIMIT ${setsPerRound}`,
        [now],
      )) as { id: unknown; item_type: DataSetItemType; total: unknown }[]
    ).map((row) => ({
      id: toNumber(row.id),
      table: membersTable(row.item_type),
      total: toNumber(row.total),
    }));
    if (sets.length === 0) return purged;

    // Small sets share one DELETE while their items add up to the bound; large ones go by ranges.
    for (const table of ['data_set_items', 'computed_results'] as const) {
      let group: number[] = [];
      let groupItems = 0;
      const flush = async () => {
        if (group.length === 0) return;
        await dataSource.query(
          `DELETE FROM ${table} WHERE data_set_id IN (${deps.db.dialect.placeholders(group.length)})`,
          group,
        );
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
          await dataSource.query(
            `DELETE FROM ${table} WHERE data_set_id = ? AND position BETWEEN ? AND ?`,
            [set.id, from, from + itemsPerStatement - 1],
          );
        }
        // Nothing should lie past the total; this keeps a miscounted set from leaving orphans.
        await dataSource.query(`DELETE FROM ${table} WHERE data_set_id = ?`, [set.id]);
      }
      await flush();
    }
    const ids = sets.map((set) => set.id);
    forgetDataSets(dataSource, ids);
    await dataSource.query(
      `DELETE FROM data_sets WHERE id IN (${deps.db.dialect.placeholders(ids.length)})`,
      ids,
    );
    purged += sets.length;
  }
}

import type { RequestContext } from '../../context/request-context';
import type { DataSet } from '../../db/entities/data-set.entity';
import { idMembers, membersIn, unionOfSets } from '../../db/sql/data-set.sql';
import type { SqlFragment } from '../../db/sql/sql-fragment';
import { Errors } from '../../errors';
import {
  requiredIdParam,
  requireReadableDataSet,
  requireReadableDataSets,
} from './data-set.access';
import { kindOf } from './set-kind';
import { pageOf } from './data-set.paging';
import { isGiven, type RawParam } from './data-set.params';
import { createDataSetFrom } from './data-set.store';
import type { DataSetOptions, DataSetPage } from './data-set.types';

/**
 * The operations on sets themselves (contract.md §6), whatever their kind: getDataSetPage and
 * computeDataSet. The roles they rest on have modules of their own, re-exported here for the
 * transports and jobs: data-set.store (writing), data-set.access (who may read),
 * data-set.paging, data-set.purge. Kinds are registered by services/set-kinds (set-kind.ts).
 */

export type {
  DataSetId,
  DataSetOptions,
  DataSetPage,
  DataSetReference,
  MembersStatement,
  ResultRow,
} from './data-set.types';
export { createDataSet, createDataSetFrom, createDataSetWith } from './data-set.store';
export {
  requiredIdParam,
  requireReadableDataSet,
  requireReadableDataSets,
} from './data-set.access';
export { numberOfPages, pageOf } from './data-set.paging';
export { purgeExpiredDataSets, type PurgeOptions } from './data-set.purge';

export const DATA_SET_OPERATORS = ['union', 'intersection', 'difference'] as const;
export type DataSetOperator = (typeof DATA_SET_OPERATORS)[number];

/** getDataSetPage: a page of one of the requester's sets. */
export async function getPage(
  ctx: RequestContext,
  dataSetId: RawParam,
  pageIndex: RawParam = 1,
): Promise<DataSetPage> {
  const set = await requireReadableDataSet(ctx, requiredIdParam(ctx, 'dataSetId', dataSetId));
  return pageOf(ctx, set, pageIndex);
}

/** Members of the result of `operator` over two id sets, as a SELECT of `id`. */
function combination(operator: DataSetOperator, id1: number, id2: number): SqlFragment {
  return operator === 'union'
    ? unionOfSets(id1, id2)
    : membersIn(id1, id2, operator === 'difference');
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
  const { combinable } = kindOf(set1.itemType);
  if (combinable !== true) {
    throw Errors.badParameter(
      ctx.operation,
      'dataSetId1',
      String(id1),
      `${combinable.refusedAs} cannot be combined`,
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
  const members = idMembers(combination(op as DataSetOperator, set1.id, set2.id));
  return createDataSetFrom(ctx, set1.itemType, members, {
    numberOfItemsPerPage: isGiven(options.numberOfItemsPerPage)
      ? options.numberOfItemsPerPage
      : set1.numberOfItemsPerPage,
  });
}

import type { RequestContext } from '../../context/request-context';
import { DataSet } from '../../db/entities/data-set.entity';
import { entityRows } from '../../db/sql/entity-rows';
import { entitiesWhereIn } from '../../db/sql/entity-reads.sql';
import { dataSetReadDecision } from '../../domain/policy/access.policy';
import { Errors } from '../../errors';
import { forgetDataSets, rememberDataSet, rememberedDataSet } from './data-set.cache';
import { isGiven, parseIdParam, type RawParam } from './data-set.params';
import type { DataSetReference } from './data-set.types';

/**
 * Who may read a set (contract.md §5): its maker, until it expires. Headers come from this
 * process's cache when it knows them (data-set.cache.ts), else from one statement.
 */

function accessReason(dataSetId: number): string {
  return `access to data set ${dataSetId} is denied`;
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
    const sets = entityRows(ctx.db.write, DataSet);
    const { sql, params } = entitiesWhereIn(ctx.db.dialect, sets, 'id', missing);
    for (const row of await ctx.db.writeRows.rows(sql, params)) {
      const set = sets.fromRow(row);
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

/**
 * Re-reads a remembered set's header from the database: an erasure (contract.md §14.4) deletes
 * the sets that held the person from any instance, so a page that finds fewer members than its
 * header promises asks the database whether the set is still there (404 if not).
 */
export async function confirmStillStored(
  ctx: RequestContext,
  set: DataSet,
  parameterName = 'dataSetId',
): Promise<void> {
  forgetDataSets(ctx.db.write, [set.id]);
  const headers = await dataSetHeaders(ctx, [set.id]);
  checkReadable(ctx, headers.get(set.id), { id: set.id, parameterName });
}

/** A required id parameter: absent → MissingParameterException, malformed → BadParameterException. */
export function requiredIdParam(ctx: RequestContext, name: string, value: RawParam): number {
  if (!isGiven(value)) throw Errors.missingParameter(ctx.operation, name);
  return parseIdParam(ctx.operation, name, value);
}

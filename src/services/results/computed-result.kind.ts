import { computedResultSubjects } from '../../db/sql/access-log.sql';
import { recordAccess } from '../access-log/access-log.service';
import type { SetKind } from '../sets/set-kind';
import { computedResultItems, type ComputedResultView } from './computed-result.views';
import { RESULT_COLUMNS } from '../../domain/results/result-types.registry';

/**
 * Sets of computed results (getResults): rows in computed_results. Every result column is read;
 * the views pick the set's result types (data_sets.parameters).
 */
export const COMPUTED_RESULT_KIND: SetKind<ComputedResultView> = {
  itemType: 'computedResult',
  membersTable: 'computed_results',
  pageColumns: [
    'position',
    'user_id',
    'quiz_id',
    'session_id',
    'aggregation_function',
    ...RESULT_COLUMNS,
  ],
  members: 'rows',
  combinable: { refusedAs: 'sets of computed results' },
  items: (_ctx, page) => Promise.resolve(computedResultItems(page)),
  // The export of results names the users of its rows (contract.md §14.6).
  recordExport: (ctx, dataSetId) => recordAccess(ctx, computedResultSubjects(dataSetId)),
};

import { InitialSchema1795313647797 } from './1795313647797-InitialSchema';
import { ComputedResultsTable1795322000197 } from './1795322000197-ComputedResultsTable';

/** Applied in this order; a landed migration is never edited, a change is a new one. */
export const SQLITE_MIGRATIONS = [InitialSchema1795313647797, ComputedResultsTable1795322000197];

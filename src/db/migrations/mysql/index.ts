import { InitialSchema1795313645140 } from './1795313645140-InitialSchema';

/** Applied in this order; a landed migration is never edited, a change is a new one. */
export const MYSQL_MIGRATIONS = [InitialSchema1795313645140];

import { InitialSchema1795313647797 } from './1795313647797-InitialSchema';
import { ComputedResultsTable1795322000197 } from './1795322000197-ComputedResultsTable';
import { RateLimits1795476446594 } from './1795476446594-RateLimits';
import { SessionIngestion1795491348597 } from './1795491348597-SessionIngestion';
import { ItemStatistics1795528532848 } from './1795528532848-ItemStatistics';
import { SessionJoinCodes1795790178321 } from './1795790178321-SessionJoinCodes';
import { PupilDataRights1795809701183 } from './1795809701183-PupilDataRights';
import { Webhooks1795818284171 } from './1795818284171-Webhooks';

/** Applied in this order; a landed migration is never edited, a change is a new one. */
export const SQLITE_MIGRATIONS = [
  InitialSchema1795313647797,
  ComputedResultsTable1795322000197,
  RateLimits1795476446594,
  SessionIngestion1795491348597,
  ItemStatistics1795528532848,
  SessionJoinCodes1795790178321,
  PupilDataRights1795809701183,
  Webhooks1795818284171,
];

import { InitialSchema1795313645140 } from './1795313645140-InitialSchema';
import { ComputedResultsTable1795321995755 } from './1795321995755-ComputedResultsTable';
import { RateLimits1795476442554 } from './1795476442554-RateLimits';
import { SessionIngestion1795491343684 } from './1795491343684-SessionIngestion';
import { ItemStatistics1795528520589 } from './1795528520589-ItemStatistics';
import { SessionJoinCodes1795790134407 } from './1795790134407-SessionJoinCodes';
import { PupilDataRights1795809699477 } from './1795809699477-PupilDataRights';
import { Webhooks1795818281877 } from './1795818281877-Webhooks';

/** Applied in this order; a landed migration is never edited, a change is a new one. */
export const MYSQL_MIGRATIONS = [
  InitialSchema1795313645140,
  ComputedResultsTable1795321995755,
  RateLimits1795476442554,
  SessionIngestion1795491343684,
  ItemStatistics1795528520589,
  SessionJoinCodes1795790134407,
  PupilDataRights1795809699477,
  Webhooks1795818281877,
];

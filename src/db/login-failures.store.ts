import { MoreThan, Not } from 'typeorm';
import type { Database } from './database';
import { LoginFailure } from './entities';

/** The failures counted together: those of one account hash, or of one client address. */
export type FailureScope = { accountHash: string } | { clientIp: string };

/** Failures of a scope since a moment, but for the attempt being checked (`own`). */
export interface RecentFailures {
  scope: FailureScope;
  own: number;
  since: Date;
}

function whereOf({ scope, own, since }: RecentFailures) {
  return { ...scope, id: Not(own), failedAt: MoreThan(since) };
}

/** Records a failed attempt (before it is checked); returns the id of its row. */
export async function insertLoginFailure(
  db: Database,
  fields: Pick<LoginFailure, 'accountHash' | 'clientIp' | 'failedAt'>,
): Promise<number> {
  const inserted = await db.write.getRepository(LoginFailure).insert(fields);
  return Number((inserted.identifiers[0] as { id: number }).id);
}

/** Forgets a recorded attempt that turned out to be no failure. */
export async function deleteLoginFailure(db: Database, id: number): Promise<void> {
  await db.write.getRepository(LoginFailure).delete({ id });
}

/** How many failures of the scope fall in the window. */
export function countRecentFailures(db: Database, recent: RecentFailures): Promise<number> {
  return db.write.getRepository(LoginFailure).count({ where: whereOf(recent) });
}

/** When the failure at `skip` (oldest first) of the window happened, if there is one. */
export async function recentFailureAt(
  db: Database,
  recent: RecentFailures,
  skip: number,
): Promise<Date | undefined> {
  const [pivot] = await db.write.getRepository(LoginFailure).find({
    where: whereOf(recent),
    order: { failedAt: 'ASC', id: 'ASC' },
    skip,
    take: 1,
  });
  return pivot?.failedAt;
}

import { credentialChangeStatement } from '../../db/rate-limit-lease.store';
import type { QueryRunner } from 'typeorm';
import type { AppDeps } from '../../context/request-context';
import { wholeSeconds } from '../../db/entities/column-types';
import { deleteHeaders, deleteMembers, type MembersTable } from '../../db/sql/data-set.sql';
import { toNumber } from '../../db/sql/dialect';
import {
  countRows,
  joinCodesOfOwnerCleared,
  deleteRows,
  erasureRecordInsert,
  personRow,
  sessionsOfPerson,
  setsOfPerson,
  tokensThroughKeysOf,
  tombstoneUpdate,
} from '../../db/sql/erasure.sql';
import { bumpSessionVersion } from '../../db/sql/session-changes.sql';
import {
  pendingMessagesNaming,
  rewrittenMessage,
  userErasedOutboxEntries,
} from '../../db/sql/webhook-outbox.sql';
import { withoutUser } from '../../domain/webhooks/webhook-events';
import type { SqlFragment, SqlParam } from '../../db/sql/sql-fragment';
import { PERSONAL_DATA_REGISTRY } from '../../domain/privacy/personal-data.registry';
import type { TableEntry } from '../../domain/privacy/personal-data.types';
import { Errors } from '../../errors';
import { erasureSubjectHash } from '../access-log/access-log.service';
import { accountHashOf } from '../auth/login.service';
import { forgetDataSets } from '../sets/data-set.cache';
import { kindOf } from '../sets/set-kind';
import { joinerHash } from '../sessions/session-join.service';

/**
 * Erasure of a person (contract.md §14.4), driven by the registry of personal data: each table
 * is erased as its entry says, so a table added to the registry is erased without a change here.
 */

const OPERATION = 'user:erase';

/** What an erasure does (or, dry, would do) to one table. */
export interface ErasureLine {
  table: string;
  rows: number;
  action: TableEntry['erasure'];
  /** Whose rows these are, where they are not the person's own. */
  note?: string;
}

export interface ErasureReport {
  userId: number;
  dryRun: boolean;
  tables: ErasureLine[];
}

export interface ErasureOptions {
  dryRun?: boolean;
  /** The operator, as recorded in the erasure record. */
  erasedBy: string;
}

interface SetRow {
  id: number;
  table: MembersTable;
  total: number;
}

type Run = (
  statement: SqlFragment,
) => Promise<{ rows: Record<string, unknown>[]; affected: number }>;

function runnerOf(runner: QueryRunner): Run {
  return async (statement) => {
    const result = await runner.query(statement.sql, statement.params, true);
    return {
      rows: Array.isArray(result.records) ? (result.records as Record<string, unknown>[]) : [],
      affected: toNumber(result.affected ?? 0),
    };
  };
}

/** The values an entry's erasedRows match for this person. */
function erasedValues(entry: TableEntry, userId: number, email: string | null): SqlParam[] {
  if (entry.erasedRows?.matches !== 'accountHashes') return [userId];
  return email === null ? [joinerHash(userId)] : [joinerHash(userId), accountHashOf(email)];
}

/** Set ids per statement: bounds a statement's parameters (SQLite allows 32,766) and locks. */
const SETS_PER_STATEMENT = 500;

function setRowsOf(rows: Record<string, unknown>[]): SetRow[] {
  return rows.map((row) => ({
    id: toNumber(row.id),
    table: kindOf(String(row.item_type)).membersTable,
    total: toNumber(row.total),
  }));
}

/**
 * Deletes what names the person: every set that holds them or was computed from them (members,
 * then headers, so none outlives the rows it was computed from), then their rows in every
 * table the registry erases by deleting.
 */
async function removeRows(
  deps: Pick<AppDeps, 'db'>,
  run: Run,
  userId: number,
  email: string | null,
  sets: readonly SetRow[],
): Promise<void> {
  const { dialect } = deps.db;
  for (let from = 0; from < sets.length; from += SETS_PER_STATEMENT) {
    const chunk = sets.slice(from, from + SETS_PER_STATEMENT);
    for (const table of new Set(chunk.map((set) => set.table))) {
      const ids = chunk.filter((set) => set.table === table).map((set) => set.id);
      await run(deleteMembers(dialect, table, ids));
    }
    await run(
      deleteHeaders(
        dialect,
        chunk.map((set) => set.id),
      ),
    );
  }
  for (const entry of PERSONAL_DATA_REGISTRY) {
    if (entry.erasure !== 'delete' || !entry.erasedRows) continue;
    const values = erasedValues(entry, userId, email);
    await run(deleteRows(dialect, entry.table, entry.erasedRows.column, values));
  }
}

/**
 * Counts (and without dryRun erases) what the database holds about the person, in one
 * transaction. READ COMMITTED on MySQL/MariaDB: the deletes lock the person's rows only, so
 * other pupils' answers keep being written meanwhile.
 */
async function eraseIn(
  deps: Pick<AppDeps, 'db'>,
  runner: QueryRunner,
  userId: number,
  options: ErasureOptions,
): Promise<{ report: ErasureReport; sessions: number[]; sets: number[]; email: string | null }> {
  const { dialect } = deps.db;
  const run = runnerOf(runner);
  const [person] = (await run(personRow(dialect, userId))).rows;
  if (!person) {
    throw Errors.notFound(OPERATION, 'user', String(userId), `user ${userId} does not exist`);
  }
  if (person.erased_at !== null && person.erased_at !== undefined) {
    throw Errors.badParameter(OPERATION, 'user', String(userId), 'was erased already');
  }
  const email = typeof person.email === 'string' ? person.email : null;
  const sessions = (await run(sessionsOfPerson(userId))).rows.map((r) => toNumber(r.session_id));
  const sets = setRowsOf((await run(setsOfPerson(userId))).rows);
  const setIds = sets.map((set) => set.id);

  const tables: ErasureLine[] = [];
  for (const entry of PERSONAL_DATA_REGISTRY) {
    const line = { table: entry.table, action: entry.erasure };
    if (entry.erasure === 'tombstone') {
      tables.push({ ...line, rows: 1 });
    } else if (entry.erasure === 'expire') {
      const rows =
        entry.table === 'data_sets'
          ? sets.length
          : sets.filter((set) => set.table === entry.table).reduce((n, set) => n + set.total, 0);
      tables.push({ ...line, rows });
    } else if (entry.erasure === 'keep-for-others' || entry.erasure === 'delete') {
      const column =
        entry.erasedRows?.column ??
        Object.keys(entry.columns).find((name) => entry.columns[name]?.keepsTombstoneId);
      if (!column) continue;
      const values = erasedValues(entry, userId, email);
      const [count] = (await run(countRows(dialect, entry.table, column, values))).rows;
      tables.push({ ...line, rows: toNumber(count?.n ?? 0) });
    }
  }
  // A key the person owns goes with them, and with it the sign-ins of anyone through it.
  const [others] = (await run(tokensThroughKeysOf(userId))).rows;
  tables.push({
    table: 'access_tokens',
    rows: toNumber(others?.n ?? 0),
    action: 'delete',
    note: "other people's, through the person's API keys",
  });
  const report = { userId, dryRun: options.dryRun === true, tables };
  if (options.dryRun) return { report, sessions, sets: [], email };

  // §16: no message still to send names them after user.erased; then user.erased, to those
  // the person was known to, before their memberships go.
  for (const row of (await run(pendingMessagesNaming(userId))).rows) {
    const json = withoutUser(String(row.json), userId);
    const source = row.source === 'event' ? 'event' : 'outbox';
    if (json !== null) await run(rewrittenMessage(source, toNumber(row.id), json));
  }
  await run(userErasedOutboxEntries(userId, Date.now()));
  await removeRows(deps, run, userId, email, sets);
  const now = dialect.date(wholeSeconds(new Date()));
  await run(joinCodesOfOwnerCleared(userId));
  await run(tombstoneUpdate(userId, now));
  await run(erasureRecordInsert(erasureSubjectHash(userId), now, options.erasedBy));
  // Their tokens and keys are gone: every instance drops what it keeps of them (§14.4).
  await run(credentialChangeStatement(dialect));
  return { report, sessions, sets: setIds, email };
}

/**
 * Runs `work` in one transaction (READ COMMITTED on MySQL/MariaDB), committed unless
 * `rollBack`, rolled back on failure.
 */
async function inTransaction<T>(
  deps: Pick<AppDeps, 'db'>,
  work: (run: Run, runner: QueryRunner) => Promise<T>,
  rollBack = false,
): Promise<T> {
  const { db } = deps;
  return db.exclusive(async () => {
    const runner = db.write.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction(db.dialect.name === 'mysql' ? 'READ COMMITTED' : undefined);
      try {
        const done = await work(runnerOf(runner), runner);
        await (rollBack ? runner.rollbackTransaction() : runner.commitTransaction());
        return done;
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
 * Erases a person (or with dryRun counts what would be): see contract.md §14.4. After the
 * commit, the sessions they were in change version, so live subscribers recompute without them
 * on every instance, and this instance forgets the sets it remembered.
 */
export async function eraseUser(
  deps: Pick<AppDeps, 'db'> & Partial<Pick<AppDeps, 'credentialsCache'>>,
  userId: number,
  options: ErasureOptions,
): Promise<ErasureReport> {
  const { db } = deps;
  const outcome = await inTransaction(
    deps,
    (_run, runner) => eraseIn(deps, runner, userId, options),
    options.dryRun === true,
  );
  if (!options.dryRun) {
    // A write that was already under way (an answer of the person waiting on their row, a set
    // computed from a snapshot taken before the commit) may commit after the erasure: a second
    // pass, once no credential of theirs is left, removes what such a write left.
    const remnants = await inTransaction(deps, (run) =>
      run(setsOfPerson(userId)).then(({ rows }) =>
        removeRows(deps, run, userId, outcome.email, setRowsOf(rows)).then(() => setRowsOf(rows)),
      ),
    );
    forgetDataSets(db.write, [...outcome.sets, ...remnants.map((set) => set.id)]);
    // At once here; the other instances within a second (credential-changes.watch.ts).
    deps.credentialsCache?.clear();
    const now = new Date();
    for (const sessionId of outcome.sessions) {
      const bump = bumpSessionVersion(db.dialect, sessionId, now);
      await db.exclusive(() => db.write.query(bump.sql, bump.params));
    }
  }
  return outcome.report;
}

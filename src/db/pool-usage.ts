import type { DataSource } from 'typeorm';
import { openedBatchPools, type BatchPoolRole } from './sql/statement-batches';

/** What one MySQL/MariaDB pool holds at a moment. */
export interface PoolUsage {
  /** `queries` (TypeORM's pool), `batch_writes` or `batch_reads` (statement-batches.ts). */
  pool: string;
  /** Connections lent out (or being opened). */
  inUse: number;
  /** Open connections waiting in the pool. */
  idle: number;
  /** Callers waiting for a connection. */
  waiting: number;
  /** Most connections the pool opens. */
  limit: number;
}

/**
 * mysql2's pool keeps its connections in three queues it does not expose otherwise (checked
 * against mysql2 3.24: lib/base/pool.js); a pool without them is skipped, not misreported.
 */
interface Mysql2PoolInternals {
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
  config?: { connectionLimit?: number };
}

function usageOf(name: string, pool: unknown, limit: number): PoolUsage | undefined {
  const internals = pool as Mysql2PoolInternals;
  const all = internals._allConnections?.length;
  const free = internals._freeConnections?.length;
  const waiting = internals._connectionQueue?.length;
  if (all === undefined || free === undefined || waiting === undefined) return undefined;
  return {
    pool: name,
    inUse: all - free,
    idle: free,
    waiting,
    limit: internals.config?.connectionLimit ?? limit,
  };
}

const BATCH_POOLS: readonly [BatchPoolRole, string][] = [
  ['writes', 'batch_writes'],
  ['reads', 'batch_reads'],
  ['charges', 'batch_charges'],
];

/**
 * The usage of a MySQL/MariaDB data source's pools, read at once from memory (no statement):
 * TypeORM's pool, then the batch pools (empty until their first batch opens them).
 */
export function poolUsageOf(dataSource: DataSource, poolSize: number): PoolUsage[] {
  const usage: PoolUsage[] = [];
  const driverPool = (dataSource.driver as unknown as { pool?: unknown }).pool;
  const queries = driverPool ? usageOf('queries', driverPool, poolSize) : undefined;
  if (queries) usage.push(queries);
  const opened = openedBatchPools(dataSource);
  for (const [role, name] of BATCH_POOLS) {
    const pool = opened.get(role);
    const read = pool
      ? usageOf(name, pool, poolSize)
      : { pool: name, inUse: 0, idle: 0, waiting: 0, limit: poolSize };
    if (read) usage.push(read);
  }
  return usage;
}

import mysql2 from 'mysql2';
import { followNodes, type NodeSelector } from './failover';

/**
 * Causal reads on a Galera cluster. Galera replicates synchronously but applies asynchronously:
 * a set written through node A and paged through node B at once could find nothing on B yet.
 * With `wsrep_sync_wait = 1` a node waits, before each SELECT, SHOW and BEGIN, until it has
 * applied every write the cluster committed before it; every read then sees what any instance
 * wrote before it (credentials, data sets, rate-limit counts, change markers), as on one server.
 *
 * Set on every connection of a cluster, not on chosen reads: an instance shares all its state
 * through the database, so nearly every read needs it, and a forgotten read would be a bug only a
 * cluster shows. Detected, not configured: the first connection of each pool asks `wsrep_on`;
 * on a single server (wsrep_on OFF, or MySQL without the variable) nothing more is ever sent, so
 * reads there cost exactly what they did.
 */

/** READ: SELECT, SHOW and BEGIN / START TRANSACTION wait for causality. */
export const CAUSAL_READS_LEVEL = 1;

const SET_CAUSAL_READS = `SET SESSION wsrep_sync_wait = IF(@@SESSION.wsrep_on, ${CAUSAL_READS_LEVEL}, 0)`;

/** The parts of a mysql2 (callback API) connection and pool used here. */
interface HookedConnection {
  query(sql: string, callback: (error: Error | null, rows?: unknown) => void): void;
}
interface HookedPool {
  on(event: 'connection', listener: (connection: HookedConnection) => void): void;
}

/** What a mysql2 module wrapped for one data source knows of its server. */
export interface ClusterAwareDriver {
  /** True once a connection found wsrep_on, false once one found it off; undefined before. */
  readonly isGalera: boolean | undefined;
}

/**
 * mysql2's module for TypeORM's `driver` option (its own pool and the statement batches both
 * create their pools through it): each new connection gets causal reads, queued on it before
 * anything its first user sends, when the server is a Galera node; with a node selector, every
 * pool follows it from node to node (failover.ts).
 */
export function clusterAwareMysql(selector?: NodeSelector): typeof mysql2 & ClusterAwareDriver {
  let isGalera: boolean | undefined;
  const prepare = (connection: HookedConnection) => {
    if (isGalera === false) return;
    // Errors are answers here, not failures: MySQL has no wsrep variables (a single server).
    connection.query(SET_CAUSAL_READS, () => undefined);
    if (isGalera === undefined) {
      connection.query("SHOW VARIABLES LIKE 'wsrep_on'", (error, rows) => {
        const value = (rows as { Value?: string }[] | undefined)?.[0]?.Value;
        if (isGalera === undefined) isGalera = !error && value === 'ON';
      });
    }
  };
  const wrapped = Object.create(mysql2) as typeof mysql2 & ClusterAwareDriver;
  Object.defineProperty(wrapped, 'isGalera', { get: () => isGalera });
  wrapped.createPool = ((options: object) => {
    const pool = mysql2.createPool(options as never) as unknown as HookedPool;
    pool.on('connection', prepare);
    return selector ? followNodes(pool, selector) : pool;
  }) as typeof mysql2.createPool;
  return wrapped;
}

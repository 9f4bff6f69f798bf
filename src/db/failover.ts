import { isNodeUnavailable } from './sql-errors';

/**
 * Failover between the database nodes of DATABASE_URL (mariadb://user@n1:3306,n2:3306/quiz).
 *
 * An instance uses one node at a time, the first of its list, and stays on it while it answers:
 * all its connections then see one node's order of commits, and a node that comes back does not
 * pull the instance over while it is still catching up. When the node stops answering (refused
 * or lost connections, a Galera node outside the primary component, a read-only node), the
 * instance moves to the next node of the list, and on past the last back to the first, so a node
 * that returned is used again once the one in use fails. Every mysql2 pool of a data source
 * (TypeORM's, the statement batches') is made through one module that holds one selector, so
 * they all move together; nothing restarts.
 */

/** How long opening a connection may take before the node counts as not answering. */
export const CONNECT_TIMEOUT_MS = 3000;

export interface DatabaseNode {
  host: string;
  port: number;
}

export function nodeName(node: DatabaseNode): string {
  return `${node.host}:${node.port}`;
}

function sameNode(a: DatabaseNode, b: DatabaseNode): boolean {
  return a.host === b.host && a.port === b.port;
}

export type NodeSwitchListener = (from: DatabaseNode, to: DatabaseNode, cause: unknown) => void;

/** The ordered node list of one data source and the node its connections go to now. */
export class NodeSelector {
  private index = 0;
  private readonly listeners: NodeSwitchListener[] = [];

  constructor(readonly nodes: readonly DatabaseNode[]) {
    if (nodes.length === 0) throw new Error('a database needs at least one node');
  }

  get current(): DatabaseNode {
    return this.nodes[this.index] as DatabaseNode;
  }

  onSwitch(listener: NodeSwitchListener): void {
    this.listeners.push(listener);
  }

  /**
   * `node` stopped answering. Only a failure of the node in use moves on: many connections to a
   * dead node fail at once, and a late report about a node already left must not skip a good one.
   */
  failed(node: DatabaseNode, cause: unknown): void {
    if (this.nodes.length < 2 || !sameNode(node, this.current)) return;
    const from = this.current;
    this.index = (this.index + 1) % this.nodes.length;
    for (const listener of this.listeners) listener(from, this.current, cause);
  }
}

/** The parts of a mysql2 (callback API) connection and pool used here. */
interface NodeConnection {
  config: DatabaseNode;
  on(event: 'error', listener: (error: Error) => void): void;
  query(...args: unknown[]): unknown;
  destroy(): void;
}
type ConnectionCallback = (error: Error | null, connection?: NodeConnection) => void;
interface NodePool {
  config: { connectionConfig: DatabaseNode };
  getConnection(callback: ConnectionCallback): void;
  on(event: 'connection', listener: (connection: NodeConnection) => void): void;
}

/** Reports the node of `connection` as failed when a statement on it finds it not answering. */
function watchConnection(connection: NodeConnection, selector: NodeSelector): void {
  const node = { host: connection.config.host, port: connection.config.port };
  // Lost connections (a killed node) reach the pool's connections as 'error' events.
  connection.on('error', (error) => {
    if (isNodeUnavailable(error)) selector.failed(node, error);
  });
  // Refusals on a live connection (1047 outside the primary component, 1290 read only) come
  // as statement errors; the connection is left to its user and dropped at its next checkout.
  const query = connection.query.bind(connection);
  connection.query = (...args: unknown[]) => {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (error: Error | null, ...rest: unknown[]) => {
        if (error && isNodeUnavailable(error)) selector.failed(node, error);
        return (callback as (...values: unknown[]) => unknown)(error, ...rest);
      };
    }
    return query(...args);
  };
}

/**
 * Makes a mysql2 pool follow `selector`: new connections open to the node in use, a connection
 * that cannot be opened moves the selector on and the next node is tried at once (each node
 * once per checkout), and a pooled connection to a node left behind is closed, not handed out.
 */
export function followNodes<P>(pool: P, selector: NodeSelector): P {
  const target = pool as unknown as NodePool;
  const connectionConfig = target.config.connectionConfig;
  const getConnection = target.getConnection.bind(target);
  target.on('connection', (connection) => watchConnection(connection, selector));
  target.getConnection = (callback) => {
    const attempt = (triesLeft: number) => {
      const node = selector.current;
      // mysql2 copies this config into each connection it opens (pool.js _createConnectionConfig).
      connectionConfig.host = node.host;
      connectionConfig.port = node.port;
      getConnection((error, connection) => {
        if (error) {
          if (!isNodeUnavailable(error)) return callback(error);
          selector.failed(node, error);
          return triesLeft > 1 ? attempt(triesLeft - 1) : callback(error);
        }
        const used = connection as NodeConnection;
        if (!sameNode(used.config, selector.current)) {
          // Removed from the pool by destroy(), so this loop ends with the free connections.
          used.destroy();
          return attempt(triesLeft);
        }
        return callback(null, used);
      });
    };
    attempt(selector.nodes.length);
  };
  return pool;
}

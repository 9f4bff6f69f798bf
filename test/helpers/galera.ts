import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';

/**
 * A MariaDB Galera cluster of local `mariadbd` processes on free loopback ports, in a folder of
 * its own: for the cluster tests (test/cluster) and for operators trying the service on a cluster
 * (`npm run cluster -- start`, test/helpers/galera-cluster.cli.ts). Needs Debian's
 * `mariadb-server`, `galera-4` and `rsync`, and root (the nodes run as the `mysql` user: run as
 * root, the rsync state transfer of a joining node fails with "Permission denied").
 */

const run = promisify(execFile);

export const GALERA_PROVIDER = '/usr/lib/galera/libgalera_smm.so';
const MARIADBD = '/usr/sbin/mariadbd';
/** Seconds a node may take to start, join and be synced (an rsync state transfer included). */
const NODE_READY_SECONDS = 120;

export interface NodePorts {
  /** The SQL port clients connect to. */
  port: number;
  /** Galera's group communication. */
  gmcast: number;
  /** Incremental state transfer (a rejoining node receives the writes it missed). */
  ist: number;
  /** Full state transfer (rsync). */
  sst: number;
}

export interface GaleraNodeState {
  index: number;
  dir: string;
  ports: NodePorts;
  pid?: number;
}

/** What `start` records, so another process (the CLI's stop, kill, restart) can find the nodes. */
export interface GaleraClusterState {
  dir: string;
  name: string;
  nodes: GaleraNodeState[];
  /** Milliseconds from the first process start to three synced nodes. */
  startupMs: number;
}

export interface NodeStatus {
  index: number;
  port: number;
  running: boolean;
  clusterSize?: number;
  ready?: string;
  state?: string;
}

/** A port nobody listens on now: the system's pick for a socket bound to port 0. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function freePorts(count: number): Promise<number[]> {
  // Held open together, so that no two picks are the same port.
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The URL of a node for the service and the tests: root over TCP, empty password. */
export function nodeUrl(node: Pick<GaleraNodeState, 'ports'>, database = ''): string {
  return `mariadb://root@127.0.0.1:${node.ports.port}/${database}`;
}

function isRunning(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function nodeArgs(state: GaleraClusterState, node: GaleraNodeState, bootstrap: boolean): string[] {
  const members = state.nodes.map((other) => `127.0.0.1:${other.ports.gmcast}`).join(',');
  const provider = [
    `gmcast.listen_addr=tcp://127.0.0.1:${node.ports.gmcast}`,
    `ist.recv_addr=127.0.0.1:${node.ports.ist}`,
    'gcache.size=64M',
    // A killed node is declared gone sooner than the default, so the rest keeps serving writes:
    // until then every commit and causal read of the cluster waits for it.
    'evs.keepalive_period=PT0.5S',
    'evs.inactive_check_period=PT0.5S',
    'evs.suspect_timeout=PT1.5S',
    'evs.inactive_timeout=PT3S',
  ].join(';');
  return [
    // The host's /etc/mysql files are for its own server, not for these nodes.
    '--no-defaults',
    `--datadir=${path.join(node.dir, 'data')}`,
    `--socket=${path.join(node.dir, 'mysqld.sock')}`,
    `--pid-file=${path.join(node.dir, 'mysqld.pid')}`,
    `--log-error=${path.join(node.dir, 'error.log')}`,
    // Temporary tables of its own: a node that starts or transfers state must never touch the
    // files other servers of the machine keep in /tmp.
    `--tmpdir=${path.join(node.dir, 'tmp')}`,
    `--port=${node.ports.port}`,
    '--bind-address=127.0.0.1',
    '--user=mysql',
    '--skip-name-resolve',
    '--character-set-server=utf8mb4',
    '--collation-server=utf8mb4_unicode_ci',
    '--innodb_buffer_pool_size=64M',
    '--innodb_log_file_size=48M',
    // Durability comes from the synchronous replication to the other nodes.
    '--innodb_flush_log_at_trx_commit=2',
    '--performance_schema=OFF',
    '--max_connections=300',
    '--binlog_format=ROW',
    '--default_storage_engine=InnoDB',
    '--innodb_autoinc_lock_mode=2',
    '--wsrep_on=ON',
    `--wsrep_provider=${GALERA_PROVIDER}`,
    `--wsrep_cluster_name=${state.name}`,
    `--wsrep_cluster_address=gcomm://${members}`,
    `--wsrep_node_name=node${node.index + 1}`,
    `--wsrep_node_address=127.0.0.1:${node.ports.gmcast}`,
    `--wsrep_provider_options=${provider}`,
    '--wsrep_sst_method=rsync',
    `--wsrep_sst_receive_address=127.0.0.1:${node.ports.sst}`,
    ...(bootstrap ? ['--wsrep-new-cluster'] : []),
  ];
}

function chownToMysql(target: string): Promise<unknown> {
  return run('chown', ['-R', 'mysql:mysql', target]);
}

function errorLogTail(node: GaleraNodeState): string {
  try {
    return fs
      .readFileSync(path.join(node.dir, 'error.log'), 'utf8')
      .split('\n')
      .slice(-25)
      .join('\n');
  } catch {
    return '(no error log)';
  }
}

/** Starts one node's `mariadbd`, detached (it outlives an operator's `start` command). */
function spawnNode(state: GaleraClusterState, node: GaleraNodeState, bootstrap: boolean): void {
  const child = spawn(MARIADBD, nodeArgs(state, node, bootstrap), {
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
  node.pid = child.pid;
}

/** The node's wsrep status variables, or undefined while it does not answer. */
export async function nodeStatus(
  node: GaleraNodeState,
): Promise<Record<string, string> | undefined> {
  let conn: mysql.Connection | undefined;
  try {
    conn = await mysql.createConnection({
      host: '127.0.0.1',
      port: node.ports.port,
      user: 'root',
      connectTimeout: 2000,
    });
    const [rows] = await conn.query("SHOW GLOBAL STATUS LIKE 'wsrep_%'");
    return Object.fromEntries(
      (rows as { Variable_name: string; Value: string }[]).map((row) => [
        row.Variable_name,
        row.Value,
      ]),
    );
  } catch {
    return undefined;
  } finally {
    await conn?.end().catch(() => undefined);
  }
}

/** Waits until the node is ready and synced in a cluster of `size` members. */
async function waitSynced(node: GaleraNodeState, size?: number): Promise<void> {
  const deadline = Date.now() + NODE_READY_SECONDS * 1000;
  for (;;) {
    const status = await nodeStatus(node);
    if (
      status?.wsrep_ready === 'ON' &&
      status.wsrep_local_state_comment === 'Synced' &&
      (size === undefined || Number(status.wsrep_cluster_size) === size)
    ) {
      return;
    }
    if (!isRunning(node.pid)) {
      throw new Error(`node ${node.index + 1} exited:\n${errorLogTail(node)}`);
    }
    if (Date.now() > deadline) {
      throw new Error(
        `node ${node.index + 1} not synced after ${NODE_READY_SECONDS} s (${JSON.stringify(
          status ? [status.wsrep_cluster_size, status.wsrep_local_state_comment] : 'no answer',
        )}):\n${errorLogTail(node)}`,
      );
    }
    await sleep(250);
  }
}

const STATE_FILE = 'cluster.json';

export function writeState(state: GaleraClusterState): void {
  fs.writeFileSync(path.join(state.dir, STATE_FILE), JSON.stringify(state, null, 2));
}

export function readState(dir: string): GaleraClusterState {
  return JSON.parse(fs.readFileSync(path.join(dir, STATE_FILE), 'utf8')) as GaleraClusterState;
}

/** Creates the folder and datadirs and starts three nodes; resolves once all three are synced. */
export async function startClusterProcesses(
  options: { size?: number; parent?: string } = {},
): Promise<GaleraClusterState> {
  if (!fs.existsSync(GALERA_PROVIDER)) {
    throw new Error(`no Galera provider at ${GALERA_PROVIDER}: install galera-4 (and rsync)`);
  }
  const size = options.size ?? 3;
  const started = Date.now();
  const dir = fs.mkdtempSync(path.join(options.parent ?? os.tmpdir(), 'quiz-galera-'));
  fs.chmodSync(dir, 0o755);
  const ports = await freePorts(size * 4);
  const state: GaleraClusterState = {
    dir,
    name: `quiz_${path.basename(dir).replace(/\W/g, '_')}`,
    nodes: Array.from({ length: size }, (_, index) => ({
      index,
      dir: path.join(dir, `node${index + 1}`),
      ports: {
        port: ports[index * 4] as number,
        gmcast: ports[index * 4 + 1] as number,
        ist: ports[index * 4 + 2] as number,
        sst: ports[index * 4 + 3] as number,
      },
    })),
    startupMs: 0,
  };
  try {
    for (const node of state.nodes) {
      for (const folder of ['data', 'tmp']) {
        fs.mkdirSync(path.join(node.dir, folder), { recursive: true });
      }
    }
    // Only the first node needs system tables: the others receive its whole state by rsync.
    const [first] = state.nodes as [GaleraNodeState];
    await run('mariadb-install-db', [
      '--no-defaults',
      '--user=mysql',
      `--datadir=${path.join(first.dir, 'data')}`,
      '--skip-test-db',
      // root@localhost and root@127.0.0.1 with an empty password: the tests' and the service's login.
      '--auth-root-authentication-method=normal',
    ]);
    await chownToMysql(dir);
    writeState(state);
    spawnNode(state, first, true);
    writeState(state);
    await waitSynced(first);
    // One joiner at a time: a donor serves one rsync state transfer at once.
    for (const node of state.nodes.slice(1)) {
      spawnNode(state, node, false);
      writeState(state);
      await waitSynced(node);
    }
    await Promise.all(state.nodes.map((node) => waitSynced(node, size)));
    state.startupMs = Date.now() - started;
    writeState(state);
    return state;
  } catch (error) {
    await stopClusterProcesses(state);
    throw error;
  }
}

async function waitExit(pid: number | undefined, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isRunning(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
  return true;
}

/** Kills one node at once (SIGKILL): no clean leave, as when a machine fails. */
export async function killNode(state: GaleraClusterState, index: number): Promise<void> {
  const node = nodeAt(state, index);
  if (isRunning(node.pid)) process.kill(node.pid as number, 'SIGKILL');
  await waitExit(node.pid, 10_000);
  node.pid = undefined;
  writeState(state);
}

/**
 * Makes a stopped node forget its replication state (grastate.dat) and its write cache, so its
 * restart must receive the whole state by rsync (SST) rather than the writes it missed (IST).
 */
export function forgetNodeState(state: GaleraClusterState, index: number): void {
  const node = nodeAt(state, index);
  if (isRunning(node.pid)) throw new Error(`node ${index + 1} is running`);
  for (const file of ['grastate.dat', 'galera.cache'])
    fs.rmSync(path.join(node.dir, 'data', file), { force: true });
}

/**
 * Starts a stopped node again: it rejoins the running members (receiving the writes it missed by
 * IST, or the whole state by rsync); resolves once it is synced in a cluster of all members.
 */
export async function restartNode(state: GaleraClusterState, index: number): Promise<number> {
  const node = nodeAt(state, index);
  if (isRunning(node.pid)) throw new Error(`node ${index + 1} is running`);
  const started = Date.now();
  for (let attempt = 1; ; attempt += 1) {
    // A killed mariadbd leaves its socket and pid files behind.
    for (const file of ['mysqld.sock', 'mysqld.pid'])
      fs.rmSync(path.join(node.dir, file), { force: true });
    spawnNode(state, node, false);
    writeState(state);
    try {
      await waitSynced(node, state.nodes.length);
      return Date.now() - started;
    } catch (error) {
      // On a starved machine a joiner can miss the harness's short evs timeouts, find itself
      // outside the primary component and leave; started again, it joins, as an operator's
      // second start would. The time returned counts every attempt.
      if (isRunning(node.pid) || attempt >= 3) throw error;
      console.warn(
        `node ${index + 1} left while rejoining, starting it again: ${String(error).split('\n')[0]}`,
      );
    }
  }
}

function nodeAt(state: GaleraClusterState, index: number): GaleraNodeState {
  const node = state.nodes[index];
  if (!node) throw new Error(`no node ${index + 1} (the cluster has ${state.nodes.length})`);
  return node;
}

/** Stops every node (SIGTERM, then SIGKILL past 30 s) and removes the cluster's folder. */
export async function stopClusterProcesses(state: GaleraClusterState): Promise<void> {
  const running = state.nodes.filter((node) => isRunning(node.pid));
  for (const node of running) process.kill(node.pid as number, 'SIGTERM');
  await Promise.all(
    running.map(async (node) => {
      if (!(await waitExit(node.pid, 30_000)) && isRunning(node.pid)) {
        process.kill(node.pid as number, 'SIGKILL');
        await waitExit(node.pid, 5_000);
      }
    }),
  );
  fs.rmSync(state.dir, { recursive: true, force: true });
}

/** Synchronous last resort when the owning process exits: kill the nodes, remove the folder. */
export function killClusterNow(state: GaleraClusterState): void {
  for (const node of state.nodes) {
    if (isRunning(node.pid)) process.kill(node.pid as number, 'SIGKILL');
  }
  fs.rmSync(state.dir, { recursive: true, force: true });
}

export async function clusterStatus(state: GaleraClusterState): Promise<NodeStatus[]> {
  return Promise.all(
    state.nodes.map(async (node) => {
      const status = isRunning(node.pid) ? await nodeStatus(node) : undefined;
      return {
        index: node.index,
        port: node.ports.port,
        running: isRunning(node.pid),
        clusterSize: status ? Number(status.wsrep_cluster_size) : undefined,
        ready: status?.wsrep_ready,
        state: status?.wsrep_local_state_comment,
      };
    }),
  );
}

/** A cluster owned by this process (a test file): stopped in `stop`, or killed when it exits. */
export interface GaleraCluster {
  state: GaleraClusterState;
  /** One URL per node, root over TCP, for the given database. */
  urls(database?: string): string[];
  kill(index: number): Promise<void>;
  /** Resolves with the milliseconds the node took to rejoin and be synced. */
  restart(index: number): Promise<number>;
  /** A stopped node will rejoin by a full state transfer (see forgetNodeState). */
  forgetState(index: number): void;
  stop(): Promise<void>;
}

/**
 * Starts a cluster, again in a new folder on new ports when a start fails: a port picked free can
 * be taken by another process before the node binds it (the node then exits at once).
 */
async function startWithRetries(options: { size?: number }): Promise<GaleraClusterState> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startClusterProcesses(options);
    } catch (error) {
      if (attempt >= 3) throw error;
      console.warn(`Galera cluster start ${attempt} failed, starting again: ${String(error)}`);
    }
  }
}

export async function startGaleraCluster(options: { size?: number } = {}): Promise<GaleraCluster> {
  const state = await startWithRetries(options);
  const onExit = () => killClusterNow(state);
  process.once('exit', onExit);
  return {
    state,
    urls: (database = '') => state.nodes.map((node) => nodeUrl(node, database)),
    kill: (index) => killNode(state, index),
    restart: (index) => restartNode(state, index),
    forgetState: (index) => forgetNodeState(state, index),
    stop: async () => {
      process.off('exit', onExit);
      await stopClusterProcesses(state);
    },
  };
}

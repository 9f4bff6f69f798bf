/**
 * The cluster benchmark's database side and service instances: the data generated onto node 1,
 * the nodes' Galera counters, and instances of the service each on a node of its own, with
 * their lease counter read from GET /metrics.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import mysql from 'mysql2/promise';
import { seedGetQuizData } from './get-quiz-bench.data';
import { ROOT } from './results-bench.config';
import { benchServiceEnv, RssMonitor } from './results-bench.process';

export const DB = 'quiz_bench_cluster';
/** Set for the instances: /metrics as a production scrape reaches it, behind a token. */
const METRICS_TOKEN = 'cluster-bench-metrics-token';
const START_TIMEOUT_MS = 120_000;

/** mysql2 takes `mysql:` URLs only. */
const mysqlUri = (url: string) => url.replace(/^mariadb:/, 'mysql:');

/**
 * Creates the database through one node (the others receive it by replication), migrates it and
 * loads the getQuiz benchmark's data: 1,000 users, 50 quizzes of 10 questions, seed 1; an API
 * key bound to localhost; the first public quiz of 10 questions.
 */
export async function prepareClusterDatabase(
  nodeUrl: string,
): Promise<{ apiKey: string; quizId: number }> {
  const server = new URL(nodeUrl);
  server.pathname = '/';
  const admin = await mysql.createConnection({ uri: mysqlUri(server.toString()) });
  await admin.query(`CREATE DATABASE ${DB} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  server.pathname = `/${DB}`;
  return seedGetQuizData(server.toString());
}

/** The Galera counters a phase reads before and after, summed over the nodes. */
export interface WsrepCounters {
  /** Transactions of this node that failed certification (1213 to the client, then retried). */
  certFailures: number;
  /** Local transactions aborted by a replicated write set they conflicted with. */
  bfAborts: number;
  /** Conflict victims the nodes' error logs show running a rate-limit lease or give-back. */
  leaseVictims: number;
}

/** The tag leading every lease statement (src/db/rate-limit-lease.store.ts). */
const LEASE_TAG = '/* rate-limit lease */';

/**
 * Conflict victims whose statement carries the lease tag, in the new complete lines of a node's
 * error log since `from` (wsrep_log_conflicts writes a "Victim thread" block with its SQL for a
 * transaction a replicated write set aborts). A conflict found at certification is logged by
 * key hash only: counted by wsrep_local_cert_failures, not attributed.
 */
function leaseVictimsIn(logFile: string, from: number): { victims: number; next: number } {
  let text: string;
  try {
    const fd = fs.openSync(logFile, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      const buffer = Buffer.alloc(Math.max(0, size - from));
      fs.readSync(fd, buffer, 0, buffer.length, from);
      text = buffer.toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return { victims: 0, next: from };
  }
  // A block still being written is left for the next read.
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  let victims = 0;
  for (const block of complete.split('Victim thread:').slice(1)) {
    const sql = /SQL: (.*)/.exec(block)?.[1] ?? '';
    if (sql.includes(LEASE_TAG) || /\brate_limits\b/.test(sql)) victims += 1;
  }
  return { victims, next: from + Buffer.byteLength(complete) };
}

/**
 * One connection per node, kept open so that reading the counters adds no connection churn; each
 * node is set to log its conflicts (wsrep_log_conflicts) into `errorLogs[i]`, read for their
 * statements.
 */
export async function openCounterConnections(
  nodeUrls: string[],
  errorLogs: string[],
): Promise<{ read: () => Promise<WsrepCounters>; close: () => Promise<void> }> {
  const conns = await Promise.all(
    nodeUrls.map((url) => mysql.createConnection({ uri: mysqlUri(url) })),
  );
  for (const conn of conns) await conn.query('SET GLOBAL wsrep_log_conflicts = ON');
  const offsets = errorLogs.map((file) => (fs.existsSync(file) ? fs.statSync(file).size : 0));
  let leaseVictims = 0;
  return {
    read: async () => {
      const sums: WsrepCounters = { certFailures: 0, bfAborts: 0, leaseVictims: 0 };
      for (const conn of conns) {
        const [rows] = await conn.query(
          "SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_local_cert_failures', 'wsrep_local_bf_aborts')",
        );
        for (const row of rows as { Variable_name: string; Value: string }[]) {
          const name = row.Variable_name.toLowerCase();
          if (name === 'wsrep_local_cert_failures') sums.certFailures += Number(row.Value);
          if (name === 'wsrep_local_bf_aborts') sums.bfAborts += Number(row.Value);
        }
      }
      for (const [i, file] of errorLogs.entries()) {
        const { victims, next } = leaseVictimsIn(file, offsets[i] as number);
        leaseVictims += victims;
        offsets[i] = next;
      }
      sums.leaseVictims = leaseVictims;
      return sums;
    },
    close: async () => {
      await Promise.all(conns.map((conn) => conn.end().catch(() => undefined)));
    },
  };
}

export interface Instance {
  name: string;
  url: string;
  pid: number;
  rss: RssMonitor;
  stop: () => Promise<void>;
}

/**
 * The service compiled at `mainJs`, on `databaseUrl` (one node), in a child process set as
 * results-bench.process starts it (production, LOG_LEVEL info into a pipe, a budget too large to
 * be spent), without migrating: the database was migrated once, through node 1.
 */
export async function startInstance(
  name: string,
  mainJs: string,
  databaseUrl: string,
): Promise<Instance> {
  const child = spawn(process.execPath, [mainJs], {
    cwd: ROOT,
    env: { ...benchServiceEnv(databaseUrl), METRICS_ENABLED: 'true', METRICS_TOKEN },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start within ${START_TIMEOUT_MS / 1000} s: ${text}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (!match) return;
      clearTimeout(timer);
      resolve(match[1] as string);
      // From here on the log is read and dropped.
      child.stdout?.off('data', onData);
      child.stdout?.resume();
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code}: ${text}`));
    });
  });
  const pid = child.pid as number;
  const rss = new RssMonitor(pid);
  return {
    name,
    url,
    pid,
    rss,
    stop: async () => {
      rss.stop();
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The instance's `quiz_rate_limit_leases_total`: slices of key budgets it asked of the database. */
export async function leasesOf(instance: Instance): Promise<number> {
  const res = await fetch(`${new URL(instance.url).origin}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${instance.name} /metrics: ${res.status} ${text}`);
  const match = /^quiz_rate_limit_leases_total(?:\{\})? (\S+)$/m.exec(text);
  if (!match) throw new Error(`${instance.name} /metrics has no quiz_rate_limit_leases_total`);
  return Number(match[1]);
}

/** One getQuiz before any load: an instance that answers errors is not measured. */
export async function checkGetQuiz(url: string, name: string): Promise<void> {
  const res = await fetch(url);
  const text = await res.text();
  const questions = (JSON.parse(text) as { questions?: unknown[] }).questions;
  if (res.status !== 200 || questions?.length !== 10) {
    throw new Error(`${name}: ${res.status} ${text.slice(0, 500)}`);
  }
}

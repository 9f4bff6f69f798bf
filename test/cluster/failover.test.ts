import mysql from 'mysql2/promise';
import type { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/config';
import { loadData } from '../../src/data/import/bulk-loader';
import { openDatabase } from '../../src/db/data-source';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { createTestDatabase } from '../helpers/database';
import { LIVE_CLASS } from '../helpers/fixtures';
import { startGaleraCluster, type GaleraCluster } from '../helpers/galera';
import { Load, type Outcome } from './failover-load';

/**
 * Failover under load. Two instances each get the list of the three nodes of a cluster of
 * their own (killing a node here must not disturb the other suites of the tier), A starting on
 * node 1 and B on node 2; both serve a steady mix of reads, set-making requests and writes while
 * node 1 is killed (SIGKILL), and later restarted until it rejoined. Counted and asserted: every
 * failed request is a contract 503 (none a 500, none past the client's timeout), each instance
 * serves again within 5 s of the kill, and every acknowledged write is on every node exactly once.
 */

const BEFORE_KILL_MS = 3000;
const AFTER_KILL_MS = 8000;
const AFTER_REJOIN_MS = 2000;
const TARGET_RECOVERY_SECONDS = 5;

jest.setTimeout(240_000);

/** DATABASE_URL with the cluster's nodes in the order given (node indexes). */
function listUrl(cluster: GaleraCluster, database: string, order: number[]): string {
  const hosts = order.map((index) => `127.0.0.1:${cluster.state.nodes[index]?.ports.port}`);
  return `mariadb://root@${hosts.join(',')}/${database}`;
}

/** Seconds from the kill until the instance answered again after its last failure then. */
function recoverySeconds(outcomes: Outcome[], killedAt: number, restartedAt: number): number {
  const outage = outcomes.filter((o) => o.started >= killedAt - 1000 && o.started < restartedAt);
  const failures = outage.filter((o) => o.status !== 200);
  const after = Math.max(killedAt, ...failures.map((o) => o.ended));
  const served = outage
    .filter((o) => o.status === 200 && o.started >= after - 1000 && o.ended >= after)
    .map((o) => o.ended);
  if (served.length === 0) return Number.POSITIVE_INFINITY;
  return (Math.min(...served) - killedAt) / 1000;
}

/** How node 1 comes back: with the writes it missed, or with the whole state (its own forgotten). */
const REJOINS = [
  ['with the writes it missed (IST)', false],
  ['with a full state transfer (SST)', true],
] as const;

describe.each(REJOINS)('failover under load, node 1 rejoining %s', (_rejoin, fullTransfer) => {
  let cluster: GaleraCluster;
  let database: string;
  const closers: (() => Promise<void>)[] = [];

  afterAll(async () => {
    for (const close of closers) await close().catch(() => undefined);
    await cluster?.stop();
  });

  it('moves each instance to a working node, answers 503 meanwhile and loses no write', async () => {
    cluster = await startGaleraCluster();
    const [node1] = cluster.urls();
    const db = await createTestDatabase('failover', node1);
    database = db.name;
    const seed = await openDatabase(db.config);
    closers.push(() => seed.destroy());
    const ids = await loadData(seed, LIVE_CLASS);
    const key = await createTestApiKey(seed, 'localhost');
    const token = await createTestToken(seed, Number(ids.users.t), key.id);
    const credentials = `apiKey=${encodeURIComponent(key.secret)}&accessToken=${encodeURIComponent(token)}`;

    const instance = async (order: number[]): Promise<{ app: TestApp; source: DataSource }> => {
      const { database: config } = loadConfig({ DATABASE_URL: listUrl(cluster, database, order) });
      const source = await openDatabase({ ...config, poolSize: 5, migrateOnStart: false });
      const app = await startTestApp(source);
      closers.unshift(
        () => app.close(),
        () => source.destroy(),
      );
      return { app, source };
    };
    const a = await instance([0, 1, 2]);
    const b = await instance([1, 2, 0]);

    const users = await fetch(`${a.app.url}/getUserSet?sessionId=${ids.sessions.S}&${credentials}`);
    expect(users.status).toBe(200);
    const dataSetId = String(((await users.json()) as { dataSetId: unknown }).dataSetId);
    const pupils = Object.entries(ids.users)
      .filter(([ref]) => ref.startsWith('p'))
      .map(([, id]) => String(id))
      .slice(0, 10);
    const target = (name: string, app: TestApp) => ({
      name,
      url: app.url,
      credentials,
      ids: { quiz: String(ids.quizzes.q1), session: String(ids.sessions.S), pupils, dataSetId },
    });
    const load = new Load([target('A', a.app), target('B', b.app)]);

    load.start();
    await new Promise((resolve) => setTimeout(resolve, BEFORE_KILL_MS));
    const killedAt = Date.now();
    await cluster.kill(0);
    if (fullTransfer) cluster.forgetState(0);
    await new Promise((resolve) => setTimeout(resolve, AFTER_KILL_MS));
    const restartedAt = Date.now();
    const rejoinMs = await cluster.restart(0);
    await new Promise((resolve) => setTimeout(resolve, AFTER_REJOIN_MS));
    await load.stop();

    const { outcomes, acknowledged } = load;
    const failed = outcomes.filter((o) => o.status !== 200);
    const recovery = {
      A: recoverySeconds(
        outcomes.filter((o) => o.instance === 'A'),
        killedAt,
        restartedAt,
      ),
      B: recoverySeconds(
        outcomes.filter((o) => o.instance === 'B'),
        killedAt,
        restartedAt,
      ),
    };

    // Every acknowledged write, read on each node directly once node 1 has rejoined.
    const perNode: { node: number; lost: number; duplicated: number }[] = [];
    for (const [index, node] of cluster.state.nodes.entries()) {
      const connection = await mysql.createConnection({
        host: '127.0.0.1',
        port: node.ports.port,
        user: 'root',
        database,
      });
      try {
        // Wait until this node applied everything the cluster committed.
        await connection.query('SET SESSION wsrep_sync_wait = 1');
        let lost = 0;
        let duplicated = 0;
        const count = async (sql: string, params: unknown[]) =>
          Number(((await connection.query(sql, params))[0] as { n: unknown }[])[0]?.n);
        for (const quiz of acknowledged.quizzes) {
          const n = await count('SELECT COUNT(*) AS n FROM quizzes WHERE title = ?', [quiz.title]);
          if (n === 0) lost += 1;
          if (n > 1) duplicated += 1;
        }
        for (const session of acknowledged.sessions) {
          const n = await count('SELECT COUNT(*) AS n FROM sessions WHERE client_ref = ?', [
            session.clientRef,
          ]);
          if (n === 0) lost += 1;
          if (n > 1) duplicated += 1;
          const stored = await count('SELECT COUNT(*) AS n FROM answers WHERE session_id = ?', [
            session.id,
          ]);
          if (stored < session.answers) lost += 1;
          if (stored > session.answers) duplicated += 1;
        }
        perNode.push({ node: index + 1, lost, duplicated });
      } finally {
        await connection.end();
      }
    }

    const byStatus = (list: Outcome[]) =>
      list.reduce<Record<string, number>>((counts, o) => {
        const key =
          o.status === 0
            ? 'timeout'
            : `${o.status}${o.type ? ` ${o.type}` : ''}${o.status === 503 ? '' : ` ${o.message}`}`;
        counts[key] = (counts[key] ?? 0) + 1;
        return counts;
      }, {});
    console.log(
      [
        `failover under load: ${outcomes.length} requests, ${failed.length} failed`,
        `  A: ${JSON.stringify(byStatus(outcomes.filter((o) => o.instance === 'A')))}`,
        `  B: ${JSON.stringify(byStatus(outcomes.filter((o) => o.instance === 'B')))}`,
        `  serving again after the kill: A ${recovery.A.toFixed(1)} s, B ${recovery.B.toFixed(1)} s`,
        `  failures (s after the kill): ${failed
          .slice(0, 20)
          .map(
            (o) =>
              `${o.instance} ${o.operation} ${((o.started - killedAt) / 1000).toFixed(1)}-${((o.ended - killedAt) / 1000).toFixed(1)}`,
          )
          .join(', ')}`,
        `  slowest request: ${(Math.max(...outcomes.map((o) => o.ended - o.started)) / 1000).toFixed(1)} s`,
        `  node 1 rejoined (${fullTransfer ? 'SST' : 'IST'}) in ${(rejoinMs / 1000).toFixed(1)} s`,
        `  acknowledged writes: ${acknowledged.quizzes.length} addQuiz, ${acknowledged.sessions.length} addSession+addAnswers`,
        `  per node (lost/duplicated): ${perNode.map((p) => `node${p.node} ${p.lost}/${p.duplicated}`).join(', ')}`,
      ].join('\n'),
    );

    // What the instances logged as errors (the cause of any 500), to read when the test fails.
    for (const [name, app] of [
      ['A', a.app],
      ['B', b.app],
    ] as const) {
      const errors = app.logs
        .records()
        .filter(
          (record) =>
            record.level === 'error' &&
            record.status !== 503 &&
            (record.res as { statusCode?: number } | undefined)?.statusCode !== 503,
        )
        .slice(0, 5)
        .map((record) => JSON.stringify(record).slice(0, 600));
      if (errors.length) console.log(`${name} error lines:\n${errors.join('\n')}`);
    }

    // Every failure is the contract's 503; none a 500, none a hang.
    expect(
      failed.filter((o) => o.status !== 503 || o.type !== 'UnexpectedServerResponseException'),
    ).toEqual([]);
    expect(recovery.A).toBeLessThanOrEqual(TARGET_RECOVERY_SECONDS);
    expect(recovery.B).toBeLessThanOrEqual(TARGET_RECOVERY_SECONDS);
    // The load ran and wrote through both instances, also after the kill.
    for (const name of ['A', 'B']) {
      const afterKill = outcomes.filter(
        (o) => o.instance === name && o.started > killedAt && o.status === 200,
      );
      expect([name, afterKill.some((o) => o.operation === 'addAnswers')]).toEqual([name, true]);
    }
    expect(acknowledged.quizzes.length).toBeGreaterThan(0);
    expect(perNode).toEqual(
      cluster.state.nodes.map((_node, index) => ({ node: index + 1, lost: 0, duplicated: 0 })),
    );
  });
});

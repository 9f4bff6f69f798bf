import mysql2 from 'mysql2';
import mysql from 'mysql2/promise';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap } from '../../src/data/import/import-document';
import { dataSourceOptions } from '../../src/db/data-source';
import { closeStatementBatches } from '../../src/db/sql/statement-batches';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { startGaleraCluster, type GaleraCluster } from '../helpers/galera';
import {
  GALERA_URLS_VARIABLE,
  galeraNodeUrls,
  openGaleraTestDatabase,
  openOnGaleraNode,
  type TestDatabase,
} from '../helpers/database';
import { LIVE_CLASS } from '../helpers/fixtures';

/**
 * Causal reads made visible. On loopback nodes a write set is applied everywhere within a
 * millisecond, so a set made through A is found through B even without `wsrep_sync_wait`; here
 * node B's applier is held by a `FLUSH TABLES WITH READ LOCK` on a connection of its own (which
 * pauses applying replicated write sets on that node), so B really lags behind A while the lock
 * is held. An instance on B with the service's own driver (src/db/galera-session.ts) waits and
 * answers the set; one with a plain mysql2 driver (no causal reads) answers it does not exist;
 * and the wait is bounded by the node's `repl.causal_read_timeout`, past which the request is a
 * contract 503.
 */

/** The node B instances use: not the one the set is written through. */
const NODE_B = 2;
/** How long the applier is held before the lock is released, in the cases that release it. */
const HOLD_MS = 1500;
const DEFAULT_CAUSAL_READ_TIMEOUT = 'PT30S';

type Json = Record<string, unknown>;

describe('causal reads on a lagging Galera node', () => {
  const closers: (() => Promise<void>)[] = [];
  let db: TestDatabase;
  let ids: IdMap;
  let credentials: string;
  let a: TestApp;
  let causalB: TestApp;
  let plainB: TestApp;
  let lock: mysql.Connection;

  /** B's database through a driver without the session hook: reads never wait for causality. */
  async function openWithoutCausalReads(): Promise<DataSource> {
    const url = new URL(galeraNodeUrls()[NODE_B] ?? '');
    url.pathname = `/${db.name}`;
    const options = dataSourceOptions({ ...db.config, url: url.toString() });
    const dataSource = new DataSource({ ...options, driver: mysql2 } as DataSourceOptions);
    await dataSource.initialize();
    closers.push(async () => {
      await closeStatementBatches(dataSource);
      if (dataSource.isInitialized) await dataSource.destroy();
    });
    return dataSource;
  }

  // A cluster of its own: holding a node's applier pauses the whole cluster's commits (flow
  // control), which would stall the other files of the tier that share the tier's cluster.
  let own: GaleraCluster | undefined;
  const tierUrls = process.env[GALERA_URLS_VARIABLE];

  beforeAll(async () => {
    own = await startGaleraCluster();
    process.env[GALERA_URLS_VARIABLE] = own.urls().join(',');
    const cluster = await openGaleraTestDatabase('causal_reads');
    closers.push(cluster.close);
    db = cluster.db;
    ids = await loadData(cluster.dataSource, LIVE_CLASS);
    const key = await createTestApiKey(cluster.dataSource, 'localhost');
    const token = await createTestToken(cluster.dataSource, Number(ids.users.t), key.id);
    credentials = `apiKey=${encodeURIComponent(key.secret)}&accessToken=${encodeURIComponent(token)}`;
    const onB = await openOnGaleraNode(db, NODE_B);
    closers.unshift(() => (onB.isInitialized ? onB.destroy() : Promise.resolve()));
    const plain = await openWithoutCausalReads();
    [a, causalB, plainB] = await Promise.all([
      startTestApp(cluster.dataSource),
      startTestApp(onB),
      startTestApp(plain),
    ]);
    closers.unshift(
      () => a.close(),
      () => causalB.close(),
      () => plainB.close(),
    );
    lock = await mysql.createConnection(`${galeraNodeUrls()[NODE_B]}${db.name}`);
    closers.unshift(() => lock.end());
  });

  afterAll(async () => {
    await lock?.query('UNLOCK TABLES').catch(() => undefined);
    await setCausalReadTimeout(DEFAULT_CAUSAL_READ_TIMEOUT).catch(() => undefined);
    for (const close of closers) await close().catch(() => undefined);
    await own?.stop();
    // Later files of this worker use the tier's cluster again.
    if (tierUrls === undefined) delete process.env[GALERA_URLS_VARIABLE];
    else process.env[GALERA_URLS_VARIABLE] = tierUrls;
  });

  function setCausalReadTimeout(value: string) {
    return lock.query(`SET GLOBAL wsrep_provider_options = 'repl.causal_read_timeout=${value}'`);
  }

  async function makeUserSetThroughA(): Promise<Json> {
    const res = await a.get(`/getUserSet?sessionId=${ids.sessions.S}&${credentials}`);
    const body = (await res.json()) as Json;
    expect([res.status, body.message]).toEqual([200, undefined]);
    return body;
  }

  /** Members of the set node B has applied so far (read without waiting, under the lock). */
  async function membersOnB(dataSetId: unknown): Promise<number> {
    const [rows] = await lock.query(
      'SELECT COUNT(*) AS n FROM data_set_items WHERE data_set_id = ?',
      [dataSetId],
    );
    return Number((rows as { n: number }[])[0]?.n);
  }

  /**
   * Holds B's applier, makes a set through A, checks B has not applied it, then sends `request`
   * through B; the lock is released `releaseAfterMs` later, or once B has answered.
   */
  async function whileBLags(
    instance: TestApp,
    releaseAfterMs: number | undefined,
  ): Promise<{ set: Json; status: number; body: Json; answeredBeforeRelease: boolean }> {
    // Warm B's credential cache and connections first: only the set's own reads are under test.
    expect((await instance.get(`/getQuiz?quizId=${ids.quizzes.q1}&${credentials}`)).status).toBe(
      200,
    );
    await lock.query('SET SESSION wsrep_sync_wait = 0');
    await lock.query('FLUSH TABLES WITH READ LOCK');
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await lock.query('UNLOCK TABLES');
    };
    try {
      const set = await makeUserSetThroughA();
      // The lag is real: B has not applied the set's members yet.
      expect(await membersOnB(set.dataSetId)).toBe(0);
      const timer =
        releaseAfterMs === undefined ? undefined : setTimeout(() => void release(), releaseAfterMs);
      const res = await instance.get(
        `/getDataSetPage?dataSetId=${String(set.dataSetId)}&pageIndex=1&${credentials}`,
      );
      const answeredBeforeRelease = !released;
      clearTimeout(timer);
      const body = (await res.json()) as Json;
      return { set, status: res.status, body, answeredBeforeRelease };
    } finally {
      await release();
    }
  }

  it('waits for the lagging node and answers the set made through the other node', async () => {
    const { set, status, body, answeredBeforeRelease } = await whileBLags(causalB, HOLD_MS);
    expect([status, body.message]).toEqual([200, undefined]);
    expect(body).toMatchObject({
      dataSetId: set.dataSetId,
      totalNumberOfItems: set.totalNumberOfItems,
    });
    expect((body.items as unknown[]).length).toBeGreaterThan(0);
    // It answered once the node had caught up, not before.
    expect(answeredBeforeRelease).toBe(false);
  });

  it('answers stale (the set does not exist) without causal reads', async () => {
    const { set, status, body } = await whileBLags(plainB, HOLD_MS);
    expect(status).toBe(404);
    expect(body).toMatchObject({ type: 'BadParameterException' });
    expect(JSON.stringify(body)).toContain(String(set.dataSetId));
  });

  it('gives up past the causal read timeout with a contract 503, not a hang', async () => {
    await setCausalReadTimeout('PT1S');
    try {
      const { status, body, answeredBeforeRelease } = await whileBLags(causalB, undefined);
      expect(answeredBeforeRelease).toBe(true);
      expect(status).toBe(503);
      expect(body).toMatchObject({ type: 'UnexpectedServerResponseException' });
    } finally {
      await setCausalReadTimeout(DEFAULT_CAUSAL_READ_TIMEOUT);
    }
  });
});

import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap } from '../../src/data/import/import-document';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openGaleraTestDatabase, openOnGaleraNode } from '../helpers/database';
import { LIVE_CLASS } from '../helpers/fixtures';

/**
 * Set-making requests through two instances on two Galera nodes at once. Each set is one
 * transaction (header, members, total, first page) whose rows no other set shares: the header's
 * id comes from each node's own auto-increment step (wsrep_auto_increment_control), the members
 * are keyed by that id, and only the users, quizzes and sessions they point at are shared, which
 * no set writes. So no set should lose certification (1213) to another: none may fail, each
 * has its own id and its full members, readable through the other instance.
 */

const REQUESTS_PER_INSTANCE = 100;
const AT_ONCE = 8;

type Json = Record<string, unknown>;

describe('set-making requests through two instances on two nodes at once', () => {
  const closers: (() => Promise<void>)[] = [];
  let ids: IdMap;
  let credentials: string;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const cluster = await openGaleraTestDatabase('set_writes');
    closers.push(cluster.close);
    ids = await loadData(cluster.dataSource, LIVE_CLASS);
    const key = await createTestApiKey(cluster.dataSource, 'localhost');
    const token = await createTestToken(cluster.dataSource, Number(ids.users.t), key.id);
    credentials = `apiKey=${encodeURIComponent(key.secret)}&accessToken=${encodeURIComponent(token)}`;
    const onB = await openOnGaleraNode(cluster.db, 1);
    closers.unshift(() => (onB.isInitialized ? onB.destroy() : Promise.resolve()));
    [a, b] = await Promise.all([startTestApp(cluster.dataSource), startTestApp(onB)]);
    closers.unshift(
      () => a.close(),
      () => b.close(),
    );
  });

  afterAll(async () => {
    for (const close of closers) await close().catch(() => undefined);
  });

  /**
   * The n-th request of an instance: user and quiz sets of the teacher's two sessions in turn
   * (a session's attendance is its owner's to read; S3 is another teacher's).
   */
  function setRequest(n: number): string {
    const session = [ids.sessions.S, ids.sessions.S2][Math.floor(n / 2) % 2];
    const operation = n % 2 === 0 ? 'getUserSet' : 'getQuizSet';
    return `/${operation}?sessionId=${String(session)}&numberOfItemsPerPage=2&${credentials}`;
  }

  /** `count` requests through `app`, `AT_ONCE` in flight at a time; each answer with its path. */
  async function makeSets(app: TestApp, count: number) {
    const answers: { path: string; status: number; body: Json }[] = [];
    let next = 0;
    const worker = async () => {
      while (next < count) {
        const path = setRequest(next++);
        const res = await app.get(path);
        answers.push({ path, status: res.status, body: (await res.json()) as Json });
      }
    };
    await Promise.all(Array.from({ length: AT_ONCE }, worker));
    return answers;
  }

  it('fails none, and every set is whole and readable through the other instance', async () => {
    const [throughA, throughB] = await Promise.all([
      makeSets(a, REQUESTS_PER_INSTANCE),
      makeSets(b, REQUESTS_PER_INSTANCE),
    ]);
    const all = [...throughA, ...throughB];
    expect(all).toHaveLength(2 * REQUESTS_PER_INSTANCE);
    const failed = all.filter((answer) => answer.status !== 200);
    expect(failed).toEqual([]);

    // One id per set, and the same request always gives a set of the same size.
    const setIds = all.map((answer) => answer.body.dataSetId);
    expect(new Set(setIds).size).toBe(all.length);
    const totals = new Map<string, Set<unknown>>();
    for (const { path, body } of all) {
      const request = path.split('&')[0] as string;
      totals.set(request, (totals.get(request) ?? new Set()).add(body.totalNumberOfItems));
    }
    expect([...totals.values()].map((sizes) => sizes.size)).toEqual(
      [...totals.keys()].map(() => 1),
    );

    // Each instance pages the sets the other made: every member arrived.
    for (const [made, other] of [
      [throughA, b],
      [throughB, a],
    ] as const) {
      for (const { body } of made.slice(0, 20)) {
        const total = Number(body.totalNumberOfItems);
        const lastPage = Math.max(1, Math.ceil(total / 2));
        const res = await other.get(
          `/getDataSetPage?dataSetId=${String(body.dataSetId)}&pageIndex=${lastPage}&${credentials}`,
        );
        const page = (await res.json()) as Json;
        expect([res.status, page.totalNumberOfItems]).toEqual([200, total]);
        expect((page.items as unknown[]).length).toBe(total - (lastPage - 1) * 2);
      }
    }
  });
});

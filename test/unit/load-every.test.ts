import { runInNewContext } from 'node:vm';
import DataLoader from 'dataloader';
import { loadEvery } from '../../src/context/loaders';

/**
 * A loader read that failed (a connection lost as a database node dies) must fail the caller,
 * not read as a missing row: addSession once answered 400 "quiz 1 does not exist" for it. Also
 * when the error was made in another realm, as a socket's ECONNRESET is inside a test runner's
 * vm context (the Galera failover test showed it once in about ten runs).
 */
describe('loadEvery', () => {
  const lost = Object.assign(new Error('Connection lost: The server closed the connection.'), {
    code: 'PROTOCOL_CONNECTION_LOST',
  });

  it('gives every value, missing rows as null, in key order', async () => {
    const loader = new DataLoader<number, string | null>(async (ids) =>
      ids.map((id) => (id === 2 ? null : `quiz ${id}`)),
    );
    await expect(loadEvery(loader, [3, 2, 1])).resolves.toEqual(['quiz 3', null, 'quiz 1']);
  });

  it('fails with the failure of any key, not a null in its place', async () => {
    const loader = new DataLoader<number, string | null>(async (ids) =>
      ids.map((id) => (id === 2 ? lost : `quiz ${id}`)),
    );
    await expect(loadEvery(loader, [1, 2, 3])).rejects.toBe(lost);
  });

  it('fails when the whole batch failed', async () => {
    const loader = new DataLoader<number, string | null>(() => Promise.reject(lost));
    await expect(loadEvery(loader, [1, 2])).rejects.toBe(lost);
  });

  it('fails with an error made in another realm, which instanceof Error misses', async () => {
    const foreign = runInNewContext(
      "Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', fatal: true })",
    ) as Error;
    expect(foreign instanceof Error).toBe(false);
    const loader = new DataLoader<number, string | null>(() => Promise.reject(foreign));
    await expect(loadEvery(loader, [1, 2])).rejects.toBe(foreign);
  });
});

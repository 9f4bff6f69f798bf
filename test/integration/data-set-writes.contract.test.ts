import type { DataSource } from 'typeorm';
import {
  createDataSet,
  createDataSetWith,
  getPage,
} from '../../src/services/sets/data-set.service';
import { BACKENDS, openBackend } from '../helpers/database';
import { StatementCounter } from '../helpers/statement-counter';
import { serviceContext } from '../helpers/service-context';

/**
 * How a set is written: one transaction, sent to MySQL/MariaDB as one batch of statements.
 * A failing statement must leave nothing behind, touch no other set, and leave the service
 * able to write the next set.
 */
describe.each(BACKENDS)('writing a data set on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  const counter = new StatementCounter();

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'set_writes', { logger: counter }));
    await dataSource.query(
      `INSERT INTO users (id, email, first_name, last_name, can_create_private_quizzes)
       VALUES (1, 'a@school.example', 'Ada', 'Alpha', 1), (2, 'b@school.example', 'Bob', 'Beta', 0),
              (3, 'c@school.example', 'Cy', 'Gamma', 0)`,
    );
  });

  afterAll(async () => {
    await close();
  });

  function context() {
    return serviceContext(dataSource, 'getUserSet', { kind: 'anonymous', apiKeyId: 1 });
  }

  async function counts(): Promise<[number, number]> {
    const [sets] = (await dataSource.query('SELECT COUNT(*) AS n FROM data_sets')) as {
      n: unknown;
    }[];
    const [items] = (await dataSource.query('SELECT COUNT(*) AS n FROM data_set_items')) as {
      n: unknown;
    }[];
    return [Number(sets?.n), Number(items?.n)];
  }

  it('writes the header, the members and the total, and returns the first page read with them', async () => {
    const { result: page, statements } = await counter.count(() =>
      createDataSet(context(), 'user', 'SELECT id FROM users', [], { numberOfItemsPerPage: 2 }),
    );
    expect(page).toMatchObject({
      itemType: 'user',
      totalNumberOfItems: 3,
      numberOfPages: 2,
      numberOfItemsPerPage: 2,
      currentPageIndex: 1,
      itemIds: [1, 2],
      resultRows: [],
    });
    // The first page comes with the write: no statement reads it again afterwards.
    expect(statements.filter((sql) => /^SELECT item_id/i.test(sql))).toHaveLength(1);
    expect(statements.at(-1)).toMatch(/^COMMIT/i);
    const second = await getPage(context(), String(page.dataSetId), 2);
    expect(second.itemIds).toEqual([3]);
    const [row] = (await dataSource.query(
      'SELECT total_number_of_items AS n FROM data_sets WHERE id = ?',
      [page.dataSetId],
    )) as { n: unknown }[];
    expect(Number(row?.n)).toBe(3);
  });

  it('leaves no set and no member when the members statement fails, and the next write works', async () => {
    const before = await counts();
    await expect(
      createDataSetWith(context(), 'user', (dataSetId) => ({
        // Two members, then a failure inside the same statement: nothing of it may stay.
        sql: `INSERT INTO data_set_items (data_set_id, position, item_id)
              SELECT ?, id, no_such_column FROM users`,
        params: [dataSetId],
      })),
    ).rejects.toThrow(/no_such_column/);
    expect(await counts()).toEqual(before);
    // Every pooled connection is back outside any transaction: writes in a row still commit.
    for (let i = 0; i < 6; i += 1) {
      const page = await createDataSet(context(), 'user', 'SELECT id FROM users WHERE id = ?', [2]);
      expect(page.itemIds).toEqual([2]);
    }
    const after = await counts();
    expect(after).toEqual([before[0] + 6, before[1] + 6]);
  });

  it('rolls back members already written when a later member fails', async () => {
    const before = await counts();
    await expect(
      createDataSetWith(context(), 'user', (dataSetId) => ({
        // Position 1 twice: the second row breaks the primary key after the first was written.
        sql: `INSERT INTO data_set_items (data_set_id, position, item_id)
              SELECT ?, 1, id FROM users`,
        params: [dataSetId],
      })),
    ).rejects.toThrow();
    expect(await counts()).toEqual(before);
  });
});

describe('a set row that MariaDB refuses', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend('MariaDB', 'set_row_refused'));
    await dataSource.query(
      `INSERT INTO users (id, email, first_name, last_name, can_create_private_quizzes)
       VALUES (1, 'a@school.example', 'Ada', 'Alpha', 1), (2, 'b@school.example', 'Bob', 'Beta', 0)`,
    );
  });

  afterAll(async () => {
    await close();
  });

  it('stops the write before its members, which would otherwise go to the previous set', async () => {
    const ctx = serviceContext(dataSource, 'getUserSet', { kind: 'anonymous', apiKeyId: 1 });
    const earlier = await createDataSet(ctx, 'user', 'SELECT id FROM users', []);
    // Longer than the TEXT column holds: the row is refused. The members statement, had it run,
    // would have read the id of the previous set written on the same connection.
    await expect(
      createDataSetWith(
        ctx,
        'user',
        (dataSetId) => ({
          sql: `INSERT INTO data_set_items (data_set_id, position, item_id)
                SELECT ?, 100 + id, id FROM users`,
          params: [dataSetId],
        }),
        { parameters: 'x'.repeat(70_000) },
      ),
    ).rejects.toThrow(/too long/i);
    const sets = (await dataSource.query('SELECT id FROM data_sets')) as { id: unknown }[];
    expect(sets.map((row) => Number(row.id))).toEqual([earlier.dataSetId]);
    const members = (await dataSource.query(
      'SELECT item_id FROM data_set_items WHERE data_set_id = ? ORDER BY position',
      [earlier.dataSetId],
    )) as { item_id: unknown }[];
    expect(members.map((row) => Number(row.item_id))).toEqual([1, 2]);
  });

  it('opens no connection for a data source already closed', async () => {
    const closing = await openBackend('MariaDB', 'set_write_closed');
    const ctx = serviceContext(closing.dataSource, 'getUserSet', {
      kind: 'anonymous',
      apiKeyId: 1,
    });
    await closing.close();
    // A pool opened now would never be closed and would keep the process alive.
    await expect(createDataSet(ctx, 'user', 'SELECT id FROM users', [])).rejects.toThrow(
      /the data source is not initialized/,
    );
  });
});

import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import { databaseOf } from '../../src/db/database';
import {
  AccessToken,
  ApiKey,
  DataSet,
  Question,
  Quiz,
  QuizTag,
  Session,
  SessionQuiz,
  User,
  UserQuizFlag,
} from '../../src/db/entities';
import { entityRows } from '../../src/db/sql/entity-rows';
import { generateData } from '../../src/data/generate/synthetic-data';
import { loadData } from '../../src/data/import/bulk-loader';
import { BACKENDS, openBackend } from '../helpers/database';
import { createTestApiKey, createTestToken } from '../helpers/credentials';

/**
 * The raw reads of the request paths (loaders, credentials, set headers) map rows with the
 * entity's metadata and the driver's conversions: every entity they read must come out equal to
 * what TypeORM's repository loads, values and types (Date, boolean, null), on both databases.
 */
describe.each(BACKENDS)('entity rows equal repository entities (%s)', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'entity_rows'));
    await loadData(
      dataSource,
      generateData({
        users: 40,
        quizzes: 12,
        questions: 6,
        sessions: 5,
        participation: 0.5,
        seed: 7,
      }).source,
    );
    const key = await createTestApiKey(dataSource, 'localhost');
    await createTestToken(dataSource, 1, key.id);
    await dataSource.query(
      `INSERT INTO data_sets (item_type, owner_user_id, owner_api_key_id, total_number_of_items,
                              number_of_items_per_page, parameters, expires_at)
       VALUES ('quiz', 1, NULL, 0, 50, '{"tag":"x"}', ?)`,
      [backend === 'SQLite' ? '2099-12-31 00:00:00.000' : new Date('2099-12-31T00:00:00Z')],
    );
  });

  afterAll(() => close());

  it.each([
    ['User', User],
    ['Quiz', Quiz],
    ['Question', Question],
    ['QuizTag', QuizTag],
    ['UserQuizFlag', UserQuizFlag],
    ['Session', Session],
    ['SessionQuiz', SessionQuiz],
    ['ApiKey', ApiKey],
    ['AccessToken', AccessToken],
    ['DataSet', DataSet],
  ] as [string, EntityTarget<ObjectLiteral>][])('%s', async (_name, target) => {
    const rows = entityRows(dataSource, target);
    const raw = await databaseOf(dataSource).writeRows.rows(
      `SELECT ${rows.columns()} FROM ${rows.table}`,
    );
    const mapped = raw.map(rows.fromRow);
    const loaded = await dataSource.getRepository(target).find();
    expect(mapped.length).toBeGreaterThan(0);
    const primary = dataSource.getMetadata(target).primaryColumns.map((c) => c.propertyName);
    const order = (list: ObjectLiteral[]) =>
      [...list].sort((a, b) => {
        for (const name of primary) {
          const diff = Number(a[name]) - Number(b[name]);
          if (diff !== 0) return diff;
        }
        return 0;
      });
    // Same class, same properties, same values and types.
    expect(order(mapped)).toStrictEqual(order(loaded));
  });
});

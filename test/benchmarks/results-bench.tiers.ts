/** The benchmark databases: a generated tier, its requester, credentials and sets. */
import mysql from 'mysql2/promise';
import { progressReporter } from '../../src/cli/progress';
import { loadConfig } from '../../src/config/config';
import { generateData } from '../../src/data/generate/synthetic-data';
import { loadData } from '../../src/data/import/bulk-loader';
import { openDatabase } from '../../src/db/data-source';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import {
  ANONYMOUS,
  FAR_FUTURE,
  log,
  mysqlUri,
  PAGE_SIZE,
  REUSE,
  SERVER,
  timed,
  type Tier,
} from './results-bench.config';

/**
 * Whether the tier's database holds the tier already (BENCH_REUSE=1): as many users, quizzes,
 * sessions and answers as its generation makes. A load is one transaction: all or nothing.
 */
export async function tierIsLoaded(tier: Tier): Promise<boolean> {
  const expected = generateData(tier.generate).expected;
  const admin = await mysql.createConnection({ uri: mysqlUri() });
  try {
    const [dbs] = await admin.query<mysql.RowDataPacket[]>('SHOW DATABASES LIKE ?', [tier.db]);
    if (dbs.length === 0) return false;
    const [counts] = await admin.query<mysql.RowDataPacket[]>(
      `SELECT (SELECT COUNT(*) FROM ${tier.db}.users) AS users,
              (SELECT COUNT(*) FROM ${tier.db}.quizzes) AS quizzes,
              (SELECT COUNT(*) FROM ${tier.db}.sessions) AS sessions,
              (SELECT COUNT(*) FROM ${tier.db}.answers) AS answers`,
    );
    const found = counts[0] ?? {};
    return (['users', 'quizzes', 'sessions', 'answers'] as const).every(
      (table) => Number(found[table]) === expected[table],
    );
  } catch {
    return false;
  } finally {
    await admin.end();
  }
}

export interface Prepared {
  requesterId: number;
  apiKey: string;
  token: string;
  userSets: Map<number, number>;
  quizSets: Map<number, number>;
  /** A user set without members: its results cost only what every request costs. */
  emptyUserSetId: number;
  /** BENCH_ANONYMOUS=1: the same sets owned by the API key, which its requests alone may read. */
  anonymous?: { userSets: Map<number, number>; quizSets: Map<number, number> };
  answers: number;
}

type DataSource = Awaited<ReturnType<typeof openDatabase>>;

/**
 * Fails unless every answer of the tier is in the requester scope (contract.md §7: attempts in
 * sessions the requester owns and the requester's own), so that a build scoping aggregates to it
 * computes over the same attempts as one that does not, and the floor needs no scope.
 */
async function checkScopeCoversAnswers(dataSource: DataSource, requesterId: number) {
  const [{ n }] = (await dataSource.query(
    `SELECT COUNT(*) AS n FROM answers a LEFT JOIN sessions s ON s.id = a.session_id
      WHERE a.user_id <> ? AND (s.owner_id IS NULL OR s.owner_id <> ?)`,
    [requesterId, requesterId],
  )) as { n: number }[];
  if (Number(n) > 0) throw new Error(`${n} answers are outside the requester's scope`);
}

/** Generates the tier (unless reused), then the requester, its credentials and its sets. */
export async function prepareTier(tier: Tier): Promise<Prepared> {
  const reuse = REUSE && (await tierIsLoaded(tier));
  if (!reuse) {
    const admin = await mysql.createConnection({ uri: mysqlUri() });
    await admin.query(`DROP DATABASE IF EXISTS ${tier.db}`);
    await admin.query(
      `CREATE DATABASE ${tier.db} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
    await admin.end();
  }
  const config = loadConfig({ DATABASE_URL: `${SERVER}/${tier.db}`, NODE_ENV: 'test' });
  const dataSource = await openDatabase(config.database);
  try {
    if (!reuse) {
      const { source, expected } = generateData(tier.generate);
      log(`tier ${tier.name}: generating ${expected.answers} answers into ${tier.db}`);
      const progress = progressReporter(process.stderr);
      // A database created just now: its answers load in bulk (one LOAD DATA, indexes sorted once).
      const { ms } = await timed(() =>
        loadData(dataSource, source, { onProgress: progress, emptyDatabase: true }).finally(
          progress.end,
        ),
      );
      log(
        `tier ${tier.name}: generated and loaded ${expected.answers} answers in ${(ms / 1000).toFixed(1)} s (${Math.round(expected.answers / (ms / 1000))} answers/s)`,
      );
    } else {
      log(`tier ${tier.name}: reusing ${tier.db}`);
    }
    const [{ id: requesterId }] = (await dataSource.query('SELECT MIN(id) AS id FROM users')) as {
      id: number;
    }[];
    // The requester owns every session: detailed results then hold every attempt of the sets.
    await dataSource.query('UPDATE sessions SET owner_id = ?', [requesterId]);
    await checkScopeCoversAnswers(dataSource, requesterId);
    const key = await createTestApiKey(dataSource, 'localhost');
    const token = await createTestToken(dataSource, requesterId, key.id);

    /** A set of the requester's, or of the API key (`byKey`: what a request without token reads). */
    const makeSet = async (
      itemType: 'user' | 'quiz',
      size: number,
      byKey = false,
    ): Promise<number> => {
      const inserted = (await dataSource.query(
        `INSERT INTO data_sets (item_type, owner_user_id, owner_api_key_id, total_number_of_items,
                                number_of_items_per_page, parameters, expires_at)
         VALUES (?, ?, ?, 0, ?, NULL, ?)`,
        [itemType, byKey ? null : requesterId, byKey ? key.id : null, PAGE_SIZE, FAR_FUTURE],
      )) as { insertId: number };
      const id = inserted.insertId;
      const members =
        itemType === 'user'
          ? `SELECT id FROM users ORDER BY can_create_private_quizzes, id LIMIT ${size}`
          : `SELECT id FROM quizzes ORDER BY id LIMIT ${size}`;
      await dataSource.query(
        `INSERT INTO data_set_items (data_set_id, position, item_id)
         SELECT ?, ROW_NUMBER() OVER (ORDER BY m.id), m.id FROM (${members}) m`,
        [id],
      );
      await dataSource.query(
        `UPDATE data_sets SET total_number_of_items =
           (SELECT COUNT(*) FROM data_set_items WHERE data_set_id = ?) WHERE id = ?`,
        [id, id],
      );
      return id;
    };
    const userSets = new Map<number, number>();
    for (const size of tier.userSizes) userSets.set(size, await makeSet('user', size));
    const emptyUserSetId = await makeSet('user', 0);
    const quizSets = new Map<number, number>();
    for (const size of tier.quizSizes) quizSets.set(size, await makeSet('quiz', size));
    let anonymous: Prepared['anonymous'];
    if (ANONYMOUS) {
      anonymous = { userSets: new Map(), quizSets: new Map() };
      for (const size of tier.userSizes) {
        anonymous.userSets.set(size, await makeSet('user', size, true));
      }
      for (const size of tier.quizSizes) {
        anonymous.quizSets.set(size, await makeSet('quiz', size, true));
      }
    }
    // Fresh statistics, as InnoDB would compute them in the background after the load.
    await dataSource.query('ANALYZE TABLE answers, data_set_items, data_sets, sessions, quizzes');
    const [{ n }] = (await dataSource.query('SELECT COUNT(*) AS n FROM answers')) as {
      n: number;
    }[];
    return {
      requesterId,
      apiKey: key.secret,
      token,
      userSets,
      quizSets,
      emptyUserSetId,
      anonymous,
      answers: Number(n),
    };
  } finally {
    await dataSource.destroy();
  }
}

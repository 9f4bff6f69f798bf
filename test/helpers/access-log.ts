import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { DataSource } from 'typeorm';
import { runCli } from '../../src/cli/cli';
import { openDatabase } from '../../src/db/data-source';
import type { TestApp } from './app';
import { openBackend, TEST_SERVER_URL, type Backend } from './database';
import { graphql } from './graphql';

/**
 * What the access-log suite (test/integration/access-log.contract.test.ts) reads and calls: the
 * rows a read wrote into access_log grouped into entries, the two wires, and the command line
 * over the same database.
 */

/** One entry: the rows one request wrote (by request id). */
export interface Entry {
  operations: string[];
  requestIds: string[];
  requesterUserIds: (number | null)[];
  requesterApiKeyIds: (number | null)[];
  subjects: number[];
}

export const unique = <T>(values: T[]): T[] => [...new Set(values)];
export const sorted = (values: number[]): number[] => [...values].sort((a, b) => a - b);
const idOrNull = (value: unknown): number | null => (value === null ? null : Number(value));

export async function rowsOf(
  dataSource: DataSource,
  sql: string,
  params: unknown[] = [],
): Promise<Record<string, unknown>[]> {
  return (await dataSource.query(sql, params)) as Record<string, unknown>[];
}

export async function highestAccessLogId(dataSource: DataSource): Promise<number> {
  const [row] = await rowsOf(dataSource, 'SELECT MAX(id) AS n FROM access_log');
  return Number(row?.n ?? 0);
}

/** What `read` wrote into the access log, as entries in the order they were written. */
export async function entriesOf(
  dataSource: DataSource,
  read: () => Promise<unknown>,
): Promise<Entry[]> {
  const before = await highestAccessLogId(dataSource);
  await read();
  const written = await rowsOf(
    dataSource,
    `SELECT operation, request_id, requester_user_id, requester_api_key_id, subject_user_id
       FROM access_log WHERE id > ? ORDER BY id`,
    [before],
  );
  return unique(written.map((row) => String(row.request_id))).map((requestId) => {
    const mine = written.filter((row) => row.request_id === requestId);
    return {
      operations: unique(mine.map((row) => String(row.operation))),
      requestIds: [requestId],
      requesterUserIds: unique(mine.map((row) => idOrNull(row.requester_user_id))),
      requesterApiKeyIds: unique(mine.map((row) => idOrNull(row.requester_api_key_id))),
      subjects: sorted(mine.map((row) => Number(row.subject_user_id))),
    };
  });
}

/** The distinct users of a computed results set, as the database holds them. */
export async function resultUsers(dataSource: DataSource, dataSetId: unknown): Promise<number[]> {
  const found = await rowsOf(
    dataSource,
    'SELECT DISTINCT user_id FROM computed_results WHERE data_set_id = ?',
    [Number(dataSetId)],
  );
  return sorted(found.map((row) => Number(row.user_id)));
}

/** A REST GET that must answer 200; its JSON body. */
export async function restOk(
  app: TestApp,
  operation: string,
  credentials: string,
  params: Record<string, string>,
): Promise<Record<string, unknown>> {
  const res = await app.get(`/${operation}?${new URLSearchParams(params)}&${credentials}`);
  const body = (await res.json()) as Record<string, unknown>;
  expect([operation, res.status, body]).toEqual([operation, 200, expect.anything()]);
  return body;
}

/** A GraphQL query that must answer without errors; its data. */
export async function graphqlOk(
  app: TestApp,
  credentials: string,
  query: string,
  variables: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const { status, body } = await graphql(app.url, query, {
    variables,
    search: `?${credentials}`,
  });
  expect([status, body.errors]).toEqual([200, undefined]);
  return body.data as Record<string, unknown>;
}

/**
 * A migrated database the command line can open too (DATABASE_URL): a MariaDB test database, or
 * a SQLite file rather than memory.
 */
export async function openSharedBackend(
  backend: Backend,
  label: string,
): Promise<{ dataSource: DataSource; databaseUrl: string; close: () => Promise<void> }> {
  if (backend === 'MariaDB') {
    const { dataSource, close } = await openBackend(backend, label);
    const [{ name }] = (await dataSource.query('SELECT DATABASE() AS name')) as {
      name: string;
    }[];
    return { dataSource, close, databaseUrl: `${TEST_SERVER_URL}/${name}` };
  }
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `${label}-`));
  const file = path.join(folder, 'quiz.sqlite');
  const dataSource = await openDatabase({
    dialect: 'sqlite',
    sqlitePath: file,
    embedded: false,
    poolSize: 1,
    migrateOnStart: true,
  });
  return {
    dataSource,
    databaseUrl: `sqlite:${file}`,
    close: async () => {
      if (dataSource.isInitialized) await dataSource.destroy();
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

/** `npm run cli -- <argv>` in this process, over the database `databaseUrl` names. */
export async function cli(
  databaseUrl: string,
  argv: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await runCli(argv, {
    stdout,
    stderr,
    env: { DATABASE_URL: databaseUrl, NODE_ENV: 'test' },
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

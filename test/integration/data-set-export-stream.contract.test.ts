import net from 'node:net';
import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap, ImportDocument } from '../../src/data/import/import-document';
import { DataSet } from '../../src/db/entities';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { parseCsv } from '../helpers/csv';
import { BACKENDS, openBackend, openSqliteTestDatabase } from '../helpers/database';
import { ndjsonItems } from '../helpers/export-fixtures';

/**
 * How exportDataSet streams (contract.md §13): HEAD, a failure before the first byte (a JSON
 * error) and after it (a cut connection), a client that leaves mid-file.
 */

const PUPILS = ['p1', 'p2', 'p3', 'p4'];

const DOCUMENT: ImportDocument = {
  users: [
    { ref: 'A', email: 'a@school.example', firstName: 'Ada', lastName: 'Alpha' },
    ...PUPILS.map((ref) => ({
      ref,
      email: `${ref}@school.example`,
      firstName: 'Pupil',
      lastName: ref,
    })),
  ],
  sessions: [
    {
      ref: 'S',
      owner: 'A',
      title: 'Class',
      startDate: '2026-09-01 09:00:00',
      attendees: PUPILS.map((user) => ({ user })),
    },
  ],
};

type Json = Record<string, unknown>;

describe.each(BACKENDS)('exportDataSet streaming on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let ids: IdMap;
  const who = {} as Record<'A', string>;

  async function makeSet(requester: 'A', operation: string, params: Json): Promise<Json> {
    const query = new URLSearchParams(params as Record<string, string>);
    const res = await app.get(`/${operation}?${query.toString()}&${who[requester]}`);
    expect(res.status).toBe(200);
    return (await res.json()) as Json;
  }

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'data_set_export_stream'));
    ids = await loadData(dataSource, DOCUMENT);
    const key = await createTestApiKey(dataSource, 'localhost');
    const token = await createTestToken(dataSource, Number(ids.users.A), key.id);
    who.A = `apiKey=${key.secret}&accessToken=${token}`;
    app = await startTestApp(dataSource);
  });

  afterAll(async () => {
    await app?.close();
    await close?.();
  });

  it('HEAD: the headers of the file, no body', async () => {
    const users = await makeSet('A', 'getUserSet', { sessionId: ids.sessions.S as string });
    const res = await fetch(
      `${app.url}/exportDataSet?dataSetId=${users.dataSetId as string}&format=csv&${who.A}`,
      { method: 'HEAD' },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="user-${users.dataSetId as string}.csv"`,
    );
    expect(await res.text()).toBe('');
  });

  describe('a set whose members went while it is exported (purged as it expired)', () => {
    /** A set of the four pupils, with `keep` of its members left in the database. */
    async function partlyPurged(keep: number): Promise<string> {
      const set = await makeSet('A', 'getUserSet', { sessionId: ids.sessions.S as string });
      await dataSource.query('DELETE FROM data_set_items WHERE data_set_id = ? AND position > ?', [
        Number(set.dataSetId),
        keep,
      ]);
      return set.dataSetId as string;
    }

    it('before the first byte: the contract’s 404 on dataSetId, not an empty file', async () => {
      const id = await partlyPurged(0);
      for (const format of ['csv', 'ndjson']) {
        const res = await app.get(`/exportDataSet?dataSetId=${id}&format=${format}&${who.A}`);
        expect(res.status).toBe(404);
        expect(await res.json()).toMatchObject({
          type: 'BadParameterException',
          parameterName: 'dataSetId',
          reason: `data set ${id} expired during the export`,
        });
      }
    });

    it('after the first byte: the connection is cut (a file that cannot pass for complete) and logged', async () => {
      const id = await partlyPurged(2);
      for (const format of ['csv', 'ndjson']) {
        const res = await fetch(
          `${app.url}/exportDataSet?dataSetId=${id}&format=${format}&${who.A}`,
        );
        expect(res.status).toBe(200);
        // The first two items arrive, then the body fails instead of ending.
        const reader = (res.body as ReadableStream<Uint8Array>).getReader();
        const received: Uint8Array[] = [];
        const readAll = async () => {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return;
            received.push(value);
          }
        };
        await expect(readAll()).rejects.toThrow();
        const text = Buffer.concat(received).toString('utf8');
        const lines = format === 'csv' ? parseCsv(text.slice(1)).slice(1) : ndjsonItems(text);
        expect(lines).toHaveLength(2);
      }
      const failures = app.logs
        .records()
        .filter(
          (record) => record.msg === 'download failed after its first byte: the connection is cut',
        );
      expect(failures).toHaveLength(2);
      expect(failures[0]).toMatchObject({ level: 'error', operation: 'exportDataSet' });
    });
  });
});

describe('exportDataSet to a client that leaves mid-file', () => {
  it('stops reading the set (no error), however large the set', async () => {
    const { dataSource, close } = await openSqliteTestDatabase();
    const key = await createTestApiKey(dataSource, 'localhost');
    const app = await startTestApp(dataSource);
    try {
      // 1.5 million members, some 18 MB of CSV: more than the sockets' buffers hold.
      const total = 1_500_000;
      const set = await dataSource.getRepository(DataSet).save({
        itemType: 'user',
        ownerUserId: null,
        ownerApiKeyId: key.id,
        totalNumberOfItems: total,
        numberOfItemsPerPage: 50,
        parameters: null,
        expiresAt: new Date(Date.now() + 3600_000),
      });
      await dataSource.query(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO data_set_items (data_set_id, position, item_id) SELECT ?, i, 1000000 + i FROM n`,
        [total, set.id],
      );
      const { port, hostname } = new URL(app.url);
      const socket = net.connect(Number(port), hostname);
      socket.write(
        `GET /exportDataSet?dataSetId=${set.id}&format=csv&apiKey=${key.secret} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
      );
      const head = await new Promise<string>((resolve) =>
        socket.once('data', (data: Buffer) => resolve(data.toString('latin1'))),
      );
      expect(head.startsWith('HTTP/1.1 200')).toBe(true);
      socket.destroy();
      const ended = (msg: string) => app.logs.records().some((record) => record.msg === msg);
      // The answer ends one way or the other; wait for whichever comes.
      while (!ended('the client left during a download') && !ended('request completed')) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(ended('the client left during a download')).toBe(true);
      expect(ended('request completed')).toBe(false);
      expect(ended('download failed after its first byte: the connection is cut')).toBe(false);
    } finally {
      await app.close();
      await close();
    }
  });
});
